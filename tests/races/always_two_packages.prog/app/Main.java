// race: race-always shop.Stock.count
// A program of two packages: a race report names the field by its class's
// binary name (shop.Stock.count) and each frame by its own file.  50 rounds
// each, so a few seeds of the random scheduler lose an update (make asan
// runs 5).
package app;

import shop.Stock;

public class Main {
    public static void main(String[] args) throws InterruptedException {
        Stock s = new Stock();
        Thread buyer = new Thread(new Buyer(s));
        Thread keeper = new Thread(new Keeper(s));
        buyer.start();
        keeper.start();
        buyer.join();
        keeper.join();
        System.out.println(s.count() == 450 ? "done" : "done (an update was lost)");
    }
}

class Buyer implements Runnable {
    private final Stock s;
    Buyer(Stock s) { this.s = s; }
    public void run() { for (int i = 0; i < 50; i++) s.take(); }
}

class Keeper implements Runnable {
    private final Stock s;
    Keeper(Stock s) { this.s = s; }
    public void run() { for (int i = 0; i < 50; i++) s.restock(); }
}
// expect some seed: done (an update was lost)
