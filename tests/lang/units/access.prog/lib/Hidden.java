package lib;

class Hidden {
    public static int x;
}
