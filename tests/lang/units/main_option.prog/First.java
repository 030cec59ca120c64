// --main chooses the class whose main starts the program, as `java
// pkg.Second` does after `javac *.java`.
package pkg;

public class First {
    public static void main(String[] args) { System.out.println("first"); }
    static String hello() { return "hello from First"; }
}
