// A small order-processing program for the debugbridge demo: totals each order, asks the coupon
// service for its discount, and skips an order whose coupon is not valid.
using Shop;

var orders = new List<Order>
{
    new(1, "ACME", [new Line("bolt", 2.50m, 3), new Line("nut", 4.00m, 1)]),
    new(2, "Bolt & Co", [new Line("gear", 10.00m, 2)], Coupon: "HALF"),
    new(3, "Cogs Ltd", [new Line("cog", 7.25m, 4)], Coupon: "EXPIRED"),
};
var checkout = new Checkout(new Coupons());
foreach (var order in orders)
{
    try
    {
        var receipt = await checkout.ProcessAsync(order);
        Console.WriteLine($"order {order.Id}: total {receipt.Total:0.00}, after discount {receipt.Final:0.00}");
    }
    catch (InvalidOperationException e)
    {
        Console.WriteLine($"order {order.Id} skipped: {e.Message}");
    }
}
