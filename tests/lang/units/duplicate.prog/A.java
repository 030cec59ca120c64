// The same class in two files of one package.
public class A {
    public static void main(String[] args) { }
}

class Shared { }
