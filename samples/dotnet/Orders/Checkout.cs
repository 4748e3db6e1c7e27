using System.Diagnostics;

namespace Shop;

public record Line(string Product, decimal Price, int Quantity);

[DebuggerDisplay("Order #{Id} for {Customer,nq} ({Lines.Count} lines)")]
public record Order(int Id, string Customer, List<Line> Lines, string? Coupon = null)
{
    public decimal Subtotal => Lines.Sum(line => line.Price * line.Quantity);
}

public record Receipt(int OrderId, decimal Total, decimal Final);

public class Coupons
{
    private readonly Dictionary<string, decimal> percentOff = new() { ["HALF"] = 50m, ["TENOFF"] = 10m };

    /** The house discount without a coupon; a coupon's own, or an error for one that is not valid. */
    public async Task<decimal> PercentOffAsync(string? code)
    {
        await Task.Delay(5); // the coupon service
        if (code is null) return 10m;
        return percentOff.TryGetValue(code, out var percent) ? percent : throw new InvalidOperationException($"coupon {code} is not valid");
    }
}

public class Checkout(Coupons coupons)
{
    public async Task<Receipt> ProcessAsync(Order order)
    {
        var total = 0m;
        foreach (var line in order.Lines)
        {
            total += line.Price * line.Quantity; // DEMO:total
        }
        var percent = await coupons.PercentOffAsync(order.Coupon);
        var final = ApplyDiscount(total, percent); // DEMO:discount
        return new Receipt(order.Id, total, final);
    }

    public static decimal ApplyDiscount(decimal total, decimal percent)
    {
        var discount = total * percent / 100;
        return Math.Round(total - discount, 2);
    }
}
