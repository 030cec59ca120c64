package bank;

class Depositor implements Runnable {
    private final Account a;
    Depositor(Account a) { this.a = a; }
    public void run() { for (int i = 0; i < 10; i++) a.deposit(1); }
}
