"""A small order-processing program for the debugbridge demo."""


def compute_total(order):
    total = 0.0
    for item in order["items"]:
        price = item["price"]
        total += price * item["qty"]  # DEMO:total
    return total


def apply_discount(total, percent):
    discount = total * percent / 100
    return round(total - discount, 2)


def main():
    orders = [
        {"id": 1, "items": [{"price": 2.5, "qty": 3}, {"price": 4.0, "qty": 1}]},
        {"id": 2, "items": [{"price": 10.0, "qty": 2}]},
    ]
    for order in orders:
        total = compute_total(order)
        final = apply_discount(total, 10)  # DEMO:discount
        print(f"order {order['id']}: total {total:.2f}, after discount {final:.2f}")


if __name__ == "__main__":
    main()
