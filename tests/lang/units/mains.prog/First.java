// Two classes declare main and no --main chooses: `java` needs to be told
// which, and so does drvm.
public class First {
    public static void main(String[] args) { System.out.println("first"); }
}
// expect error: 1: 2 classes declare 'public static void main(String[] args)': First, Second (choose one with --main CLASS)
