// --main must name a class of the program, by its qualified name.
package app;

public class App {
    public static void main(String[] args) { }
}
// drvm: --main App
// expect error: 1: could not find or load main class App
