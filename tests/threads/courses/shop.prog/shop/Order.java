package shop;

// An order line: immutable, so customers may share it freely.
public record Order(String customer, Item item, int quantity) {
    public Order {
        if (quantity <= 0) throw new IllegalArgumentException("quantity " + quantity);
    }
}
