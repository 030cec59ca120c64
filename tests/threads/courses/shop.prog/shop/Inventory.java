package shop;

// The shop's stock, one counter per item, guarded by the inventory's monitor.
public class Inventory {
    private final int[] stock = new int[Item.values().length];
    private int sold, refused;

    public Inventory(int each) {
        for (Item i : Item.values()) stock[i.ordinal()] = each;
    }

    public synchronized boolean place(Order o) {
        int left = stock[o.item().ordinal()];
        if (left < o.quantity()) {
            refused++;
            return false;
        }
        stock[o.item().ordinal()] = left - o.quantity();
        sold += o.quantity();
        return true;
    }

    public synchronized int left(Item i) { return stock[i.ordinal()]; }
    public synchronized int sold() { return sold; }
    public synchronized int refused() { return refused; }
}
