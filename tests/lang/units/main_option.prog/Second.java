package pkg;

public class Second {
    public static void main(String[] args) {
        System.out.println("second " + args.length);
        System.out.println(First.hello());
    }
}
// drvm: --main pkg.Second
// args: a b
// expect: second 2
// expect: hello from First
