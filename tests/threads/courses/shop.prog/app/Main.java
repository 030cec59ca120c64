package app;

import shop.Inventory;
import shop.Item;
import shop.Order;

// Customers in several files and packages: each customer thread places the
// same orders; the stock runs out partway, so how many are refused is fixed
// while who gets refused depends on the schedule.
public class Main {
    public static void main(String[] args) throws InterruptedException {
        Inventory inv = new Inventory(10);
        Thread[] customers = new Thread[3];
        for (int c = 0; c < customers.length; c++) {
            String name = "customer" + c;
            customers[c] = new Thread(() -> {
                for (Item item : Item.values()) inv.place(new Order(name, item, 2));
                inv.place(new Order(name, Item.PLUM, 2));
            }, name);
            customers[c].start();
        }
        for (Thread t : customers) t.join();
        for (Item i : Item.values())
            System.out.printf("%-5s left %2d (%d cents each)%n", i, inv.left(i), i.cents());
        System.out.printf("sold %d, refused %d%n", inv.sold(), inv.refused());
        try {
            new Order("x", Item.APPLE, 0);
        } catch (IllegalArgumentException e) {
            System.out.println("rejected: " + e.getMessage());
        }
    }
}
// expect: APPLE left  4 (30 cents each)
// expect: PEAR  left  4 (45 cents each)
// expect: PLUM  left  0 (12 cents each)
// expect: sold 22, refused 1
// expect: rejected: quantity 0
