#!/usr/bin/env python3
"""The REPL's latencies (make bench): going back from a position a
million loop iterations (3 million decisions) into a run, and a step in a
program with 100 threads.  Each figure comes from the REPL's own `time`
command, typed with pauses as a person would (the copies for `back` are
made in the background while the person reads); the replay that going
back avoids is measured beside it, as the ratio that matters."""
import os
import re
import subprocess
import sys
import tempfile
import time

BIG = """class Big {
  static int count;
  static int[] data = new int[100];
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 1000000; i++) { data[i % 100] += i; }
    Thread a = new Inc();
    Thread b = new Inc();
    a.start(); b.start();
    a.join(); b.join();
    System.out.println(count);
  }
}
class Inc extends Thread {
  public void run() { Big.count++; }
}
"""

MANY = """class Many {
  static int total;
  public static void main(String[] args) throws Exception {
    Thread[] ts = new Thread[100];
    for (int i = 0; i < 100; i++) { ts[i] = new Worker(); ts[i].start(); }
    for (int i = 0; i < 100; i++) ts[i].join();
    System.out.println(total);
  }
}
class Worker extends Thread {
  int mine;
  public void run() { for (int i = 0; i < 1000; i++) { mine++; Many.total++; } }
}
"""


def session(drvm, prog, commands, pause):
    """Types commands into `drvm repl prog` with a pause after each; returns
    the (command, ms) of every `time` line."""
    p = subprocess.Popen([drvm, "repl", prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    for c in commands:
        p.stdin.write(c + "\n")
        p.stdin.flush()
        time.sleep(pause)
    p.stdin.write("quit\n")
    out, _ = p.communicate(timeout=300)
    return [(m.group(1), float(m.group(2))) for m in re.finditer(r"\((\w+) took ([0-9.]+) ms\)", out)]


def main():
    drvm = sys.argv[sys.argv.index("--drvm") + 1] if "--drvm" in sys.argv else "./drvm"
    d = tempfile.mkdtemp()
    big, many = os.path.join(d, "big.dl"), os.path.join(d, "many.dl")
    open(big, "w").write(BIG)
    open(many, "w").write(MANY)
    t = session(drvm, big, ["time step T1", "time step T1", "time back", "time back", "time goto 3000012",
                            "time goto 3000013"], 1.0)
    steps = [ms for c, ms in t[1:2]]
    backs = [ms for c, ms in t if c in ("back", "goto")]
    # a decision inside main's loop was never a position: no copy of it
    replay = session(drvm, big, ["time goto 2999999"], 1.0)[-1][1]
    print("repl, a position 1,000,000 loop iterations (3,000,000 decisions) into the run:")
    print("  back / goto (a copy made while the person read): %s ms" % ", ".join("%.2f" % b for b in backs))
    print("  going back by replaying the prefix instead:      %.1f ms  (%.0fx slower)" % (replay, replay / max(backs)))
    print("  a step there:                                    %.2f ms" % steps[0])
    m = session(drvm, many, ["run T0 to 6"] + ["time step T50"] * 5 + ["time next T60", "time back"], 0.3)
    print("repl, 100 threads:")
    print("  step T50: %s ms" % ", ".join("%.2f" % ms for c, ms in m if c == "step"))
    print("  next T60 (to the thread's end, 4000 decisions): %.2f ms; back: %.2f ms"
          % tuple(ms for c, ms in m if c in ("next", "back")))
    os.remove(big), os.remove(many), os.rmdir(d)


if __name__ == "__main__":
    main()
