// A program of three files in one package: classes of the package see
// one another (and their package-private members) without imports; a
// stack trace names each frame's own file.
package bank;

import java.util.Random;

public class Main {
    public static void main(String[] args) throws InterruptedException {
        Account a = new Account();
        Thread t = new Thread(new Depositor(a));
        t.start();
        a.deposit(5);
        t.join();
        System.out.println(a.balance() + " " + a.touched);
        String s = a.toString();
        System.out.println(s.substring(0, s.indexOf('@')));
        System.out.println(new Random(42).nextInt(100));
        System.out.println(new bank.Account().balance());
        a.fail();
    }
}
// expect: 15 11
// expect: bank.Account
// expect: 30
// expect: 0
// expect runtime error: java.lang.IllegalStateException: closed
// expect stderr: at bank.Account.fail(Account.java:8)
// expect stderr: at bank.Main.main(Main.java:20)
