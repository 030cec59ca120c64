#!/usr/bin/env python3
"""The cost of drawing a run (make bench): each program run plainly and
with --timeline FILE.html, FILE.svg and text, side by side in one go, best
of --runs wall times; the ratio to the plain run, the events the picture
kept and the file's size.

    python3 tests/bench/timeline.py --drvm ./drvm [--runs 3]

Programs: prodcons (wait/notifyAll traffic, a few thousand events), and a
lock counter sized to about 250,000 events (the picture keeps up to
500,000).  The figures are information; the exit status is 1 only when a
run fails or a picture is missing.  Python 3 standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Four threads, 12,500 synchronized increments each: about 250,000 events.
MANY = """public class Many {
  static final Object lock = new Object();
  static int count;
  static class W extends Thread {
    public void run() {
      for (int i = 0; i < 12500; i++) {
        synchronized (lock) { count++; }
      }
    }
  }
  public static void main(String[] args) throws InterruptedException {
    W[] ws = new W[4];
    for (int i = 0; i < 4; i++) { ws[i] = new W(); ws[i].start(); }
    for (int i = 0; i < 4; i++) ws[i].join();
    System.out.println(count);
  }
}
"""

DATA = re.compile(r'<script id="drvm-data" type="application/json">(.*?)</script>', re.S)


def best(argv, runs):
    """The best wall time of runs runs of argv, and the last run's exit status."""
    times, code = [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        code = p.returncode
    return min(times), code


def events_in(html_path):
    with open(html_path, encoding="utf-8") as f:
        m = DATA.search(f.read())
    if not m:
        return None
    d = json.loads(m.group(1))
    return len(d["events"]), d.get("truncated", 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--drvm", default="./drvm")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    drvm = os.path.abspath(a.drvm)
    tmp = tempfile.mkdtemp(prefix="drvm-bench-timeline-")
    many = os.path.join(tmp, "Many.dl")
    with open(many, "w") as f:
        f.write(MANY)
    progs = [("prodcons", os.path.join(ROOT, "lang-examples", "prodcons.dl")), ("250k events", many)]
    print("Drawing a run (--timeline), best of %d, --seed 1, the default scheduler and FastTrack:" % a.runs)
    print("  %-12s %-8s %9s %7s %10s %9s" % ("program", "picture", "wall", "ratio", "events", "size"))
    failed = False
    for name, path in progs:
        base, code = best([drvm, "run", "--seed", "1", path], a.runs)
        if code not in (0, 66):
            print("  %s: the plain run failed (exit %d)" % (name, code))
            failed = True
            continue
        print("  %-12s %-8s %8.3fs %7s %10s %9s" % (name, "none", base, "1.0x", "", ""))
        for kind in ("html", "svg", "text"):
            out = os.path.join(tmp, "t." + kind) if kind != "text" else "text"
            argv = [drvm, "run", "--seed", "1", "--timeline", out, path]
            wall, code = best(argv, a.runs)
            size, events = "", ""
            if kind != "text":
                if code not in (0, 66) or not os.path.exists(out):
                    print("  %s: --timeline %s failed (exit %d)" % (name, kind, code))
                    failed = True
                    continue
                size = "%.1f MB" % (os.path.getsize(out) / 1e6)
                if kind == "html":
                    n, cut = events_in(out)
                    events = "%d" % n + (" (+%d cut)" % cut if cut else "")
            print("  %-12s %-8s %8.3fs %6.1fx %10s %9s" % (name, kind, wall, wall / base if base else 0, events, size))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
