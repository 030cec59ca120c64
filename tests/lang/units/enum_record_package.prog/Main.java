// An enum and a record in a package are named by it (shop.Size), as javac names them.
import shop.*;

public class Main {
    public static void main(String[] a) {
        Item i = new Item("x", Size.M);
        System.out.println(i + " " + i.size().n() + " " + Size.class.getName()); // expect: Item[name=x, size=M] 2 shop.Size
    }
}
