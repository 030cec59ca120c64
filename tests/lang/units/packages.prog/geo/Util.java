package geo;

public class Util {
    public static String name() { return "geo.Util " + Shape.kind(); }
}

class Shape {                       // package-private: geo's own
    static String kind() { return "shape"; }
}
