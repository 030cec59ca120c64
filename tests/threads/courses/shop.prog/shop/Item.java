package shop;

public enum Item {
    APPLE(30), PEAR(45), PLUM(12);

    private final int cents;

    Item(int cents) { this.cents = cents; }

    public int cents() { return cents; }
}
