package lib;

public class Open {
    int pkg;
    protected int prot;
    public int pub;
    static void helper() { }
    public static void shared() { Hidden.x++; }
}
