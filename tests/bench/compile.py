#!/usr/bin/env python3
"""How drvm's compiler scales with the size of its input (make bench).

    python3 tests/bench/compile.py --drvm ./drvm [--sizes 1000,10000,100000]
                                   [--shapes methods,locals,...] [--timeout 600]
                                   [--max-memory 8]

For each shape below it generates a program of size N (N = 1,000, 10,000
and 100,000 by default), runs `drvm run --detector none FILE` once and
prints a table: the CPU seconds of each run and the growth factor from one
size to the next.  A compiler that is near-linear grows about 10x-15x per
10x of input; a quadratic step shows as some 100x.  The programs do almost
nothing at run time, so the time is the compiler's (the prelude's parse and
check is a constant of some milliseconds, visible at N = 1,000).

Every program prints values that depend on the whole input (the last
method's result, the last local, the last case...), and each run's stdout
must be exactly what the generator expects: the exit status is 1 when a run
fails, times out or prints anything else, 0 otherwise, 2 on a usage error.

The shapes (each named after what there are N of):

  methods      static methods in one class, each calling the one before it
               (in chains of 1,000): duplicate-signature check, call resolution
  locals       locals in one method, each reading the first and the one
               before it: duplicate-local check, name lookup, flow analysis
  switch       int case labels in one switch: duplicate-label check, the
               dispatch table
  switch_str   String case labels in one switch: the same with hashes
  strings      distinct string literals in one array initializer, one of
               them repeated (the constant pool: interning)
  fields       static fields, each initialized from the one before it:
               duplicate-field check, field lookup
  classes      top-level classes, each calling the one before it (in chains
               of 1,000): duplicate-class check, type-name lookup
  nested       static nested classes of the main class, likewise: duplicate
               member-class check, member-class lookup
  ifelse       N conditions in if / else if chains of 400 (an else if
               nests, and the parser's nesting limit is 500)
  blocks       N blocks in one method, each declaring the same local name:
               scopes that open and close
  virtuals     instance methods, half in a class and half overriding them in
               its subclass: vtable slots
  assigns      locals in one method, each added to one declared before them
               all: the debugger's table of locals (which assignment makes a
               local readable)
  calls        String locals in one method, each set from a call: the GC's
               map of live registers at every call
  finals       blank final fields, each assigned in the constructor:
               definite assignment of fields
  branches     locals in one method, each tested by an if: definite
               assignment's states at branches (they are bit sets over all
               the method's locals, so their copying alone grows as N^2/64
               words; their memory is freed after each statement)
  params       parameters of one method, and as many locals passed to it in
               one call: whether a later argument assigns an earlier one's
               local (`f(x, x = 1)` passes the old x)

CPU time (user + system) is the child's own, from os.wait4, so the other
work on a shared machine disturbs it less than wall time.  Each run may
use --max-memory GiB of address space (default 8; 0 for no limit, which
AddressSanitizer's builds need): a compiler that needs more fails the run
rather than the machine.  Python 3 standard library only; the runner is
tests/bench/run.py's run_measured.
"""

import argparse
import os
import resource
import sys
import tempfile

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)
import run as bench  # noqa: E402  (run_measured: one way to measure for every bench script)

CHAIN = 1000  # calls chain at most this deep (the VM's stack is not what is measured)
IF_CHAIN = 400  # conditions in one if / else if chain


def gen_methods(n):
    body = []
    for k in range(n):
        call = "x" if k % CHAIN == 0 else "m%d(x)" % (k - 1)
        body.append("    static int m%d(int x) { return %s + 1; }\n" % (k, call))
    src = ("public class Main {\n" + "".join(body) +
           "    public static void main(String[] args) { System.out.println(m%d(0)); }\n}\n" % (n - 1))
    return src, "%d\n" % ((n - 1) % CHAIN + 1)


def gen_locals(n):
    lines = ["        int v0 = 1;\n"]
    lines += ["        int v%d = v%d + v0;\n" % (k, k - 1) for k in range(1, n)]
    src = ("public class Main {\n    public static void main(String[] args) {\n" + "".join(lines) +
           "        System.out.println(v%d);\n    }\n}\n" % (n - 1))
    return src, "%d\n" % n


def gen_switch(n):
    cases = ["            case %d: r = %d; break;\n" % (k, k * 2) for k in range(n)]
    src = ("public class Main {\n    public static void main(String[] args) {\n"
           "        int r = -1;\n        for (int x = %d; x < %d; x++) {\n"
           "            switch (x) {\n%s            default: r = -2;\n            }\n"
           "            System.out.println(r);\n        }\n    }\n}\n") % (n - 2, n + 1, "".join(cases))
    return src, "%d\n%d\n-2\n" % ((n - 2) * 2, (n - 1) * 2)


def gen_switch_str(n):
    cases = ["            case \"k%d\": r = %d; break;\n" % (k, k) for k in range(n)]
    src = ("public class Main {\n    public static void main(String[] args) {\n"
           "        int r = -1;\n        String s = \"k\" + (%d + args.length);\n"
           "        switch (s) {\n%s            default: r = -2;\n        }\n"
           "        System.out.println(r);\n    }\n}\n") % (n - 1, "".join(cases))
    return src, "%d\n" % (n - 1)


def gen_strings(n):
    lits = ",\n".join('        "s%d"' % k for k in range(n))
    src = ("public class Main {\n    static String[] S = {\n%s,\n        \"s0\"\n    };\n"
           "    public static void main(String[] args) {\n"
           "        System.out.println(S.length);\n        System.out.println(S[%d]);\n"
           "        System.out.println(S[0] == S[%d]);\n        System.out.println(S[%d] == \"s%d\");\n"
           "    }\n}\n") % (lits, n - 1, n, n - 1, n - 1)
    return src, "%d\ns%d\ntrue\ntrue\n" % (n + 1, n - 1)


def gen_fields(n):
    lines = ["    static int f0 = 1;\n"]
    lines += ["    static int f%d = f%d + f0;\n" % (k, k - 1) for k in range(1, n)]
    src = ("public class Main {\n" + "".join(lines) +
           "    public static void main(String[] args) { System.out.println(f%d); }\n}\n" % (n - 1))
    return src, "%d\n" % n


def class_chain(n, indent, mods):
    out = []
    for k in range(n):
        call = "x" if k % CHAIN == 0 else "C%d.v(x)" % (k - 1)
        out.append("%s%sclass C%d { static int v(int x) { return %s + 1; } }\n" % (indent, mods, k, call))
    return "".join(out)


def gen_classes(n):
    src = ("public class Main {\n"
           "    public static void main(String[] args) { System.out.println(C%d.v(0)); }\n}\n" % (n - 1) +
           class_chain(n, "", ""))
    return src, "%d\n" % ((n - 1) % CHAIN + 1)


def gen_nested(n):
    src = ("public class Main {\n" + class_chain(n, "    ", "static ") +
           "    public static void main(String[] args) { System.out.println(C%d.v(0)); }\n}\n" % (n - 1))
    return src, "%d\n" % ((n - 1) % CHAIN + 1)


def gen_ifelse(n):
    # chains of IF_CHAIN conditions: an else-if nests, and the parser's nesting limit is 500
    arms = "".join("        %sif (x == %d) r = %d;\n" % ("else " if k % IF_CHAIN else "", k, k * 3) for k in range(n))
    src = ("public class Main {\n    public static void main(String[] args) {\n"
           "        int x = %d + args.length;\n        int r = -1;\n%s"
           "        System.out.println(r);\n    }\n}\n") % (n - 1, arms)
    return src, "%d\n" % ((n - 1) * 3)


def gen_blocks(n):
    blocks = "".join("        { int t = %d; s += t; }\n" % (k % 7) for k in range(n))
    src = ("public class Main {\n    public static void main(String[] args) {\n        int s = 0;\n%s"
           "        System.out.println(s);\n    }\n}\n") % blocks
    return src, "%d\n" % sum(k % 7 for k in range(n))


def gen_virtuals(n):
    half = n // 2
    base = "".join("    int m%d(int x) { return x + %d; }\n" % (k, k) for k in range(half))
    sub = "".join("    int m%d(int x) { return x - %d; }\n" % (k, k) for k in range(half))
    src = ("public class Main {\n    public static void main(String[] args) {\n"
           "        Base b = new Sub();\n        System.out.println(b.m%d(0) + \" \" + new Base().m%d(0));\n"
           "    }\n}\nclass Base {\n%s}\nclass Sub extends Base {\n%s}\n") % (half - 1, half - 1, base, sub)
    return src, "%d %d\n" % (-(half - 1), half - 1)


def gen_assigns(n):
    lines = "".join("        int v%d = %d; s = s + v%d;\n" % (k, k % 7, k) for k in range(n))
    src = ("public class Main {\n    public static void main(String[] args) {\n        int s = 0;\n%s"
           "        System.out.println(s);\n    }\n}\n") % lines
    return src, "%d\n" % sum(k % 7 for k in range(n))


def gen_calls(n):
    lines = "".join("        String v%d = f(%d);\n" % (k, k % 7) for k in range(n))
    src = ("public class Main {\n    static String f(int x) { return \"v\" + x; }\n"
           "    public static void main(String[] args) {\n%s"
           "        System.out.println(v0 + v%d);\n    }\n}\n") % (lines, n - 1)
    return src, "v0v%d\n" % ((n - 1) % 7)


def gen_finals(n):
    fields = "".join("    final int f%d;\n" % k for k in range(n))
    assigns = "".join("        f%d = %d;\n" % (k, k) for k in range(n))
    src = ("public class Main {\n%s    Main() {\n%s    }\n"
           "    public static void main(String[] args) { System.out.println(new Main().f%d); }\n}\n") % (
        fields, assigns, n - 1)
    return src, "%d\n" % (n - 1)


def gen_branches(n):
    lines = "".join("        int v%d = %d; if (v%d > 3) s += v%d;\n" % (k, k % 7, k, k) for k in range(n))
    src = ("public class Main {\n    public static void main(String[] args) {\n        int s = 0;\n%s"
           "        System.out.println(s);\n    }\n}\n") % lines
    return src, "%d\n" % sum(k % 7 for k in range(n) if k % 7 > 3)


def gen_params(n):
    params = ", ".join("int p%d" % k for k in range(n))
    lets = "".join("        int v%d = %d;\n" % (k, k % 7) for k in range(n))
    args = ", ".join("v%d" % k for k in range(n))
    src = ("public class Main {\n    static int f(%s) { return p0 + p%d; }\n"
           "    public static void main(String[] args) {\n%s        System.out.println(f(%s));\n"
           "    }\n}\n") % (params, n - 1, lets, args)
    return src, "%d\n" % ((n - 1) % 7)


SHAPES = {
    "methods": gen_methods,
    "locals": gen_locals,
    "switch": gen_switch,
    "switch_str": gen_switch_str,
    "strings": gen_strings,
    "fields": gen_fields,
    "classes": gen_classes,
    "nested": gen_nested,
    "ifelse": gen_ifelse,
    "blocks": gen_blocks,
    "virtuals": gen_virtuals,
    "assigns": gen_assigns,
    "calls": gen_calls,
    "finals": gen_finals,
    "branches": gen_branches,
    "params": gen_params,
}


def measure(drvm, shape, n, tmpdir, timeout):
    """(cpu seconds or None, failure text or None) for one program."""
    src, want = SHAPES[shape](n)
    path = os.path.join(tmpdir, "%s_%d.dl" % (shape, n))
    with open(path, "w") as f:
        f.write(src)
    r = bench.run_measured([drvm, "run", "--detector", "none", path], timeout)
    os.unlink(path)
    if r.timed_out:
        return None, "timed out after %gs" % timeout
    out = r.stdout.decode("utf-8", "replace")
    if r.code != 0 or out != want:
        err = r.stderr.decode("utf-8", "replace").strip().splitlines()
        return r.cpu, "exit %d, stdout %r (expected %r)%s" % (r.code, out[:200], want,
                                                              ("; stderr: " + err[0][:300]) if err else "")
    return r.cpu, None


def fmt_row(cells, widths):
    return "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def main():
    ap = argparse.ArgumentParser(description="drvm's compile time against the size of its input.")
    ap.add_argument("--drvm", default="./drvm")
    ap.add_argument("--sizes", default="1000,10000,100000", help="comma-separated N (default 1000,10000,100000)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated, of: " + ", ".join(SHAPES))
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    ap.add_argument("--max-memory", type=float, default=8,
                    help="GiB of address space per run (default 8; 0: no limit, for sanitizer builds): "
                         "a run past it fails instead of taking the machine's memory")
    args = ap.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s]
    except ValueError:
        ap.error("--sizes: comma-separated integers")
    shapes = [s for s in args.shapes.split(",") if s]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown or not sizes or min(sizes) < 2:
        ap.error("unknown shape %s" % ", ".join(unknown) if unknown else "--sizes: each N at least 2")
    drvm = os.path.abspath(args.drvm)
    # set on this process, so that every child inherits it (this script needs far less)
    if args.max_memory > 0:
        limit = int(args.max_memory * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    head = ["shape"] + ["N=%d" % n for n in sizes] + ["x%g" % (b / a) for a, b in zip(sizes, sizes[1:])]
    widths = [max(10, max(map(len, shapes)))] + [max(9, len(h)) for h in head[1:]]
    print("drvm compile time (CPU seconds of `drvm run --detector none`; growth from each size to the next)")
    print(fmt_row(head, widths))
    failures = []
    with tempfile.TemporaryDirectory(prefix="drvm-compile-bench-") as tmpdir:
        for shape in shapes:
            secs = []
            for n in sizes:
                cpu, fail = measure(drvm, shape, n, tmpdir, args.timeout)
                secs.append(None if fail else cpu)
                if fail:
                    failures.append("%s N=%d: %s" % (shape, n, fail))
            cells = [shape] + ["%.3f" % s if s is not None else "FAIL" for s in secs]
            # the first size is mostly the prelude's constant cost: growth from it says little below 0.01 s
            cells += ["%.1f" % (b / max(a, 0.01)) if a is not None and b is not None else "-"
                      for a, b in zip(secs, secs[1:])]
            print(fmt_row(cells, widths), flush=True)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
