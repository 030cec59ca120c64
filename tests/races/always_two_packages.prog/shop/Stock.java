package shop;

// The shared counter: its lock is the Stock object, taken by take() only.
public class Stock {
    int count;                                   // package-private: shop's
    public synchronized void take() { count--; }
    public void restock() { count += 10; }       // not synchronized: the race
    public synchronized int count() { return count; }
}
