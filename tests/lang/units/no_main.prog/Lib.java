// No class declares main: nothing to run.
public class Lib {
    static void main(String[] args) { }   // not public: not an entry point
}
// expect error: 1: no class declares 'public static void main(String[] args)'
