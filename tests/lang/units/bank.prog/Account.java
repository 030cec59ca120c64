package bank;

public class Account {
    private int balance;
    int touched;                       // package-private
    public synchronized void deposit(int n) { balance += n; touched++; }
    public synchronized int balance() { return balance; }
    public void fail() { throw new IllegalStateException("closed"); }
}
