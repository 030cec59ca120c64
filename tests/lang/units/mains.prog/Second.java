public class Second {
    public static void main(String[] args) { System.out.println("second"); }
}
