#!/usr/bin/env python3
"""Timeline samples for the page (cli/timeline_page.html) and its test.

The JSON follows the shape documented at the top of cli/timeline.h.
Until a real `drvm run --timeline` is at hand, and for the cases a small
program does not give (10^5 events, 50 threads, a truncated run), the
page is tried on these.

  gen.py big N OUT.json        a plausible run of N events (8 threads)
  gen.py edge OUT.json         50 threads, long names, a thread that never
                               ends, a lock held at the end, a race whose
                               earlier access was not kept, truncated > 0
  gen.py empty OUT.json        one thread, no events
  gen.py page TEMPLATE IN.json OUT.html
                               the page with the JSON in it, as the C side
                               does it (one marker replaced, `</` escaped)
"""
import json
import random
import sys

MARKER = "/*DRVM_DATA*/"


def embed(template, data_text):
    """The page with the JSON in place of the marker; `</` becomes `<\\/`
    so that no text in the data can close the script element."""
    if template.count(MARKER) != 1:
        raise SystemExit("the page must contain %s exactly once" % MARKER)
    return template.replace(MARKER, data_text.replace("</", "<\\/"))


def race_text(kind, loc, t_cur, t_prev, prev_kind, line, method, prog):
    return ("==================\nWARNING: DATA RACE\n"
            "%s at %s by thread %s (locks held: none):\n    at %s(%s:%d)\n\n"
            "Previous %s at %s by thread %s (locks held: none):\n    at %s(%s:%d)\n\n"
            "SUMMARY: drvm: data race %s:%d in %s\n=================="
            % (kind, loc, t_cur, method, prog, line, prev_kind, loc, t_prev,
               method, prog, line, prog, line, method))


def big(n, seed=1):
    """n events from 8 worker threads and main: runs of local accesses,
    critical sections on 4 locks, volatile flags, unlocked shared accesses
    (some reported as races), output now and then; quanta like the native
    scheduler's."""
    rnd = random.Random(seed)
    prog = "big.dl"
    nthreads = 9
    threads = [{"id": 0, "name": "main", "parent": -1, "created": -1, "place": "", "end": -1}]
    locks = ["Account#%d" % i for i in range(1, 5)]
    locations = [{"name": "Account#%d.balance" % i, "local": False} for i in range(1, 5)]
    locations += [{"name": "Bank.total", "local": False}, {"name": "Bank.audits", "local": False},
                  {"name": "Bank.done", "local": False}]
    local_base = len(locations)
    for t in range(nthreads):
        locations += [{"name": "Worker#%d.%s" % (t, f), "local": True} for f in ("i", "sum", "tmp")]
    methods = ["Bank.main", "Worker.run", "Account.deposit", "Account.withdraw", "Bank.audit"]
    texts = []
    events, edges, spans, races = [], [], [], []
    last_rel = {}        # lock -> event index of its last release
    last_vwr = None
    last_write = {}      # shared location -> (event, thread)
    raced = set()

    def add(t, kind, x=-1, line=-1, method=-1):
        events.append([t, kind, x, line, method])
        return len(events) - 1

    # main starts the workers
    add(0, "out", len(texts), 5, 0)
    texts.append("starting %d workers" % (nthreads - 1))
    first = {}
    for t in range(1, nthreads):
        f = add(0, "fork", t, 10 + t, 0)
        threads.append({"id": t, "name": "worker-%d" % t, "parent": 0, "created": f,
                        "place": "%s:%d" % (prog, 10 + t), "end": -1})
        first[t] = f
    # each worker's program: a generator of steps, each step a list of events
    state = {t: {"held": None, "span": None, "pending": []} for t in range(1, nthreads)}

    def steps(t):
        """The next few events of thread t, as (kind, x, line, method)."""
        r = rnd.random()
        loc_i = local_base + 3 * t
        if r < 0.55:
            k = rnd.randint(2, 40)
            return [(rnd.choice(("rd", "wr")), loc_i + rnd.randint(0, 2), 30 + rnd.randint(0, 5), 1)
                    for _ in range(k)]
        if r < 0.85:
            a = rnd.randint(0, 3)
            m = rnd.choice((2, 3))
            return [("acq", a, 40, m), ("rd", a, 41, m), ("wr", a, 41, m), ("rel", a, 42, m)]
        if r < 0.93:
            return [("vwr" if rnd.random() < 0.3 else "vrd", 6, 50, 1)]
        if r < 0.98:
            return [("rd", 4, 60, 4), ("wr", 4, 60, 4)]
        return [("out", -1, 70, 1)]

    alive = list(range(1, nthreads))
    while len(events) < n - 3 * nthreads and alive:
        t = rnd.choice(alive)
        quantum = rnd.randint(5, 60)
        for _ in range(quantum):
            st = state[t]
            if not st["pending"]:
                st["pending"] = steps(t)
            kind, x, line, m = st["pending"].pop(0)
            if kind == "out":
                x = len(texts)
                texts.append("worker-%d: %d events so far" % (t, len(events)))
            i = add(t, kind, x, line, m)
            if t in first:
                edges.append([first.pop(t), i, "start"])
            if kind == "acq":
                if x in last_rel and events[last_rel[x]][0] != t:
                    edges.append([last_rel[x], i, "lock"])
                st["span"] = (x, i)
            elif kind == "rel":
                spans.append([t, x, st["span"][1], i])
                last_rel[x] = i
                st["span"] = None
            elif kind == "vwr":
                last_vwr = i
            elif kind == "vrd" and last_vwr is not None and events[last_vwr][0] != t:
                edges.append([last_vwr, i, "volatile"])
            elif kind in ("rd", "wr") and not locations[x]["local"] and x == 4:
                pw = last_write.get(x)
                if pw and pw[1] != t and len(races) < 40 and (pw[0] // 2000) not in raced:
                    raced.add(pw[0] // 2000)
                    races.append({"cur": i, "prev": pw[0], "location": locations[x]["name"],
                                  "text": race_text("Read" if kind == "rd" else "Write",
                                                    locations[x]["name"], "worker-%d" % t,
                                                    "worker-%d" % pw[1], "write", 60,
                                                    "Bank.audit", prog)})
                if kind == "wr":
                    last_write[x] = (i, t)
            if len(events) >= n - 3 * nthreads:
                break
    # the workers end (finishing a critical section first), main joins them
    for t in range(1, nthreads):
        st = state[t]
        if st["span"]:
            a, _ = st["span"]
            i = add(t, "rel", a, 42, 2)
            spans.append([t, a, st["span"][1], i])
        threads[t]["end"] = add(t, "end")
    for t in range(1, nthreads):
        j = add(0, "join", t, 20 + t, 0)
        edges.append([threads[t]["end"], j, "join"])
    add(0, "out", len(texts), 30, 0)
    texts.append("total = %d" % rnd.randint(0, 1000))
    threads[0]["end"] = add(0, "end")
    return {"version": 1, "program": prog, "title": "%d events, generated" % len(events),
            "command": "tests/timeline/samples/gen.py big %d" % n, "outcome": "RACES",
            "threads": threads, "locks": locks, "locations": locations, "methods": methods,
            "texts": texts, "events": events, "edges": edges, "spans": spans,
            "races": races, "truncated": 0}


def edge():
    """The cases the page must survive."""
    prog = "many.dl"
    n = 50
    long = "a-thread-with-a-very-long-name-that-does-not-fit-in-its-column-"
    threads = [{"id": 0, "name": "main", "parent": -1, "created": -1, "place": "", "end": -1}]
    events, edges, spans = [], [], []
    locations = [{"name": "Shared.counter", "local": False},
                 {"name": "AVeryLongClassNameForALocation#12345.aFieldWithAnEvenLongerName", "local": False}]
    for t in range(1, n):
        f = len(events)
        events.append([0, "fork", t, 7, 0])
        threads.append({"id": t, "name": (long + str(t)) if t % 7 == 0 else "t%d" % t, "parent": 0,
                        "created": f, "place": "%s:%d" % (prog, 7), "end": -1})
    for t in range(1, n):
        i = len(events)
        events.append([t, "rd", t % 2, 20, 1])
        edges.append([threads[t]["created"], i, "start"])
        if t % 10 == 3:
            continue       # never ends (end -1): it is still running at the end
        if t == 5:
            events.append([t, "acq", 0, 21, 1])   # held at the end: a span to -1
            spans.append([t, 0, len(events) - 1, -1])
            continue
        events.append([t, "wr", t % 2, 22, 1])
        threads[t]["end"] = len(events)
        events.append([t, "end", -1, -1, -1])
    races = [{"cur": 50 + 2, "prev": -1, "location": "Shared.counter",
              "text": "==================\nWARNING: DATA RACE\nRead at Shared.counter by thread t2:\n"
                      "    at Worker.run(many.dl:20)\n\nPrevious write at Shared.counter by a "
                      "thread whose event was not kept (the limit)\n=================="},
             {"cur": len(events) - 2, "prev": 50, "location": locations[1]["name"],
              "text": "==================\nWARNING: DATA RACE\nWrite at %s ...\n=================="
                      % locations[1]["name"]}]
    return {"version": 1, "program": prog,
            "title": "Fifty threads, " + "and a title that goes on and on " * 4,
            "command": "drvm run --timeline many.html " + "--lib libsomething.so " * 6 + prog,
            "outcome": "DEADLOCK", "threads": threads, "locks": ["Lock#1"], "locations": locations,
            "methods": ["Many.main", "Worker.run"], "texts": [], "events": events, "edges": edges,
            "spans": spans, "races": races, "truncated": 12345}


def empty():
    return {"version": 1, "program": "empty.dl", "title": "", "command": "drvm run empty.dl",
            "outcome": "NORMAL",
            "threads": [{"id": 0, "name": "main", "parent": -1, "created": -1, "place": "", "end": -1}],
            "locks": [], "locations": [], "methods": [], "texts": [], "events": [], "edges": [],
            "spans": [], "races": [], "truncated": 0}


def main(argv):
    if len(argv) >= 3 and argv[0] == "big":
        data, out = big(int(argv[1])), argv[2]
    elif len(argv) == 2 and argv[0] == "edge":
        data, out = edge(), argv[1]
    elif len(argv) == 2 and argv[0] == "empty":
        data, out = empty(), argv[1]
    elif len(argv) == 4 and argv[0] == "page":
        with open(argv[1]) as f:
            template = f.read()
        with open(argv[2]) as f:
            text = f.read()
        with open(argv[3], "w") as f:
            f.write(embed(template, text))
        return 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    with open(out, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
