// A small order-processing program for the debugbridge demo.

function computeTotal(order) {
  let total = 0;
  for (const item of order.items) {
    const price = item.price;
    total += price * item.qty; // DEMO:total
  }
  return total;
}

function applyDiscount(total, percent) {
  const discount = (total * percent) / 100;
  return Math.round((total - discount) * 100) / 100;
}

function main() {
  const orders = [
    { id: 1, items: [{ price: 2.5, qty: 3 }, { price: 4, qty: 1 }] },
    { id: 2, items: [{ price: 10, qty: 2 }] },
  ];
  for (const order of orders) {
    const total = computeTotal(order);
    const final = applyDiscount(total, 10); // DEMO:discount
    console.log(`order ${order.id}: total ${total.toFixed(2)}, after discount ${final.toFixed(2)}`);
  }
}

main();
