// Packages that reuse a simple name: a single-type import shadows the
// same name imported on demand, a qualified name reaches either, and
// java.lang and java.util classes are reachable by their full names too.
package app;

import geo.*;
import text.Util;
import java.util.*;

public class Main {
    static class Point { }           // shadows geo.Point inside Main

    public static void main(String[] args) {
        System.out.println(Util.name());
        System.out.println(geo.Util.name());
        System.out.println(text.Util.NAME.length());
        geo.Point p = new geo.Point(1, 2).plus(new geo.Point(3, 4));
        System.out.println(p);
        System.out.println(Util.pad("ab", 5));
        System.out.println(java.lang.Math.max(3, 7) + java.lang.Integer.MAX_VALUE / 1000000000);
        java.util.Random r = new java.util.Random(42);
        Random q = new Random(42);
        System.out.println(r.nextInt(100) == q.nextInt(100));
        String s = new Point().toString();
        System.out.println(s.substring(0, s.indexOf('@')));
        Other.run();
    }
}

class Other {
    static void run() {
        Point p = new Point(5, 6);   // geo.Point: Main.Point is not in scope here
        System.out.println(p.x + p.y);
    }
}
// expect: text.Util
// expect: geo.Util shape
// expect: 9
// expect: (4, 6)
// expect: ab...
// expect: 9
// expect: true
// expect: app.Main$Point
// expect: 11
