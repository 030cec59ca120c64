// Java's access rules between packages: a class that is not public, and
// package-private members, are invisible outside their package; every
// error of every file is reported in one run.
package app;

import lib.Hidden;
import lib.Missing;
import lib.Open;
import java.util.Random;
import java.util.Random;

public class Main {
    public static void main(String[] args) {
        Open o = new Open();
        o.pub = 1;
        o.pkg = 2;
        Open.helper();
        Open.shared();
        int y = lib.Hidden.x;
        String s = 1;
    }
}
// expect error: 6: Hidden is not public in lib; cannot be accessed from outside package
// expect error: 7: cannot find symbol 'lib.Missing'
// expect error: 16: pkg is not public in Open; cannot be accessed from outside package
// expect error: 17: helper() is not public in Open; cannot be accessed from outside package
// expect error: 19: Hidden is not public in lib; cannot be accessed from outside package
// expect error: 20: incompatible types: int cannot be converted to String
