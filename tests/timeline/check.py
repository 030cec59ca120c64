#!/usr/bin/env python3
"""The structure of drvm's timelines: what the pictures must show.

  check.py [--drvm ./drvm] [--keep DIR] [--known-bugs] [-v] [--self-test]

Draws the small programs of tests/timeline/progs/ (and the papers' figures
of lang-examples/) with `drvm run --timeline`, under fixed schedulers and
seeds, takes the JSON out of each HTML page (cli/timeline.h documents its
shape) and checks it against what the program must produce:

  * in every schedule tried: every index in range, the columns (one per
    thread, its name, the fork that started it and where), the events of
    each column in program order (kinds, locations, locks, lines), every
    happens-before edge of the right kind between the right events (and
    every edge that must be there is), the lock spans, each race linked to
    two conflicting accesses by two threads that no path of arrows orders,
    and in a run without races every conflicting pair ordered by the
    arrows; the printed lines in the printing thread's column, after what
    the thread did before printing;
  * exact expectations where the schedule is fixed (--sched rr);
  * the same run's SVG (well-formed XML, a header per thread, a red link
    per race with its report as <title>) and text (a header per thread,
    !R marks on both accesses, the locks' legend, the width of COLUMNS);
  * --replay draws the recorded run; explore, hunt and the REPL draw;
    the command line's errors.

One line per check (ok / FAIL / XFAIL), then a count; exit 1 on a failure.
XFAIL lines are checks of bugs of the C side that are known and not fixed
yet (KNOWN_BUGS below): they do not fail the run unless --known-bugs is
given, and an XPASS line says when such a bug seems fixed (then take it
out of KNOWN_BUGS). --self-test breaks each kind of expectation on purpose
(mutated copies of good pages, SVGs and texts) and checks that the check
guarding it fails. Standard library only; a few seconds.
"""
import argparse
import collections
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGS = os.path.join("tests", "timeline", "progs")
EXAMPLES = "lang-examples"

# Bugs of the C side that some checks show; their checks are XFAIL until
# fixed (run with --known-bugs to make them fail).
KNOWN_BUGS = {}

ACCESS = {"rd", "wr", "vrd", "vwr"}
LOCK_EVENTS = {"acq", "rel", "wait", "wake", "notify", "nall"}
THREAD_EVENTS = {"fork", "join", "intr", "intr-seen"}
OUTPUT = {"out", "err"}
OTHER = {"end", "sleep", "yield"}
KINDS = ACCESS | LOCK_EVENTS | THREAD_EVENTS | OUTPUT | OTHER
EDGE_KINDS = {"lock", "start", "join", "volatile", "notify", "interrupt"}

DRVM = "./drvm"
TMP = None
VERBOSE = False
STRICT_BUGS = False
passed = failed = xfailed = 0
bug_seen = collections.Counter()


# ------------------------------------------------------------ reporting

def check(ok, name, what, why="", bug=None):
    """One line: ok / FAIL; a failed check of a known bug (one of
    KNOWN_BUGS): XFAIL, unless --known-bugs."""
    global passed, failed, xfailed
    if bug and not ok:
        bug_seen[bug] += 1
    if bug and not ok and not STRICT_BUGS:
        xfailed += 1
        print("XFAIL %s: %s (known C-side bug '%s': %s)%s"
              % (name, what, bug, KNOWN_BUGS[bug], (" [" + why + "]") if why else ""))
        sys.stdout.flush()
        return ok
    if ok:
        passed += 1
        print("ok   %s: %s" % (name, what))
    else:
        failed += 1
        print("FAIL %s: %s%s" % (name, what, (" (" + why + ")") if why else ""))
    sys.stdout.flush()
    return ok


def check_errs(errs, name, what, bug=None):
    """A check that passes when a validator found no error; the first
    errors say why."""
    return check(not errs, name, what, "; ".join(errs[:3]) + (" ... %d in all" % len(errs) if len(errs) > 3 else ""),
                 bug=bug)


# ------------------------------------------------------------ running drvm

def drvm(args, env=None, timeout=60, stdin=None):
    """(exit status, stdout, stderr) of drvm with args, run in the root."""
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    if env:
        e.update(env)
    if VERBOSE:
        print("  $ drvm " + " ".join(args))
    p = subprocess.run([DRVM] + args, cwd=ROOT, env=e, input=stdin, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


_n = [0]


def tmpfile(name):
    _n[0] += 1
    return os.path.join(TMP, "%03d-%s" % (_n[0], name))


def page_json(page):
    """The JSON of a page, after checking how it sits in its <script>
    element: (data, errors)."""
    errs = []
    tag = '<script id="drvm-data" type="application/json">'
    if page.count(tag) != 1:
        return None, ["%d drvm-data elements, not 1" % page.count(tag)]
    at = page.index(tag) + len(tag)
    try:
        data, end = json.JSONDecoder().raw_decode(page, at)
    except ValueError as ex:
        return None, ["the data is not JSON: %s" % ex]
    raw = page[at:end]
    if re.search(r"</script", raw, re.I):
        errs.append("'</script' inside the data")
    if not re.match(r"\s*</script>", page[end:]):
        errs.append("the data is not followed by </script>: %r" % page[end:end + 40])
    return data, errs


def comment_errors(page):
    """'<!--' in the data: with a '<script' after it, the browser's
    parser would not end the element at the page's </script>."""
    tag = '<script id="drvm-data" type="application/json">'
    at = page.find(tag)
    end = page.find("</script>", at)
    raw = page[at + len(tag):end] if at >= 0 else ""
    return ["'<!--' inside the data: %r" % raw[max(0, raw.find("<!--") - 20):raw.find("<!--") + 30]] \
        if "<!--" in raw else []


class Run:
    """A drawn run: the page's data, and the run's status and output."""

    def __init__(self, prog, opts, args=(), fmt="html"):
        self.prog, self.opts, self.args = prog, list(opts), list(args)
        self.file = tmpfile(os.path.basename(prog).replace(".dl", "") + "." + fmt)
        self.cmd = self.opts + ["--timeline", self.file, prog] + (["--"] + self.args if self.args else [])
        self.rc, self.out, self.err = drvm(["run"] + self.cmd)
        self.D, self.page_errs = None, ["no page written"]
        if os.path.exists(self.file):
            with open(self.file, encoding="utf-8") as f:
                self.page = f.read()
            self.D, self.page_errs = page_json(self.page)

    def label(self):
        return "%s %s" % (os.path.basename(self.prog), " ".join(self.opts))

    def again(self, value, env=None):
        """The same run drawn where value says: (status, stdout, stderr)."""
        return drvm(["run"] + self.opts + ["--timeline", value, self.prog] +
                    (["--"] + self.args if self.args else []), env=env)


# ------------------------------------------------------------ reading the model

def ev_sig(D, i):
    """An event as (thread, kind, what, line): what is the location,
    lock, 'T<id>' or printed text."""
    t, k, x, line, _m = D["events"][i]
    if k in ACCESS:
        what = D["locations"][x]["name"]
    elif k in LOCK_EVENTS:
        what = D["locks"][x]
    elif k in THREAD_EVENTS:
        what = "T%d" % x
    elif k in OUTPUT:
        what = D["texts"][x]
    else:
        what = None
    return (t, k, what, line)


def column(D, t):
    return [i for i, e in enumerate(D["events"]) if e[0] == t]


def tid(D, name):
    ids = [th["id"] for th in D["threads"] if th["name"] == name]
    return ids[0] if len(ids) == 1 else None


def clocks(D):
    """Vector clocks of the drawn order: program order (a column) and the
    edges; vc[i][t] = 1 + the index of the last event of t before i."""
    ev, nt = D["events"], len(D["threads"])
    into = collections.defaultdict(list)
    for f, t, _k in D["edges"]:
        into[t].append(f)
    cur = [[0] * nt for _ in range(nt)]
    vc = [None] * len(ev)
    for i, e in enumerate(ev):
        t = e[0]
        v = list(cur[t])
        for f in into[i]:
            if vc[f] is not None:
                v = [max(a, b) for a, b in zip(v, vc[f])]
        v[t] = i + 1
        vc[i] = v
        cur[t] = v
    return vc


def ordered(D, vc, a, b):
    """Whether a path of the picture leads from event a to event b."""
    if a > b:
        return False
    return vc[a][D["events"][a][0]] <= vc[b][D["events"][a][0]]


def line_of(prog, text):
    """The first line of a program's code (not a comment line) that
    holds text."""
    with open(os.path.join(ROOT, prog), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if text in line and not line.lstrip().startswith("//"):
                return n
    return None


def marker_lines(prog):
    """The lines of `// @name` comments of a program: {name: line}."""
    lines = {}
    with open(os.path.join(ROOT, prog), encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            for m in re.finditer(r"// @(\w+)", text):
                lines[m.group(1)] = n
    return lines


# ------------------------------------------------------------ what holds in every run

def structure_errors(D):
    """Keys, types, every index in range."""
    errs = []
    need = {"version": int, "program": str, "title": str, "command": str, "outcome": str, "threads": list,
            "locks": list, "locations": list, "methods": list, "texts": list, "events": list, "edges": list,
            "spans": list, "races": list, "truncated": int}
    for k, ty in need.items():
        if not isinstance(D.get(k), ty):
            errs.append("key %s missing or not %s" % (k, ty.__name__))
    if errs:
        return errs
    if D["version"] != 1:
        errs.append("version %r" % D["version"])
    n, nt = len(D["events"]), len(D["threads"])
    for i, th in enumerate(D["threads"]):
        if th.get("id") != i:
            errs.append("threads[%d].id is %r" % (i, th.get("id")))
        for k in ("parent", "created", "end"):
            if not isinstance(th.get(k), int):
                errs.append("threads[%d].%s not an int" % (i, k))
        if not isinstance(th.get("name"), str) or not isinstance(th.get("place"), str):
            errs.append("threads[%d]: name or place not a string" % i)
        if not -1 <= th.get("parent", 0) < nt:
            errs.append("threads[%d].parent %r out of range" % (i, th.get("parent")))
        for k in ("created", "end"):
            if not -1 <= th.get(k, 0) < n:
                errs.append("threads[%d].%s %r out of range" % (i, k, th.get(k)))
    for i, loc in enumerate(D["locations"]):
        if not isinstance(loc, dict) or not isinstance(loc.get("name"), str) or not isinstance(loc.get("local"), bool):
            errs.append("locations[%d] is %r" % (i, loc))
    for key in ("locks", "methods", "texts"):
        if not all(isinstance(s, str) for s in D[key]):
            errs.append("%s: not all strings" % key)
    size = {"loc": len(D["locations"]), "lock": len(D["locks"]), "thread": nt, "text": len(D["texts"])}
    for i, e in enumerate(D["events"]):
        if not (isinstance(e, list) and len(e) == 5 and isinstance(e[1], str) and
                all(isinstance(v, int) for v in (e[0], e[2], e[3], e[4]))):
            errs.append("events[%d] is %r" % (i, e))
            continue
        t, k, x, line, m = e
        if not 0 <= t < nt:
            errs.append("events[%d]: thread %d out of range" % (i, t))
        if k not in KINDS:
            errs.append("events[%d]: kind %r" % (i, k))
            continue
        space = "loc" if k in ACCESS else "lock" if k in LOCK_EVENTS else "thread" if k in THREAD_EVENTS \
            else "text" if k in OUTPUT else None
        if space and not 0 <= x < size[space]:
            errs.append("events[%d] (%s): x %d out of range" % (i, k, x))
        if not space and x != -1:
            errs.append("events[%d] (%s): x %d, not -1" % (i, k, x))
        if line < -1 or line == 0:
            errs.append("events[%d]: line %d" % (i, line))
        if not -1 <= m < len(D["methods"]):
            errs.append("events[%d]: method %d out of range" % (i, m))
        if k in OUTPUT and (line != -1 or m != -1):
            errs.append("events[%d]: an output line with a line or method" % i)
    for i, e in enumerate(D["edges"]):
        if not (isinstance(e, list) and len(e) == 3 and 0 <= e[0] < n and 0 <= e[1] < n and e[2] in EDGE_KINDS):
            errs.append("edges[%d] is %r" % (i, e))
    for i, s in enumerate(D["spans"]):
        if not (isinstance(s, list) and len(s) == 4 and 0 <= s[0] < nt and 0 <= s[1] < len(D["locks"]) and
                0 <= s[2] < n and -1 <= s[3] < n):
            errs.append("spans[%d] is %r" % (i, s))
    for i, r in enumerate(D["races"]):
        if not (isinstance(r, dict) and isinstance(r.get("cur"), int) and isinstance(r.get("prev"), int) and
                -1 <= r["cur"] < n and -1 <= r["prev"] < n and isinstance(r.get("location"), str) and
                isinstance(r.get("text"), str)):
            errs.append("races[%d] is %r" % (i, r))
    if D["truncated"] < 0:
        errs.append("truncated %d" % D["truncated"])
    used = set(e[2] for e in D["events"] if isinstance(e, list) and len(e) == 5 and e[1] in OUTPUT)
    if used != set(range(len(D["texts"]))) and D["truncated"] == 0:
        errs.append("texts not used by an output event: %s" % sorted(set(range(len(D["texts"]))) - used)[:5])
    return errs


def thread_errors(D):
    """Columns: main first, each other thread started by its parent's fork
    (where the thread says), one end, the last of its column."""
    errs = []
    ev, prog = D["events"], os.path.basename(D["program"])
    if not D["threads"] or D["threads"][0]["name"] != "main" or D["threads"][0]["parent"] != -1 or \
            D["threads"][0]["created"] != -1:
        errs.append("thread 0 is not main, parentless: %r" % (D["threads"][:1],))
    for th in D["threads"]:
        i, c = th["id"], th["created"]
        col = column(D, i)
        if i > 0:
            if c < 0:
                errs.append("T%d has no fork" % i)
            else:
                f = ev[c]
                if f[1] != "fork" or f[2] != i or f[0] != th["parent"]:
                    errs.append("T%d.created %d is %r, not its parent T%d's fork of it" % (i, c, f, th["parent"]))
                if th["place"] != "%s:%d" % (prog, f[3]):
                    errs.append("T%d.place %r, not %s:%d" % (i, th["place"], prog, f[3]))
                if col and col[0] < c:
                    errs.append("T%d has events before its fork" % i)
            forks = [j for j, e in enumerate(ev) if e[1] == "fork" and e[2] == i]
            if len(forks) != (1 if c >= 0 else 0):
                errs.append("T%d forked %d times" % (i, len(forks)))
        ends = [j for j in col if ev[j][1] == "end"]
        if th["end"] >= 0:
            if ends != [th["end"]]:
                errs.append("T%d.end %d but its end events are %s" % (i, th["end"], ends))
            elif col[-1] != th["end"]:
                errs.append("T%d has events after its end" % i)
        elif ends:
            errs.append("T%d has end events %s but end -1" % (i, ends))
        if "state" in th and (th["state"] == "TERMINATED") != (th["end"] >= 0) and D["truncated"] == 0:
            errs.append("T%d's state %s, end %d" % (i, th["state"], th["end"]))
    return errs


def last_before(ev, i, pred):
    for j in range(i - 1, -1, -1):
        if pred(ev[j]):
            return j
    return -1


def edge_errors(D):
    """Each edge: its kind between the right events; and every edge that
    must be drawn is."""
    errs = []
    ev, th = D["events"], D["threads"]
    edges = [tuple(e) for e in D["edges"]]
    if len(set(edges)) != len(edges):
        errs.append("duplicate edges")
    have = set(edges)
    first = {}
    for i, e in enumerate(ev):
        if e[1] not in OUTPUT:
            first.setdefault(e[0], i)
    for f, t, k in edges:
        a, b = ev[f], ev[t]
        if not f < t:
            errs.append("%s edge %d->%d goes back in time" % (k, f, t))
        if a[0] == b[0]:
            errs.append("%s edge %d->%d within T%d" % (k, f, t, a[0]))
        if k == "lock":
            if a[1] not in ("rel", "wait") or b[1] not in ("acq", "wake") or a[2] != b[2]:
                errs.append("lock edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
            elif last_before(ev, t, lambda e: e[1] in ("rel", "wait") and e[2] == b[2]) != f:
                errs.append("lock edge %d->%d: not the last release of %s" % (f, t, D["locks"][b[2]]))
        elif k == "start":
            if a[1] != "fork" or a[2] != b[0] or th[b[0]]["created"] != f:
                errs.append("start edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
            if first.get(b[0]) != t:
                errs.append("start edge %d->%d: not T%d's first event" % (f, t, b[0]))
        elif k == "join":
            if a[1] != "end" or b[1] != "join" or b[2] != a[0]:
                errs.append("join edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
        elif k == "volatile":
            if a[1] != "vwr" or b[1] != "vrd" or a[2] != b[2]:
                errs.append("volatile edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
            elif last_before(ev, t, lambda e: e[1] == "vwr" and e[2] == b[2]) != f:
                errs.append("volatile edge %d->%d: not the last write" % (f, t))
        elif k == "notify":
            if a[1] not in ("notify", "nall") or b[1] != "wake" or a[2] != b[2]:
                errs.append("notify edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
        elif k == "interrupt":
            if a[1] != "intr" or b[1] != "intr-seen" or a[2] != b[0]:
                errs.append("interrupt edge %d->%d: %s -> %s" % (f, t, ev_sig(D, f), ev_sig(D, t)))
    for i, e in enumerate(ev):
        if e[1] in ("acq", "wake"):
            r = last_before(ev, i, lambda x: x[1] in ("rel", "wait") and x[2] == e[2])
            if r >= 0 and ev[r][0] != e[0] and (r, i, "lock") not in have:
                errs.append("no lock edge %d->%d (%s)" % (r, i, D["locks"][e[2]]))
        elif e[1] == "join" and e[2] < len(th) and 0 <= th[e[2]]["end"] < i and \
                (th[e[2]]["end"], i, "join") not in have:
            errs.append("no join edge %d->%d" % (th[e[2]]["end"], i))
        elif e[1] == "vrd":
            w = last_before(ev, i, lambda x: x[1] == "vwr" and x[2] == e[2])
            if w >= 0 and ev[w][0] != e[0] and (w, i, "volatile") not in have:
                errs.append("no volatile edge %d->%d" % (w, i))
        elif e[1] == "intr-seen":
            s = last_before(ev, i, lambda x: x[1] == "intr" and x[2] == e[0])
            if s >= 0 and (s, i, "interrupt") not in have:
                errs.append("no interrupt edge %d->%d" % (s, i))
        elif e[1] == "wake" and not any(k == "notify" and t == i for f, t, k in edges):
            pass  # a timeout, an interrupt or a spurious wake-up has no notify
    for t, info in enumerate(th):
        if t > 0 and info["created"] >= 0 and t in first and (info["created"], first[t], "start") not in have:
            errs.append("no start edge into T%d's first event %d" % (t, first[t]))
    return errs


def span_errors(D):
    """A span per acquisition (acq or wake), closed by the thread's next
    release (rel, wait) of that lock or its end; open (-1) only when the
    thread holds the lock at the end."""
    errs = []
    ev = D["events"]
    froms = collections.Counter(s[2] for s in D["spans"])
    for i, e in enumerate(ev):
        if e[1] in ("acq", "wake") and froms[i] != 1:
            errs.append("acquisition %d (%s) opens %d spans" % (i, ev_sig(D, i), froms[i]))
    for t, lock, f, to in D["spans"]:
        a = ev[f]
        if a[1] not in ("acq", "wake") or a[0] != t or a[2] != lock:
            errs.append("span %r starts at %s" % ([t, lock, f, to], ev_sig(D, f)))
            continue
        close = next((j for j in range(f + 1, len(ev)) if ev[j][0] == t and
                      ((ev[j][1] in ("rel", "wait") and ev[j][2] == lock) or ev[j][1] == "end")), -1)
        if to != close:
            errs.append("span %r should end at %d" % ([t, lock, f, to], close))
    return errs


def race_conflict_errors(D, r, vc=None):
    errs = []
    ev = D["events"]
    c, p = r["cur"], r["prev"]
    if c < 0 or p < 0:
        return ["race on %s not linked to two events (cur %d, prev %d)" % (r["location"], c, p)]
    a, b = ev[p], ev[c]
    if not p < c:
        errs.append("race on %s: prev %d not before cur %d" % (r["location"], p, c))
    if a[1] not in ("rd", "wr") or b[1] not in ("rd", "wr"):
        errs.append("race on %s: not two plain accesses: %s, %s" % (r["location"], ev_sig(D, p), ev_sig(D, c)))
        return errs
    if a[0] == b[0]:
        errs.append("race on %s: both accesses by T%d" % (r["location"], a[0]))
    if a[2] != b[2] or D["locations"][a[2]]["name"] != r["location"]:
        errs.append("race on %s links %s and %s" % (r["location"], ev_sig(D, p), ev_sig(D, c)))
    if "wr" not in (a[1], b[1]):
        errs.append("race on %s: two reads" % r["location"])
    if D["locations"][a[2]]["local"]:
        errs.append("race on %s: its location is marked local" % r["location"])
    if vc is not None and ordered(D, vc, p, c):
        errs.append("race on %s: the arrows order %d before %d" % (r["location"], p, c))
    return errs


def report_names(text, location):
    """Whether a report names the location: 'Cls.f', 'int[]#1[3]', or
    for an object's field 'Cls.f (Cls#N)'."""
    if location in text:
        return True
    m = re.match(r"^(.*)#(\d+)\.(\w+)$", location)
    return bool(m) and ("%s.%s (%s#%s)" % (m.group(1), m.group(3), m.group(1), m.group(2))) in text


def race_errors(D, vc):
    errs = []
    ev = D["events"]
    for r in D["races"]:
        errs += race_conflict_errors(D, r, vc)
        t = r["text"]
        if not re.search(r"WARNING: (POTENTIAL )?DATA RACE", t) or not report_names(t, r["location"]):
            errs.append("race on %s: the report does not name it: %r" % (r["location"], t[:120]))
        if r["cur"] >= 0 and r["prev"] >= 0:
            cur, prev = ev[r["cur"]], ev[r["prev"]]
            want = "%s at " % ("Read" if cur[1] == "rd" else "Write")
            wantp = "Previous %s at " % ("read" if prev[1] == "rd" else "write")
            if want not in t or wantp not in t:
                errs.append("race on %s: report does not say %r / %r" % (r["location"], want, wantp))
            for e in (cur, prev):
                if "by thread %s " % D["threads"][e[0]]["name"] not in t:
                    errs.append("race on %s: report does not name thread %s" %
                                (r["location"], D["threads"][e[0]]["name"]))
    return errs


def location_errors(D):
    errs = []
    who = collections.defaultdict(set)
    for e in D["events"]:
        if e[1] in ACCESS:
            who[e[2]].add(e[0])
    for i, loc in enumerate(D["locations"]):
        if loc["local"] != (len(who[i]) <= 1):
            errs.append("%s: local %s but accessed by %s" % (loc["name"], loc["local"], sorted(who[i])))
    return errs


def hb_complete_errors(D, vc):
    """In a run with no race reported, the arrows order every two
    conflicting accesses (of one location, by two threads, one a write)."""
    errs = []
    by_loc = collections.defaultdict(list)
    for i, e in enumerate(D["events"]):
        if e[1] in ("rd", "wr"):
            by_loc[e[2]].append(i)
    for x, idx in by_loc.items():
        for ai, a in enumerate(idx):
            for b in idx[ai + 1:]:
                ea, eb = D["events"][a], D["events"][b]
                if ea[0] != eb[0] and "wr" in (ea[1], eb[1]) and not ordered(D, vc, a, b):
                    errs.append("%s and %s not ordered by the arrows" % (ev_sig(D, a), ev_sig(D, b)))
                    if len(errs) > 5:
                        return errs
    return errs


def text_output_errors(D):
    """drvm's own messages are not the program's output."""
    errs = []
    for s in D["texts"]:
        if s.startswith("drvm: ") or "WARNING: DATA RACE" in s or s == "==================" or \
                s.startswith("SUMMARY: drvm") or s.startswith("Replay: drvm"):
            errs.append("drvm's own line drawn as output: %r" % s)
    return errs


def dump_errors(D):
    return ["thread dump line drawn as output: %r" % s for s in D["texts"]
            if s.startswith("Full thread dump") or s.startswith("Found one Java-level deadlock") or
            s.startswith("Found 1 deadlock")]


class Acc:
    """Errors of one check over several runs: one line in the end."""

    def __init__(self):
        self.errs = collections.OrderedDict()

    def add(self, key, label, errs):
        self.errs.setdefault(key, [])
        self.errs[key] += ["[%s] %s" % (label, e) for e in errs]

    def report(self, name, what_of):
        for key, errs in self.errs.items():
            check_errs(errs, name, what_of(key))


def validate(acc, run, races_expected=None, hb_races=True):
    """The checks that hold in every run, into acc. hb_races: the races
    are a happens-before detector's (no path of arrows between the two
    accesses); not so for --detector hybrid or eraser."""
    D, label = run.D, run.label()
    acc.add("page", label, run.page_errs)
    if D is None:
        return
    errs = structure_errors(D)
    acc.add("structure", label, errs)
    if errs:
        return
    acc.add("columns", label, thread_errors(D))
    acc.add("edges", label, edge_errors(D))
    acc.add("spans", label, span_errors(D))
    acc.add("locations", label, location_errors(D))
    acc.add("output", label, text_output_errors(D))
    acc.add("no thread dump", label, dump_errors(D))
    vc = clocks(D) if len(D["events"]) * len(D["threads"]) <= 2000000 else None
    acc.add("races", label, race_errors(D, vc if hb_races else None))
    if vc is not None and not D["races"] and D["outcome"] in ("NORMAL", "DEADLOCK") and D["truncated"] == 0:
        acc.add("hb", label, hb_complete_errors(D, vc))
    if races_expected is not None:
        locs = sorted(r["location"] for r in D["races"])
        acc.add("race set", label, [] if locs == sorted(races_expected) else
                ["races on %s, expected %s" % (locs, sorted(races_expected))])


WHAT = {
    "page": "the page's JSON is valid, in its <script> element, no '</script' inside",
    "structure": "keys, types, every index in range",
    "columns": "columns: main, each thread forked by its parent where its place says, one end, last",
    "edges": "each hb edge of its kind between the right events, and none missing",
    "spans": "a lock span per acquisition, closed by the release, wait or end (-1: held at the end)",
    "locations": "a location is local exactly when one thread accesses it",
    "output": "drvm's own messages (race reports, 'drvm: ') are not drawn as output",
    "no thread dump": "a deadlock's thread dump is not drawn as output",
    "races": "each race: two plain accesses of its location by two threads, one a write, prev before cur, "
             "unordered by the arrows, its report naming location and threads",
    "hb": "no race reported: the arrows order every two conflicting accesses",
    "race set": "the races are on the expected locations",
    "columns exact": "each column's events in program order (kinds, locations, lines)",
    "same run": "the run's stdout, stderr and exit status are those of the run without --timeline",
}


# ------------------------------------------------------------ the programs

SCHEDS = [["--sched", "rr", "--seed", "1"], ["--sched", "random", "--seed", "1"], ["--sched", "random", "--seed", "2"],
          ["--sched", "random", "--seed", "3"], ["--sched", "native", "--seed", "1"],
          ["--sched", "pct", "--seed", "1"]]


def col_sig(D, t):
    return [ev_sig(D, i)[1:] for i in column(D, t)]


def expect_columns(D, want):
    """want: {thread name: [(kind, what, line), ...]} in program order."""
    errs = []
    for name, seq in want.items():
        t = tid(D, name)
        if t is None:
            errs.append("no thread %s" % name)
            continue
        got = col_sig(D, t)
        if got != [tuple(s) for s in seq]:
            for k, (g, w) in enumerate(zip(got + [None] * len(seq), seq + [None] * len(got))):
                if g != (tuple(w) if w else None):
                    errs.append("%s's event %d is %s, expected %s" % (name, k, g, w))
                    break
    return errs


def prog_lostupdate(acc, D, L):
    fork = lambda n, m: ("fork", "T%d" % n, L[m])
    join = lambda n, m: ("join", "T%d" % n, L[m])
    adder = [("rd", "LostUpdate.count", L["inc"]), ("wr", "LostUpdate.count", L["inc"]), ("end", None, -1)]
    return expect_columns(D, {
        "main": [fork(1, "start_a"), fork(2, "start_b"), join(1, "join_a"), join(2, "join_b"),
                 ("out", "done", -1), ("end", None, -1)],
        "a": adder, "b": adder})


def prog_races(acc, D, L):
    def worker(n):
        me = ("rd", "Races$Worker#%d.me" % n)
        return [("rd", "Races.total", L["total"]), me + (L["total"],), ("wr", "Races.total", L["total"]),
                ("rd", "Races.slots", L["slot"]), me + (L["slot"],), ("wr", "int[]#1[3]", L["slot"]),
                ("rd", "Races.box", L["v"]), me + (L["v"],), ("wr", "Races$Box#1.v", L["v"]), ("end", None, -1)]
    return expect_columns(D, {
        "main": [("wr", "Races.slots", L["slots"]), ("wr", "Races.box", L["box"]),
                 ("wr", "Races$Worker#1.me", L["ctor"]), ("wr", "Races$Worker#2.me", L["ctor"]),
                 ("fork", "T1", L["start_p"]), ("fork", "T2", L["start_q"]), ("join", "T1", L["join_p"]),
                 ("join", "T2", L["join_q"]), ("out", "joined", -1), ("end", None, -1)],
        "p": worker(1), "q": worker(2)})


def prog_lock(acc, D, L):
    inc = [("rd", "LockHandoff.lock", L["acq"]), ("acq", "Object#1", L["acq"]),
           ("rd", "LockHandoff.shared", L["inc"]), ("wr", "LockHandoff.shared", L["inc"]),
           ("rel", "Object#1", L["inc"]), ("end", None, -1)]
    errs = expect_columns(D, {
        "main": [("wr", "LockHandoff.lock", L["init"]), ("fork", "T1", L["start_a"]), ("fork", "T2", L["start_b"]),
                 ("join", "T1", L["join_a"]), ("join", "T2", L["join_b"]), ("rd", "LockHandoff.shared", L["print"]),
                 ("out", "shared = 2", -1), ("end", None, -1)],
        "a": inc, "b": inc})
    ev = D["events"]
    # whichever took the lock second: its acquire has the other's release as its lock edge
    acqs = [i for i, e in enumerate(ev) if e[1] == "acq"]
    rels = [i for i, e in enumerate(ev) if e[1] == "rel"]
    if len(acqs) == 2 and len(rels) == 2:
        if (rels[0], acqs[1], "lock") not in set(map(tuple, D["edges"])) or ev[rels[0]][0] == ev[acqs[1]][0]:
            errs.append("no lock edge from the first thread's release %d to the second's acquire %d" % (rels[0], acqs[1]))
        if not rels[0] < acqs[1]:
            errs.append("the second acquire %d before the first release %d" % (acqs[1], rels[0]))
        spans = sorted(map(tuple, D["spans"]))
        want = sorted([(ev[acqs[0]][0], 0, acqs[0], rels[0]), (ev[acqs[1]][0], 0, acqs[1], rels[1])])
        if spans != want:
            errs.append("spans %s, expected %s" % (spans, want))
    if D["locks"] != ["Object#1"]:
        errs.append("locks %s" % D["locks"])
    return errs


def prog_volatile(acc, D, L):
    errs = []
    ev = D["events"]
    r, w = tid(D, "reader"), tid(D, "writer")
    if col_sig(D, w) != [("wr", "VolatileFlag.data", L["data"]), ("vwr", "VolatileFlag.ready", L["flag"]),
                         ("end", None, -1)]:
        errs.append("writer's column %s" % col_sig(D, w))
    rc = col_sig(D, r)
    # the reader: vrd (yield vrd)* then rd data, wr seen, end
    spin = [s for s in rc if s[0] in ("vrd", "yield")]
    if not (rc[:len(spin)] == spin and spin and spin[-1][0] == "vrd" and
            all(s[2] == L["spin"] for s in spin) and
            rc[len(spin):] == [("rd", "VolatileFlag.data", L["read"]), ("wr", "VolatileFlag$Reader#1.seen", L["read"]),
                               ("end", None, -1)]):
        errs.append("reader's column %s" % rc)
    vwr = [i for i, e in enumerate(ev) if e[1] == "vwr"]
    vrds = [i for i, e in enumerate(ev) if e[1] == "vrd"]
    vedges = sorted((f, t) for f, t, k in D["edges"] if k == "volatile")
    want = [(vwr[0], i) for i in vrds if i > vwr[0]] if len(vwr) == 1 else None
    if vedges != want:
        errs.append("volatile edges %s, expected %s" % (vedges, want))
    if vrds and vrds[-1] < vwr[0]:
        errs.append("the reader's last read of the flag is before the write")
    return errs


def prog_waitnotify(acc, D, L):
    errs = []
    ev = D["events"]
    w, n = tid(D, "waiter"), tid(D, "notifier")
    waits = [i for i, e in enumerate(ev) if e[1] == "wait"]
    wakes = [i for i, e in enumerate(ev) if e[1] == "wake"]
    notes = [i for i, e in enumerate(ev) if e[1] in ("notify", "nall")]
    if not (len(waits) == len(wakes) == len(notes) == 1):
        return ["waits %s, wakes %s, notifies %s: expected one each" % (waits, wakes, notes)]
    wt, wk, nt = waits[0], wakes[0], notes[0]
    if ev[wt][0] != w or ev[wk][0] != w or ev[nt][0] != n:
        errs.append("wait/wake not the waiter's or notify not the notifier's")
    if ev[wt][3] != L["wait"] or ev[wk][3] != L["wait"] or ev[nt][3] != L["notify"]:
        errs.append("lines: wait %d wake %d notify %d" % (ev[wt][3], ev[wk][3], ev[nt][3]))
    if not wt < nt < wk:
        errs.append("not wait %d < notify %d < wake %d" % (wt, nt, wk))
    E = set(map(tuple, D["edges"]))
    if (nt, wk, "notify") not in E:
        errs.append("no notify edge from the notify %d to the wake %d: who woke whom" % (nt, wk))
    nrel = last_before(ev, wk, lambda e: e[1] == "rel" and e[0] == n)
    if (nrel, wk, "lock") not in E:
        errs.append("no lock edge from the notifier's release %d to the wake %d" % (nrel, wk))
    nacq = next((i for i in range(wt, len(ev)) if ev[i][1] == "acq" and ev[i][0] == n), -1)
    if (wt, nacq, "lock") not in E:
        errs.append("no lock edge from the wait %d (a release) to the notifier's acquire %d" % (wt, nacq))
    # the waiter's spans: acq..wait, wake..rel
    wsp = sorted(tuple(s[2:]) for s in D["spans"] if s[0] == w)
    wrel = next((i for i in range(wk, len(ev)) if ev[i][1] == "rel" and ev[i][0] == w), -1)
    wacq = next(i for i, e in enumerate(ev) if e[0] == w and e[1] == "acq")
    if wsp != [(wacq, wt), (wk, wrel)]:
        errs.append("waiter's spans %s, expected %s" % (wsp, [(wacq, wt), (wk, wrel)]))
    if ev[wacq][3] != L["w_acq"]:
        errs.append("the waiter's acquire on line %d" % ev[wacq][3])
    return errs


def prog_interrupt(acc, D, L):
    errs = expect_columns(D, {"main": [("fork", "T1", L["start"]), ("intr", "T1", L["intr"]),
                                       ("join", "T1", L["join"]), ("end", None, -1)]})
    ev = D["events"]
    s = tid(D, "sleeper")
    seen = [i for i, e in enumerate(ev) if e[1] == "intr-seen"]
    intr = [i for i, e in enumerate(ev) if e[1] == "intr"]
    if len(seen) != 1 or ev[seen[0]][0] != s or ev[seen[0]][3] != L["sleep"]:
        errs.append("intr-seen events %s" % [ev_sig(D, i) for i in seen])
    elif (intr[0], seen[0], "interrupt") not in set(map(tuple, D["edges"])):
        errs.append("no interrupt edge %d->%d" % (intr[0], seen[0]))
    sc = [x for x in col_sig(D, s) if x[0] != "sleep"]
    if sc[-3:] != [("intr-seen", "T%d" % s, L["sleep"]), ("out", "interrupted", -1), ("end", None, -1)]:
        errs.append("sleeper's column ends %s" % sc[-3:])
    return errs


def prog_output(acc, D, L):
    last = "main last 3"
    tag = "</script> & \"quoted\" </SCRIPT>"
    return expect_columns(D, {
        "main": [("out", "main first", -1), ("fork", "T1", L["start_p"]), ("fork", "T2", L["start_q"]),
                 ("join", "T1", L["join_p"]), ("join", "T2", L["join_q"]), ("rd", "Output.a", L["last"]),
                 ("rd", "Output.b", L["last"]), ("out", last, -1), ("out", tag, -1), ("end", None, -1)],
        "p": [("wr", "Output.a", L["a"]), ("out", "p wrote a", -1), ("end", None, -1)],
        "q": [("wr", "Output.b", L["b"]), ("out", "q wrote b", -1), ("err", "q on stderr", -1), ("end", None, -1)]})


def prog_deadlock(acc, D, L):
    errs = []
    if D["outcome"] != "DEADLOCK":
        errs.append("outcome %s" % D["outcome"])
    a, b = tid(D, "a"), tid(D, "b")
    open_ = sorted((s[0], D["locks"][s[1]]) for s in D["spans"] if s[3] == -1)
    if open_ != [(a, "Object#1"), (b, "Object#2")]:
        errs.append("spans open at the end %s, expected a holding Object#1 and b Object#2" % open_)
    for t in (a, b):
        if D["threads"][t]["end"] != -1:
            errs.append("T%d has an end" % t)
        acq = [ev_sig(D, i) for i in column(D, t) if D["events"][i][1] == "acq"]
        if len(acq) != 1 or acq[0][3] != L["first"]:
            errs.append("T%d's acquisitions %s" % (t, acq))
    if D["threads"][0]["end"] != -1:
        errs.append("main has an end")
    # each thread's state at the end (the keys came with the deadlock's
    # picture; checked where the page has them)
    if all("state" in t for t in D["threads"]):
        got = [(t["state"], t["waiting"]) for t in D["threads"]]
        if got != [("JOINING", "T%d" % a), ("BLOCKED", "Object#2"), ("BLOCKED", "Object#1")]:
            errs.append("states at the end %s: expected main joining a, a blocked on Object#2, b on Object#1" % got)
    return errs


def prog_single(acc, D, L):
    errs = []
    if [t["name"] for t in D["threads"]] != ["main"]:
        errs.append("threads %s" % D["threads"])
    if D["events"] != [[0, "end", -1, -1, -1]]:
        errs.append("events %s" % D["events"])
    for k in ("edges", "spans", "races", "locks", "locations", "texts"):
        if D[k]:
            errs.append("%s not empty: %s" % (k, D[k]))
    if D["outcome"] != "NORMAL":
        errs.append("outcome %s" % D["outcome"])
    return errs


def prog_many(acc, D, L):
    errs = []
    if len(D["threads"]) != 31:
        return ["%d threads, not 31" % len(D["threads"])]
    for i in range(1, 31):
        th = D["threads"][i]
        if th["name"] != "w%d" % (i - 1) or th["parent"] != 0 or th["place"] != "many.dl:%d" % L["start"]:
            errs.append("thread %d: %r" % (i, th))
        sig = col_sig(D, i)
        want = [("rd", "Many.mine", L["start"] - 11)]
        if len([s for s in sig if s[0] == "acq"]) != 1 or sig[-1] != ("end", None, -1) or \
                ("wr", "int[]#1[%d]" % (i - 1), L["acq"] - 1) not in sig:
            errs.append("T%d's column %s" % (i, sig))
        del want
    if len(D["spans"]) != 30 or any(s[3] == -1 for s in D["spans"]):
        errs.append("%d spans (30 closed expected)" % len(D["spans"]))
    nlock = sum(1 for e in D["edges"] if e[2] == "lock")
    if nlock < 1:
        errs.append("no lock edges between 30 threads sharing a lock")
    if sum(1 for e in D["edges"] if e[2] == "start") != 30 or sum(1 for e in D["edges"] if e[2] == "join") != 30:
        errs.append("not 30 start and 30 join edges")
    return errs


PROGRAMS = [
    # (file, races expected in every schedule, exact columns or more)
    ("lostupdate.dl", ["LostUpdate.count"], prog_lostupdate),
    ("races.dl", ["Races.total", "int[]#1[3]", "Races$Box#1.v"], prog_races),
    ("lock.dl", [], prog_lock),
    ("volatile.dl", [], prog_volatile),
    ("waitnotify.dl", [], prog_waitnotify),
    ("interrupt.dl", [], prog_interrupt),
    ("output.dl", [], prog_output),
    ("deadlock.dl", [], prog_deadlock),
    ("single.dl", [], prog_single),
    ("many.dl", [], prog_many),
]


# ------------------------------------------------------------ exact runs under rr

def sig_list(D):
    return ["T%d %s%s%s" % (t, k, " " + w if w is not None else "", " :%d" % line if line >= 0 else "")
            for t, k, w, line in (ev_sig(D, i) for i in range(len(D["events"])))]


# drvm run --sched rr --seed 1: the whole run, event by event, as the
# schedule makes it (round-robin, a thread runs until it blocks or its
# quantum ends) and the edges and races it must have.
EXACT_RR = {
    "lostupdate.dl": dict(
        events=["T0 fork T1 :@start_a", "T1 rd LostUpdate.count :@inc", "T1 wr LostUpdate.count :@inc",
                "T0 fork T2 :@start_b", "T1 end", "T2 rd LostUpdate.count :@inc", "T2 wr LostUpdate.count :@inc",
                "T0 join T1 :@join_a", "T2 end", "T0 join T2 :@join_b", "T0 out done", "T0 end"],
        edges=[[0, 1, "start"], [3, 5, "start"], [4, 7, "join"], [8, 9, "join"]],
        races=[(5, 2, "LostUpdate.count")]),
    "lock.dl": dict(
        events=["T0 wr LockHandoff.lock :@init", "T0 fork T1 :@start_a", "T1 rd LockHandoff.lock :@acq",
                "T0 fork T2 :@start_b", "T1 acq Object#1 :@acq", "T1 rd LockHandoff.shared :@inc",
                "T1 wr LockHandoff.shared :@inc", "T2 rd LockHandoff.lock :@acq", "T1 rel Object#1 :@inc",
                "T2 acq Object#1 :@acq", "T2 rd LockHandoff.shared :@inc", "T2 wr LockHandoff.shared :@inc",
                "T1 end", "T2 rel Object#1 :@inc", "T0 join T1 :@join_a", "T2 end", "T0 join T2 :@join_b",
                "T0 rd LockHandoff.shared :@print", "T0 out shared = 2", "T0 end"],
        edges=[[1, 2, "start"], [3, 7, "start"], [8, 9, "lock"], [12, 14, "join"], [15, 16, "join"]],
        spans=[[1, 0, 4, 8], [2, 0, 9, 13]],
        races=[]),
    "waitnotify.dl": dict(
        events=["T0 wr WaitNotify.lock :5", "T0 fork T1 :*", "T1 rd WaitNotify.lock :@w_acq", "T0 fork T2 :*",
                "T1 acq Object#1 :@w_acq", "T1 wr WaitNotify.waiting :*", "T1 rd WaitNotify.ready :*",
                "T1 rd WaitNotify.lock :@wait", "T2 rd WaitNotify.lock :@n_acq", "T1 wait Object#1 :@wait",
                "T2 acq Object#1 :@n_acq", "T2 rd WaitNotify.waiting :*", "T2 wr WaitNotify.ready :*",
                "T2 rd WaitNotify.lock :@notify", "T2 notify Object#1 :@notify", "T2 rel Object#1 :*",
                "T1 wake Object#1 :@wait", "T1 rd WaitNotify.ready :*", "T2 end", "T1 rel Object#1 :*", "T1 end",
                "T0 join T1 :*", "T0 join T2 :*", "T0 out woken", "T0 end"],
        edges=[[1, 2, "start"], [3, 8, "start"], [9, 10, "lock"], [15, 16, "lock"], [14, 16, "notify"],
               [20, 21, "join"], [18, 22, "join"]],
        spans=[[1, 0, 4, 9], [2, 0, 10, 15], [1, 0, 16, 19]],
        races=[]),
    "output.dl": dict(
        events=["T0 out main first", "T0 fork T1 :@start_p", "T1 wr Output.a :@a", "T1 out p wrote a",
                "T0 fork T2 :@start_q", "T1 end", "T2 wr Output.b :@b", "T2 out q wrote b", "T2 err q on stderr",
                "T0 join T1 :@join_p", "T2 end", "T0 join T2 :@join_q", "T0 rd Output.a :@last",
                "T0 rd Output.b :@last", "T0 out main last 3", "T0 out </script> & \"quoted\" </SCRIPT>",
                "T0 end"],
        edges=[[1, 2, "start"], [4, 6, "start"], [5, 9, "join"], [10, 11, "join"]],
        races=[]),
}


def exact_rr(name, run):
    D = run.D
    want = EXACT_RR[name]
    L = marker_lines(run.prog)
    got = sig_list(D)
    errs = []
    exp = want["events"]
    if len(got) != len(exp):
        errs.append("%d events, expected %d: %s" % (len(got), len(exp), got))
    for i, (g, w) in enumerate(zip(got, exp)):
        w2 = re.sub(r":@(\w+)", lambda m: ":%d" % L[m.group(1)], w)
        if w2.endswith(":*"):
            ok = re.sub(r" :\d+$", "", g) == w2[:-3]
        else:
            ok = g == w2
        if not ok:
            errs.append("event %d is %r, expected %r" % (i, g, w2))
            break
    check_errs(errs, "rr " + name, "the events, in order, of the fixed round-robin run")
    check(sorted(D["edges"]) == sorted(want["edges"]), "rr " + name, "its happens-before edges",
          "got %s" % D["edges"])
    if "spans" in want:
        check(sorted(D["spans"]) == sorted(want["spans"]), "rr " + name, "its lock spans", "got %s" % D["spans"])
    got_r = [(r["cur"], r["prev"], r["location"]) for r in D["races"]]
    check(got_r == want["races"], "rr " + name, "its races (cur, prev, location)", "got %s" % got_r)


# ------------------------------------------------------------ SVG and text

def own_text(el):
    """An SVG element's own text, without its <title> (a tooltip) or
    other children's."""
    return (el.text or "") + "".join(c.tail or "" for c in el)


def svg_errors(run, svg):
    D = run.D
    errs = []
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as ex:
        return ["not well-formed XML: %s" % ex]
    ns = "{http://www.w3.org/2000/svg}"
    if root.tag != ns + "svg":
        errs.append("root %s" % root.tag)
    heads = [own_text(t) for t in root.iter(ns + "text") if t.get("class") == "head"]
    want = ["T%d %s" % (t["id"], t["name"]) for t in D["threads"]]
    if heads != want:
        errs.append("column headers %s, expected %s" % (heads, want))
    races = [g for g in root.iter(ns + "g") if g.get("class") == "race"]
    linked = [r for r in D["races"] if r["cur"] >= 0 and r["prev"] >= 0]
    if len(races) != len(linked):
        errs.append("%d red race links, %d races" % (len(races), len(linked)))
    for k, (g, r) in enumerate(zip(races, linked)):
        title = g.find(ns + "title")
        want_t = "".join(c for c in r["text"] if c >= " " or c in "\n\t")
        if title is None or title.text != want_t:
            errs.append("race %d's <title> is not its report" % (k + 1))
        label = own_text(g.find(ns + "text")) if g.find(ns + "text") is not None else ""
        if label != "race R%d: %s" % (k + 1, r["location"]):
            errs.append("race %d's label %r" % (k + 1, label))
        if g.find(ns + "line") is None:
            errs.append("race %d has no line" % (k + 1))
    arrows = [ln for ln in root.iter(ns + "line") if ln.get("marker-end")]
    if D["truncated"] == 0 and len(arrows) != len(D["edges"]):
        errs.append("%d arrows, %d edges" % (len(arrows), len(D["edges"])))
    for a, e in zip(arrows, D["edges"]):
        t = a.find(ns + "title")
        if t is None or t.text != "%s: happens-before" % e[2]:
            errs.append("arrow title %r for a %s edge" % (t.text if t is not None else None, e[2]))
            break
    holds = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None and
             r.find(ns + "title").text.startswith("holds ")]
    if D["truncated"] == 0 and len(holds) != len(D["spans"]):
        errs.append("%d lock spans drawn, %d in the data" % (len(holds), len(D["spans"])))
    return errs


def svg_overflow(svg):
    """Texts that run past the SVG's right edge (12 px monospace: about
    7.2 px a character; the legend is 11 px, about 6.6)."""
    root = ET.fromstring(svg)
    width = float(root.get("width"))
    over = []
    for t in root.iter("{http://www.w3.org/2000/svg}text"):
        text = own_text(t)
        per = 6.6 if t.get("class") == "place" else 7.2
        if t.get("x") and float(t.get("x")) + per * len(text) > width + 1:
            over.append("%r at x=%s (width %d)" % (text[:50], t.get("x"), width))
    return over


def tl_lines(out):
    """The timeline's lines in a text run's stdout: from its header."""
    lines = out.split("\n")
    start = next((i for i, l in enumerate(lines) if re.match(r"^ {7}T0 ", l)), None)
    return None if start is None else lines[start:-1] if lines[-1] == "" else lines[start:]


def text_errors(run, out, width):
    """The columns' text: (grid errors, footer width errors)."""
    D = run.D
    lines = tl_lines(out)
    if lines is None:
        return ["no header 'T0 main' in the output"], []
    errs, wide = [], []
    nt = len(D["threads"])
    fit = max(1, (width - 7) // 16)
    shown = min(nt, fit)
    head = lines[0]
    for t in range(shown):
        name = "T%d %s" % (t, D["threads"][t]["name"])
        if not re.search(r"(^|  )%s" % re.escape(name[:14]), head):
            errs.append("no column header %r" % name)
    if re.search(r"\bT%d " % shown, head):
        errs.append("a header for T%d, which should not fit" % shown)
    if nt > shown and not any(l.startswith("(%d more threads do not fit" % (nt - shown)) for l in lines):
        errs.append("no '(%d more threads do not fit' line" % (nt - shown))
    rows = {}
    rule = next((k for k, l in enumerate(lines) if l.startswith(" " * 7 + "─")), 2)
    for l in lines[rule + 1:]:
        m = re.match(r"^(\d+) ", l)
        if m:
            rows[int(m.group(1))] = l
    for k, r in enumerate(D["races"]):
        mark = "!R%d" % (k + 1)
        for i in (r["cur"], r["prev"]):
            if i >= 0 and D["events"][i][0] < shown and mark not in rows.get(i, ""):
                errs.append("row %d has no %s: %r" % (i, mark, rows.get(i)))
        n = sum(l.count(mark + " ") + (1 if l.endswith(mark) else 0) for l in rows.values())
        if n != 2:
            errs.append("%s marks %d rows, not 2" % (mark, n))
        want = "R%d: data race on %s: events %d (T%d) and %d (T%d)" % (
            k + 1, r["location"], r["prev"], D["events"][r["prev"]][0], r["cur"], D["events"][r["cur"]][0])
        if not any(l.startswith(want) for l in lines):
            errs.append("no footer line %r" % want)
    if D["locks"]:
        want = "locks: " + " ".join("%s=%s" % (chr(65 + i) if i < 26 else "#", s) for i, s in enumerate(D["locks"]))
        if want not in lines:
            errs.append("no legend %r" % want)
    elif any(l.startswith("locks:") for l in lines):
        errs.append("a locks legend without locks")
    if "outcome: %s" % D["outcome"] not in lines:
        errs.append("no 'outcome: %s'" % D["outcome"])
    # each visible event has its row (unless folded)
    shown_ev = [i for i, e in enumerate(D["events"]) if e[0] < shown]
    missing = [i for i in shown_ev if i not in rows and not any(
        j < i and "local accesses" in rows[j] for j in rows)]
    if missing:
        errs.append("no row for events %s" % missing[:5])
    footer = [l for l in lines if not re.match(r"^(\d+)? ", l) and not l.startswith("───") and
              not l.startswith("       ")]
    grid = [l for l in lines if l not in footer]
    for l in grid:
        if len(l) > width:
            errs.append("a line of %d columns (> %d): %r" % (len(l), width, l))
            break
    for l in footer:
        if len(l) > width:
            wide.append("a footer line of %d columns (> %d): %r" % (len(l), width, l))
    return errs, wide


# ------------------------------------------------------------ the checks

def check_programs():
    acc = Acc()
    exact = Acc()
    same = Acc()
    rr_runs = {}
    for name, races, fn in PROGRAMS:
        prog = os.path.join(PROGS, name)
        L = marker_lines(prog)
        for opts in SCHEDS:
            run = Run(prog, opts)
            validate(acc, run, races if name != "deadlock.dl" else None)
            if run.D is not None and not structure_errors(run.D):
                exact.add(name, run.label(), fn(acc, run.D, L))
            if opts[1] == "rr":
                rr_runs[name] = run
            if opts[1] in ("rr", "random") and opts[3] == "1":
                rc, out, err = drvm(["run"] + opts + [prog])
                errs = []
                if (rc, out) != (run.rc, run.out):
                    errs.append("exit %s and stdout %r without, %s and %r with --timeline" % (rc, out, run.rc, run.out))
                strip = lambda s: re.sub(r"virtual time [0-9.]+ ms, step \d+", "", s)
                if strip(err) != strip(run.err):
                    errs.append("stderr differs")
                same.add(name, run.label(), errs)
    acc.report("every run", lambda k: WHAT[k] + " (%d programs x %d schedules)" % (len(PROGRAMS), len(SCHEDS)))
    exact.report("every run", lambda k: k + ": " + {
        "lostupdate.dl": "main forks, joins, prints; a and b read and write count, on its line",
        "races.dl": "each worker's accesses in program order, on their lines",
        "lock.dl": "columns; the first release -> the second acquire (a lock edge); one span each",
        "volatile.dl": "writer: wr data, vwr flag; reader spins then reads; a volatile edge into each later read",
        "waitnotify.dl": "one wait, notify, wake: notify -> wake (who woke whom), the lock edges, spans",
        "interrupt.dl": "main forks, interrupts, joins; the sleeper sees it: an interrupt edge",
        "output.dl": "each printed line in its thread's column, after the access before it",
        "deadlock.dl": "outcome DEADLOCK; each thread's lock span open at the end (to -1), no end",
        "single.dl": "one column, one event (end), nothing else",
        "many.dl": "31 columns, each worker's place, its element, its span, start and join edges",
    }[k])
    same.report("same run", lambda k: k + ": " + WHAT["same run"])
    for name in EXACT_RR:
        if name in rr_runs and rr_runs[name].D is not None:
            exact_rr(name, rr_runs[name])
    return rr_runs


def check_formats(rr_runs):
    """SVG and text of the same runs."""
    for name in ("lostupdate.dl", "races.dl", "lock.dl", "waitnotify.dl", "deadlock.dl", "output.dl", "many.dl",
                 "single.dl"):
        run = rr_runs[name]
        svg = tmpfile(name.replace(".dl", ".svg"))
        rc, out, err = run.again(svg)
        ok = os.path.exists(svg)
        check(ok and rc == run.rc, "svg " + name, "drawn, same exit status %d" % run.rc, "exit %d, %s" % (rc, err[-200:]))
        if ok:
            with open(svg, encoding="utf-8") as f:
                text = f.read()
            errs = svg_errors(run, text)
            check_errs(errs, "svg " + name, "well-formed, a header per thread, a red link per race with its report "
                       "as <title>, an arrow per edge, a shaded span per lock span")
            if not errs:
                check_errs(svg_overflow(text), "svg " + name, "no text runs past the picture's right edge")
        for width in (80, 120) if name != "many.dl" else (40, 80, 200):
            rc, out, err = run.again("text", env={"COLUMNS": str(width)})
            errs, wide = text_errors(run, out, width)
            check_errs(errs, "text %s COLUMNS=%d" % (name, width),
                       "headers of the threads that fit, !R marks on both accesses, races and locks listed, "
                       "rows within %d columns" % width)
            check_errs(wide, "text %s COLUMNS=%d" % (name, width), "the footer within %d columns too" % width)
    # the program's own output comes first, then the columns
    run = rr_runs["output.dl"]
    rc, out, err = run.again("text", env={"COLUMNS": "100"})
    check(out.startswith("main first\np wrote a\nq wrote b\nmain last 3\n"), "text output.dl",
          "the run's own output first, then the columns", repr(out[:80]))
    rc, out, err = run.again("text", env={"COLUMNS": "100", "NO_COLOR": "1"})
    check("\033[" not in out, "text output.dl", "no colours when stdout is not a terminal")


def check_escapes(rr_runs):
    run = rr_runs["output.dl"]
    D = run.D
    check(D is not None and "</script> & \"quoted\" </SCRIPT>" in D["texts"], "html output.dl",
          "a printed '</script>' comes back intact from the page's JSON")
    run = Run(os.path.join(PROGS, "escape.dl"), ["--seed", "1"])
    check_errs(run.page_errs, "html escape.dl", "printed '</script>' and '<!--<script>': the JSON is valid and "
               "ends at the element's </script>")
    check(run.D is not None and run.D["texts"] == ["</script>", "<!--<script>", "after -->"], "html escape.dl",
          "the lines come back intact")
    check_errs(comment_errors(getattr(run, "page", "")), "html escape.dl",
               "no '<!--' in the data (a browser would not end the element after '<!--<script>')")
    svg = tmpfile("escape.svg")
    run.again(svg)
    try:
        root = ET.parse(svg).getroot()
        outs = [own_text(t) for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "out"]
        ok = outs == ["> </script>", "> <!--<script>", "> after -->"]
    except (ET.ParseError, OSError):
        ok, outs = False, None
    check(ok, "svg escape.dl", "the SVG is well-formed and shows the lines as printed", str(outs))


def check_replay():
    prog = os.path.join(PROGS, "races.dl")
    rec = tmpfile("races.rec")
    a = Run(prog, ["--sched", "random", "--seed", "5", "--record", rec])
    b = Run(prog, ["--replay", rec])
    ok = a.D is not None and b.D is not None
    check(ok and b.rc == a.rc == 66, "replay races.dl", "--replay draws, exit 66 as the recorded run",
          "rc %s %s" % (a.rc, b.rc))
    if ok:
        for k in ("threads", "locks", "locations", "texts", "events", "edges", "spans"):
            check(a.D[k] == b.D[k], "replay races.dl", "the replay's %s are the recorded run's" % k)
        strip = lambda D: [(r["cur"], r["prev"], r["location"]) for r in D["races"]]
        check(strip(a.D) == strip(b.D), "replay races.dl", "the same races, on the same events",
              "%s vs %s" % (strip(a.D), strip(b.D)))
        check("--replay" in b.D["command"], "replay races.dl", "the command names the replay", b.D["command"])
        acc = Acc()
        validate(acc, b, ["Races.total", "int[]#1[3]", "Races$Box#1.v"])
        acc.report("replay races.dl", lambda k: WHAT[k])


def check_long():
    prog = os.path.join(PROGS, "long.dl")
    run = Run(prog, ["--seed", "1"])
    D = run.D
    ok = D is not None
    # 300,000 times n++ (a read and a write), the read of n for the print,
    # the printed line, the end: 600,003 events
    check(ok and len(D["events"]) == 500000 and D["truncated"] == 100003, "limit long.dl",
          "500,000 events kept, the other 100,003 counted in truncated",
          "%s events, truncated %s" % (len(D["events"]) if ok else None, D["truncated"] if ok else None))
    check(run.rc == 0 and run.out == "n = 300000\n", "limit long.dl", "the run itself is whole", run.out)
    if ok:
        check(not structure_errors(D) and all(e[0] == 0 and e[1] in ("rd", "wr") for e in D["events"]),
              "limit long.dl", "the kept events are the first ones, in range")
    svg = tmpfile("long.svg")
    rc, out, err = run.again(svg)
    text = open(svg, encoding="utf-8").read() if os.path.exists(svg) else ""
    check("100003 later events are not drawn" in text, "limit long.dl", "the SVG says what it leaves out")
    rc, out, err = run.again("text", env={"COLUMNS": "80"})
    check("(100003 later events left out)" in out and "… 500000 local accesses" in out, "limit long.dl",
          "the text folds the local accesses and says what it leaves out")


def check_cli():
    prog = os.path.join(PROGS, "lostupdate.dl")
    rc, out, err = drvm(["run", "--timeline", "x.txt", prog])
    check(rc == 2 and "--timeline takes FILE.html, FILE.svg or text, not 'x.txt'" in err, "cli",
          "--timeline x.txt: exit 2, says what it takes", "exit %d: %s" % (rc, err.strip()[-200:]))
    rc, out, err = drvm(["run", "--timeline=x.png", prog])
    check(rc == 2 and "not 'x.png'" in err, "cli", "--timeline=x.png: exit 2", "exit %d: %s" % (rc, err.strip()))
    rc, out, err = drvm(["run", "--timeline", "x.txt", "--sched", "rr", prog])
    check(not os.path.exists(os.path.join(ROOT, "x.txt")), "cli", "--timeline x.txt writes nothing")
    bad = os.path.join(TMP, "no-such-dir", "t.html")
    rc, out, err = drvm(["run", "--sched", "rr", "--timeline", bad, prog])
    check(rc != 0 and "cannot write" in err and bad in err, "cli", "an unwritable path: non-zero, 'cannot write PATH'",
          "exit %d: %s" % (rc, err.strip()[-200:]))
    rc, out, err = drvm(["run", "--sched", "rr", "--timeline", bad, os.path.join(PROGS, "lock.dl")])
    check(rc != 0 and "cannot write" in err and out == "shared = 2\n", "cli",
          "an unwritable path, a run without races: non-zero, 'cannot write', the run's output whole",
          "exit %d: %s" % (rc, err.strip()[-200:]))
    bad = os.path.join(TMP, "no-such-dir", "t.svg")
    rc, out, err = drvm(["run", "--sched", "rr", "--timeline", bad, prog])
    check(rc != 0 and "cannot write" in err, "cli", "an unwritable SVG path: non-zero, 'cannot write'",
          "exit %d: %s" % (rc, err.strip()[-200:]))
    rc, out, err = drvm(["explore", "--timeline", "x.txt", prog])
    check(rc == 2 and "--timeline takes" in err, "cli", "drvm explore --timeline x.txt: exit 2",
          "exit %d: %s" % (rc, err.strip()[-200:]))
    rc, out, err = drvm(["hunt", prog, "--runs", "1", "--techniques", "native", "--timeline", "x.txt",
                         "--dir", os.path.join(TMP, "hunt-bad")])
    check(rc == 2 and "--timeline takes" in err, "cli", "drvm hunt --timeline x.txt: exit 2",
          "exit %d: %s" % (rc, err.strip()[-200:]))


def check_explore():
    prog = os.path.join(EXAMPLES, "repl_lostupdate.dl")
    d = os.path.join(TMP, "explore")
    os.makedirs(d)
    t = os.path.join(d, "t.html")
    rc, out, err = drvm(["explore", "--witnesses", os.path.join(d, "w"), "--timeline", t, prog])
    names = re.findall(r"^\s+timeline: (\S+)$", out, re.M)
    outcomes = re.findall(r"^  outcome (\d+):", out, re.M)
    races = re.findall(r"^  race (\d+):", out, re.M)
    want = [os.path.join(d, "t-outcome-%s.html" % n) for n in outcomes] + \
        [os.path.join(d, "t-race-%s.html" % n) for n in races]
    check(rc == 66 and len(outcomes) == 2 and len(races) == 1, "explore repl_lostupdate.dl",
          "2 outcomes (count = 1, count = 2) and 1 race", "exit %d, outcomes %s races %s" % (rc, outcomes, races))
    check(names == want, "explore repl_lostupdate.dl", "the report names t-outcome-N.html per outcome, "
          "t-race-N.html per race", "%s vs %s" % (names, want))
    check(sorted(os.listdir(d)) == sorted([os.path.basename(w) for w in want] + ["w"]), "explore repl_lostupdate.dl",
          "exactly those files are written", str(sorted(os.listdir(d))))
    # each outcome's picture prints that outcome's stdout
    blocks = re.split(r"^  (?=outcome \d+:|race \d+:)", out, flags=re.M)
    acc = Acc()
    for b in blocks:
        m = re.match(r"(outcome|race) (\d+):", b)
        if not m:
            continue
        f = os.path.join(d, "t-%s-%s.html" % (m.group(1), m.group(2)))
        if not os.path.exists(f):
            continue
        D, errs = page_json(open(f, encoding="utf-8").read())
        fake = type("R", (), {})()
        fake.D, fake.page_errs, fake.label = D, errs, lambda: os.path.basename(f)
        validate(acc, fake)
        if D is None:
            continue
        if m.group(1) == "outcome":
            printed = re.findall(r"^\s+\| (.*)$", b, re.M)
            drawn = [D["texts"][e[2]] for e in D["events"] if e[1] == "out"]
            check(drawn == printed, "explore repl_lostupdate.dl", "outcome %s's picture prints %s" %
                  (m.group(2), printed), "drew %s" % drawn)
        else:
            check([r["location"] for r in D["races"]] == ["ReplLostUpdate.count"], "explore repl_lostupdate.dl",
                  "race %s's picture shows the race on ReplLostUpdate.count" % m.group(2),
                  str([r["location"] for r in D["races"]]))
        check(D["command"].startswith("drvm run --replay "), "explore repl_lostupdate.dl",
              "%s %s's header gives the replay command" % (m.group(1), m.group(2)), D["command"])
    acc.report("explore repl_lostupdate.dl", lambda k: "the pictures: " + WHAT[k])


def check_hunt():
    prog = os.path.join(PROGS, "races.dl")
    d = os.path.join(TMP, "hunt")
    os.makedirs(d)
    rc, out, err = drvm(["hunt", prog, "--runs", "1", "--techniques", "native", "--seed", "1", "--dir",
                         os.path.join(d, "runs"), "--timeline", os.path.join(d, "h.svg")])
    races = re.findall(r"^  #(\d+) (.+)$", out, re.M)
    names = re.findall(r"^\s+timeline: (\S+)$", out, re.M)
    check(rc == 0 and len(races) == 3, "hunt races.dl", "3 distinct races found", "exit %d, %s" % (rc, races))
    check(names == [os.path.join(d, "h-race-%s.svg" % n) for n, _ in races], "hunt races.dl",
          "a timeline named under each race (h-race-N.svg)", str(names))
    # the hunt names a race by its field or array; a picture by the object and element
    drawn_as = {"Races.total": "Races.total", "int[] allocated at races.dl:%d" % marker_lines(prog)["slots"]:
                "int[]#1[3]", "Races$Box.v": "Races$Box#1.v"}
    for (n, loc), f in zip(races, names):
        ok = os.path.exists(f)
        text = open(f, encoding="utf-8").read() if ok else ""
        try:
            root = ET.fromstring(text)
            labels = [own_text(g.find("{http://www.w3.org/2000/svg}text")) for g in
                      root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "race"]
        except ET.ParseError:
            labels = None
        check(ok and labels is not None and any(l.endswith(": " + drawn_as.get(loc, "?")) for l in labels),
              "hunt races.dl", "race %s's picture (%s) draws the race on %s" % (n, os.path.basename(f), loc),
              "file %s, races drawn %s" % (ok, labels))


def check_repl():
    prog = os.path.join(PROGS, "lostupdate.dl")
    f = tmpfile("repl.html")
    rc, out, err = drvm(["repl", "--sched", "rr", "--seed", "1", prog],
                        stdin="finish\ntimeline %s\ntimeline text\nquit\n" % f)
    m = re.search(r"drew (\d+) events of (\d+) threads to (\S+)", out)
    check(bool(m) and m.group(3) == f and os.path.exists(f), "repl lostupdate.dl", "'timeline FILE' draws the run",
          out[-300:])
    if not os.path.exists(f):
        return
    D, errs = page_json(open(f, encoding="utf-8").read())
    fake = type("R", (), {})()
    fake.D, fake.page_errs, fake.label = D, errs, lambda: "repl"
    acc = Acc()
    validate(acc, fake, ["LostUpdate.count"])
    acc.report("repl lostupdate.dl", lambda k: WHAT[k])
    if D:
        check(m and int(m.group(1)) == len(D["events"]) and int(m.group(2)) == len(D["threads"]),
              "repl lostupdate.dl", "it says how many events and threads it drew")
        check_errs(prog_lostupdate(None, D, marker_lines(prog)), "repl lostupdate.dl",
                   "the columns of the whole run, in program order")
        check("R1: data race on LostUpdate.count" in out and "outcome: RACES" in out, "repl lostupdate.dl",
              "'timeline text' prints the columns with the race")


# ------------------------------------------------------------ the papers' figures

def figure(prog, opts, races, acc, label, args=(), hb_races=True):
    run = Run(prog, opts, args)
    validate(acc, run, races, hb_races)
    return run


def lock_arrows(D, lock_name, frm, to):
    """The lock edges on the named lock from thread frm to thread to."""
    if lock_name not in D["locks"]:
        return []
    k = D["locks"].index(lock_name)
    return [(f, t) for f, t, kind in D["edges"] if kind == "lock" and D["events"][f][2] == k and
            D["events"][f][0] == frm and D["events"][t][0] == to]


def check_figures():
    """The runs lang-examples/README.md draws ("Timelines: the papers'
    figures"), with what the text says each picture shows."""
    acc = Acc()
    name = "figure drfinder_fig2.dl"
    fig2 = os.path.join(EXAMPLES, "drfinder_fig2.dl")
    # the usual run: the hb edges e1 -> e9 (k) and e3 -> e6 (n) hide both races
    run = figure(fig2, ["--seed", "1"], [], acc, "native")
    D = run.D
    if D and not structure_errors(D):
        t1, t2, t3 = tid(D, "t1"), tid(D, "t2"), tid(D, "t3")
        k_arrows = lock_arrows(D, "DrFinderFig2$K#1", t1, t3)
        n_arrows = lock_arrows(D, "DrFinderFig2$N#1", t1, t2)
        check(k_arrows == [(16, 68)] and ev_sig(D, 16)[1:] == ("rel", "DrFinderFig2$K#1", line_of(fig2, "// e1")) and
              ev_sig(D, 68)[1:] == ("acq", "DrFinderFig2$K#1", line_of(fig2, "// e9")), name,
              "native seed 1: e1 -> e9 is the lock arrow from t1's rel of K (event 16) to t3's acq (68)", str(k_arrows))
        check(n_arrows == [(29, 46)] and ev_sig(D, 29)[3] == line_of(fig2, "// e3") and
              ev_sig(D, 46)[3] == line_of(fig2, "// e6"), name,
              "native seed 1: e3 -> e6 is the lock arrow from t1's rel of N (event 29) to t2's acq (46)", str(n_arrows))
        vc = clocks(D)
        acc_x = [i for i in range(len(D["events"])) if ev_sig(D, i)[2] == "DrFinderFig2.x" and D["events"][i][0] != 0]
        acc_y = [i for i in range(len(D["events"])) if ev_sig(D, i)[2] == "DrFinderFig2.y" and D["events"][i][0] != 0]
        check(acc_x == [10, 73] and acc_y == [23, 51] and ordered(D, vc, 10, 73) and ordered(D, vc, 23, 51), name,
              "native seed 1: paths of arrows lead from m1 (wr x) to m4 (rd x) and from m2 (wr y) to m3 (rd y): "
              "no race", "x %s y %s" % (acc_x, acc_y))
        svg = tmpfile("fig2-native.svg")
        run.again(svg)
        check_errs(svg_overflow(open(svg, encoding="utf-8").read()) if os.path.exists(svg) else ["no SVG"], name,
                   "native seed 1 as SVG: no text runs past the picture's right edge (the locks' legend)")
    # DrFinder: Phase I, then the reversed run shows both
    mtr = tmpfile("fig2.mtr")
    rc, out, err = drvm(["run", "--sched", "drfinder", "--detector", "none", "--seed", "1", "--mtr-out", mtr, fig2])
    check(rc == 0 and os.path.exists(mtr), name, "Phase I writes the may-trigger relations")
    run = figure(fig2, ["--sched", "drfinder", "--seed", "2", "--mtr-in", mtr], ["DrFinderFig2.x", "DrFinderFig2.y"],
                 acc, "drfinder")
    D = run.D
    if D and not structure_errors(D):
        t1, t2, t3 = tid(D, "t1"), tid(D, "t2"), tid(D, "t3")
        rev_k = lock_arrows(D, "DrFinderFig2$K#1", t3, t1)
        rev_n = lock_arrows(D, "DrFinderFig2$N#1", t2, t1)
        check(rev_k == [(30, 32)] and rev_n == [(63, 65)], name,
              "drfinder seed 2: the arrows reversed, e9 -> e1 (events 30 -> 32) and e6 -> e3 (63 -> 65)",
              "%s %s" % (rev_k, rev_n))
        races = sorted((r["location"], r["prev"], r["cur"]) for r in D["races"])
        check(races == [("DrFinderFig2.x", 10, 31), ("DrFinderFig2.y", 43, 64)], name,
              "drfinder seed 2: R1 links t1's wr x (10) and t3's rd x (31), R2 t1's wr y (43) and t2's rd y (64)",
              str(races))
    d = os.path.join(TMP, "fig2hunt")
    rc, out, err = drvm(["hunt", fig2, "--runs", "2", "--techniques", "drfinder", "--seed", "1", "--dir",
                         os.path.join(d, "runs"), "--timeline", os.path.join(d, "fig2-hunt.svg")])
    names = re.findall(r"^\s+timeline: (\S+)$", out, re.M)
    want = [os.path.join(d, "fig2-hunt-race-%d.svg" % i) for i in (1, 2)]
    labels = []
    for f in names:
        try:
            labels.append(sorted(own_text(g.find("{http://www.w3.org/2000/svg}text")) for g in
                                 ET.parse(f).getroot().iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "race"))
        except (ET.ParseError, OSError):
            labels.append(None)
    check(rc == 0 and names == want and labels == [["race R1: DrFinderFig2.x", "race R2: DrFinderFig2.y"]] * 2, name,
          "drvm hunt --techniques drfinder --timeline fig2-hunt.svg: -race-1 (x) and -race-2 (y), each showing both",
          "exit %d, %s %s" % (rc, names, labels))

    name = "figure racefuzzer_fig1.dl"
    fig1 = os.path.join(EXAMPLES, "racefuzzer_fig1.dl")
    s5, s7 = line_of(fig1, "if (z == 1)"), line_of(fig1, "z = 1;")
    s1, s10 = line_of(fig1, "x = 1;"), line_of(fig1, "if (x != 1)")
    run = figure(fig1, ["--sched", "random", "--seed", "3"], ["RaceFuzzerFig1.z"], acc, "rf1")
    D = run.D
    if D and not structure_errors(D):
        t1, t2 = tid(D, "thread1"), tid(D, "thread2")
        r = D["races"][0] if D["races"] else None
        ok = r and ev_sig(D, r["prev"]) == (t1, "rd", "RaceFuzzerFig1.z", s5) and \
            ev_sig(D, r["cur"]) == (t2, "wr", "RaceFuzzerFig1.z", s7)
        check(bool(ok), name, "random seed 3: R1 links thread1's read of z (statement 5) and thread2's write (7)",
              str(r and (ev_sig(D, r["prev"]), ev_sig(D, r["cur"]))))
        check(not any("ERROR1" in s for s in D["texts"]) and len(lock_arrows(D, "Object#1", t1, t2)) == 1, name,
              "random seed 3: no ERROR1; the lock arrow thread1 -> thread2 on L orders statement 1 before 10")
    run = figure(fig1, ["--sched", "random", "--seed", "2"], [], acc, "rf1-2")
    D = run.D
    if D and not structure_errors(D):
        t1, t2 = tid(D, "thread1"), tid(D, "thread2")
        errs = [e for e in D["events"] if e[1] == "err" and "ERROR1" in D["texts"][e[2]]]
        check(len(errs) == 1 and errs[0][0] == t1, name, "random seed 2: ERROR1's exception in thread1's column, "
              "and no race", str(errs))
        check(len(lock_arrows(D, "Object#1", t2, t1)) == 1, name,
              "random seed 2: the lock arrow thread2 -> thread1 on L that orders z = 1 before if (z == 1)")
        svg = tmpfile("rf1-error.svg")
        run.again(svg)
        check_errs(svg_overflow(open(svg, encoding="utf-8").read()) if os.path.exists(svg) else ["no SVG"], name,
                   "random seed 2 as SVG: no text runs past the picture's right edge (ERROR1's message)")
    run = figure(fig1, ["--seed", "1", "--detector", "hybrid"], ["RaceFuzzerFig1.z", "RaceFuzzerFig1.x"], acc,
                 "rf1-hybrid", hb_races=False)
    D = run.D
    if D and not structure_errors(D):
        vc = clocks(D)
        bylo = {r["location"]: r for r in D["races"]}
        rx, rz = bylo.get("RaceFuzzerFig1.x"), bylo.get("RaceFuzzerFig1.z")
        check(bool(rx) and ev_sig(D, rx["prev"])[1:] == ("wr", "RaceFuzzerFig1.x", s1) and
              ev_sig(D, rx["cur"])[1:] == ("rd", "RaceFuzzerFig1.x", s10) and ordered(D, vc, rx["prev"], rx["cur"]),
              name, "hybrid: R2 on x (statements 1 and 10) is the false alarm: a path of arrows orders it")
        check(bool(rz) and not ordered(D, vc, min(rz["prev"], rz["cur"]), max(rz["prev"], rz["cur"])), name,
              "hybrid: R1 on z, the real race: no path")

    name = "figure racefuzzer_fig2.dl"
    fig2r = os.path.join(EXAMPLES, "racefuzzer_fig2.dl")
    s8, s10 = line_of(fig2r, "if (x == 0)"), line_of(fig2r, "x = 1;")
    run = figure(fig2r, ["--sched", "random", "--seed", "3"], ["RaceFuzzerFig2.x"], acc, "rf2-10", args=["10"])
    D = run.D
    if D and not structure_errors(D):
        t1, t2 = tid(D, "thread1"), tid(D, "thread2")
        r = D["races"][0] if D["races"] else None
        check(bool(r) and (r["prev"], r["cur"]) == (12, 277) and
              ev_sig(D, 12) == (t2, "wr", "RaceFuzzerFig2.x", s10) and ev_sig(D, 277) == (t1, "rd", "RaceFuzzerFig2.x", s8)
              and [t1, 0, 8, 276] in D["spans"] and not any("ERROR" in s for s in D["texts"]), name,
              "random seed 3, 10 iterations: thread1 holds L over events 8..276; R1 from thread2's write (10, "
              "event 12) to thread1's read (8, event 277); no ERROR")
    run = figure(fig2r, ["--sched", "pct", "--seed", "2"], ["RaceFuzzerFig2.x"], acc, "rf2-10", args=["10"])
    D = run.D
    if D and not structure_errors(D):
        t1, t2 = tid(D, "thread1"), tid(D, "thread2")
        r = D["races"][0] if D["races"] else None
        errs = [e for e in D["events"] if e[1] == "err" and "ERROR" in D["texts"][e[2]]]
        check(bool(r) and (r["prev"], r["cur"]) == (274, 279) and ev_sig(D, 274) == (t1, "rd", "RaceFuzzerFig2.x", s8)
              and ev_sig(D, 279) == (t2, "wr", "RaceFuzzerFig2.x", s10) and len(errs) == 1 and errs[0][0] == t1, name,
              "pct seed 2, 10 iterations: R1 from thread1's read (8, event 274) to thread2's write (10, 279); "
              "ERROR in thread1's column")
    run = figure(fig2r, ["--sched", "random", "--seed", "2"], [], acc, "rf2-10", args=["10"])
    D = run.D
    if D and not structure_errors(D):
        check(len(lock_arrows(D, "Object#1", tid(D, "thread2"), tid(D, "thread1"))) == 1, name,
              "random seed 2, 10 iterations: the lock arrow thread2 -> thread1 hides the race")
    run = figure(fig2r, ["--sched", "random", "--seed", "3"], ["RaceFuzzerFig2.x"], acc, "rf2")
    D = run.D
    if D and not structure_errors(D):
        r = D["races"][0] if D["races"] else None
        check(len(D["events"]) == 250097 and D["truncated"] == 0 and bool(r) and (r["prev"], r["cur"]) == (12, 250025),
              name, "random seed 3, 10,000 iterations: 250,097 events, the race's read at event 250,025")
        svg = tmpfile("rf2.svg")
        run.again(svg)
        text = open(svg, encoding="utf-8").read() if os.path.exists(svg) else ""
        check("later events are not drawn" in text and 'class="race"' not in text, name,
              "random seed 3, 10,000 iterations: the SVG stops after 4,000 rows, before the race's read")

    name = "figure fasttrack_race.dl"
    ft = os.path.join(EXAMPLES, "fasttrack_race.dl")
    if os.path.exists(os.path.join(ROOT, ft)):
        for opts, first in ((["--sched", "rr", "--seed", "1"], "thread0"), (["--sched", "random", "--seed", "4"], "thread1"),
                            (["--sched", "native", "--seed", "1"], None)):
            run = figure(ft, opts, FASTTRACK_RACES, acc, "ft")
            D = run.D
            if D and not structure_errors(D):
                errs = fasttrack_errors(D, ft)
                if first:
                    other = "thread1" if first == "thread0" else "thread0"
                    if len(lock_arrows(D, "Object#1", tid(D, first), tid(D, other))) != 1:
                        errs.append("no lock arrow from %s to %s" % (first, other))
                check_errs(errs, name, "%s: the writes of x ordered by the lock arrow rel(m) -> acq(m) (FastTrack's "
                           "Figure 1)%s, the writes of a linked as a race (TRaDe's Figure 1)" %
                           (" ".join(opts), ", from %s" % first if first else ""))
    else:
        check(False, name, "lang-examples/fasttrack_race.dl exists")
    acc.report("figures", lambda k: WHAT[k])


FASTTRACK_RACES = ["FastTrackRace.a"]


def fasttrack_errors(D, prog):
    """lang-examples/fasttrack_race.dl: FastTrack's Figure 1 (the writes of
    x ordered by the release and acquisition of m) and TRaDe's Figure 1
    (the writes of a with nothing between them)."""
    errs = []
    ev = D["events"]
    t0, t1 = tid(D, "thread0"), tid(D, "thread1")
    lx, la = line_of(prog, "x = xValue;"), line_of(prog, "a = aValue;")
    wx = [i for i, e in enumerate(ev) if ev_sig(D, i)[1:] == ("wr", "FastTrackRace.x", lx)]
    wa = [i for i, e in enumerate(ev) if ev_sig(D, i)[1:] == ("wr", "FastTrackRace.a", la)]
    if len(wx) != 2 or len(wa) != 2 or {ev[i][0] for i in wx} != {t0, t1}:
        return ["writes of x %s, of a %s" % (wx, wa)]
    first = ev[wx[0]][0]
    rel = next(i for i in range(wx[0], len(ev)) if ev[i][0] == first and ev[i][1] == "rel")
    acq = last_before(ev, wx[1], lambda e: e[0] != first and e[1] == "acq")
    if (rel, acq, "lock") not in set(map(tuple, D["edges"])):
        errs.append("no lock edge rel(%d) -> acq(%d) between the writes of x" % (rel, acq))
    vc = clocks(D)
    if not ordered(D, vc, wx[0], wx[1]):
        errs.append("the writes of x are not ordered by the arrows")
    r = D["races"][0] if D["races"] else None
    if not r or sorted([r["prev"], r["cur"]]) != wa:
        errs.append("the race is not between the two writes of a: %s" % r)
    return errs


# ------------------------------------------------------------ can each check fail?

def self_test():
    """Breaks each kind of expectation on purpose (a copy of a good run's
    data, mutated) and checks that the validator that guards it fails."""
    import copy
    runs = {n: Run(os.path.join(PROGS, n), ["--sched", "rr", "--seed", "1"])
            for n in ("lostupdate.dl", "lock.dl", "waitnotify.dl", "volatile.dl", "interrupt.dl", "deadlock.dl",
                      "output.dl")}
    for n, r in runs.items():
        check(r.D is not None and not structure_errors(r.D), "self-test", "%s draws a good page" % n)

    def mutated(n, fn):
        D = copy.deepcopy(runs[n].D)
        fn(D)
        return D

    def all_errs(D, hb=True):
        if structure_errors(D):
            return structure_errors(D)
        vc = clocks(D)
        e = thread_errors(D) + edge_errors(D) + span_errors(D) + location_errors(D) + text_output_errors(D)
        e += race_errors(D, vc)
        if hb and not D["races"]:
            e += hb_complete_errors(D, vc)
        return e

    def set_event(i, k, v):
        return lambda D: D["events"][i].__setitem__(k, v)

    cases = [
        ("lostupdate.dl", "an event's location out of range", set_event(1, 2, 99), structure_errors),
        ("lostupdate.dl", "an unknown event kind", set_event(1, 1, "read"), structure_errors),
        ("lostupdate.dl", "an edge to no event", lambda D: D["edges"].append([0, 999, "start"]), structure_errors),
        ("lostupdate.dl", "a thread's created not its fork", lambda D: D["threads"][2].__setitem__("created", 0),
         thread_errors),
        ("lostupdate.dl", "a thread's place on another line", lambda D: D["threads"][1].__setitem__("place", "x.dl:1"),
         thread_errors),
        ("lostupdate.dl", "a thread's end not its end event", lambda D: D["threads"][1].__setitem__("end", 1),
         thread_errors),
        ("lostupdate.dl", "a start edge missing", lambda D: D["edges"].pop(0), edge_errors),
        ("lostupdate.dl", "a join edge from the wrong thread's end",
         lambda D: D["edges"].__setitem__(2, [8, 7, "join"]), edge_errors),
        ("lock.dl", "the lock edge missing", lambda D: D["edges"].remove([8, 9, "lock"]), edge_errors),
        ("lock.dl", "a lock edge of the wrong kind", lambda D: D["edges"].__setitem__(
            D["edges"].index([8, 9, "lock"]), [8, 9, "volatile"]), edge_errors),
        ("lock.dl", "the lock edge missing: accesses unordered", lambda D: D["edges"].remove([8, 9, "lock"]),
         lambda D: hb_complete_errors(D, clocks(D))),
        ("lock.dl", "a span closed at the wrong event", lambda D: D["spans"][0].__setitem__(3, 7), span_errors),
        ("lock.dl", "a span missing", lambda D: D["spans"].pop(), span_errors),
        ("deadlock.dl", "a span open at the end closed", lambda D: [s.__setitem__(3, len(D["events"]) - 1)
                                                                    for s in D["spans"] if s[3] == -1], span_errors),
        ("waitnotify.dl", "the notify edge missing", lambda D: D["edges"].remove([14, 16, "notify"]),
         lambda D: prog_waitnotify(None, D, marker_lines(os.path.join(PROGS, "waitnotify.dl")))),
        ("volatile.dl", "the volatile edge missing", lambda D: D["edges"].remove(
            [e for e in D["edges"] if e[2] == "volatile"][0]), edge_errors),
        ("interrupt.dl", "the interrupt edge missing", lambda D: D["edges"].remove(
            [e for e in D["edges"] if e[2] == "interrupt"][0]), edge_errors),
        ("lostupdate.dl", "a location marked local though shared",
         lambda D: D["locations"][0].__setitem__("local", True), location_errors),
        ("lostupdate.dl", "a race linked to two events of one thread", lambda D: D["races"][0].update(prev=1, cur=2),
         lambda D: race_errors(D, clocks(D))),
        ("lostupdate.dl", "a race linked to two reads", lambda D: D["races"][0].__setitem__("prev", 1) or
         D["races"][0].__setitem__("cur", 5), lambda D: race_errors(D, clocks(D))),
        ("lostupdate.dl", "a race whose accesses the arrows order",
         lambda D: D["edges"].append([2, 5, "lock"]), lambda D: race_errors(D, clocks(D))),
        ("lostupdate.dl", "a race on another location than its events'",
         lambda D: D["races"][0].__setitem__("location", "LostUpdate.other"), lambda D: race_errors(D, clocks(D))),
        ("lostupdate.dl", "a race report naming another thread",
         lambda D: D["races"][0].__setitem__("text", D["races"][0]["text"].replace("thread b", "thread c")),
         lambda D: race_errors(D, clocks(D))),
        ("output.dl", "drvm's own line drawn as output", lambda D: D["texts"].__setitem__(0, "drvm: found 1 data race"),
         text_output_errors),
        ("output.dl", "an output line in another thread's column", set_event(3, 0, 2),
         lambda D: prog_output(None, D, marker_lines(os.path.join(PROGS, "output.dl")))),
        ("output.dl", "an output line before the access that precedes it",
         lambda D: D["events"].__setitem__(2, D["events"][3]) or D["events"].__setitem__(3, runs["output.dl"].D["events"][2]),
         lambda D: prog_output(None, D, marker_lines(os.path.join(PROGS, "output.dl")))),
        ("lostupdate.dl", "a column out of program order",
         lambda D: D["events"].__setitem__(1, D["events"][2]) or D["events"].__setitem__(2, runs["lostupdate.dl"].D["events"][1]),
         lambda D: prog_lostupdate(None, D, marker_lines(os.path.join(PROGS, "lostupdate.dl")))),
    ]
    for n, what, fn, validator in cases:
        D = mutated(n, fn)
        try:
            errs = validator(D)
        except Exception as ex:  # a crash is a failure found too, but say so
            errs = ["crashed: %r" % ex]
        check(bool(errs) and not errs[0].startswith("crashed"), "self-test",
              "%s: %s is caught (%s)" % (n, what, errs[0] if errs else "not caught"))
    # the page, the SVG and the text
    r = runs["lostupdate.dl"]
    page = r.page.replace('"texts": [', '"texts": ["</script>", ', 1)
    check(bool(page_json(page)[1]), "self-test", "a '</script' inside the data is caught")
    check(bool(page_json(r.page.replace('"version": 1,', '"version": 1,,', 1))[1]), "self-test",
          "invalid JSON is caught")
    svg = tmpfile("st.svg")
    r.again(svg)
    good = open(svg, encoding="utf-8").read()
    check(not svg_errors(r, good), "self-test", "the SVG passes as drawn")
    check(bool(svg_errors(r, re.sub(r'<g class="race">.*?</g>', "", good, flags=re.S))), "self-test",
          "an SVG without its race link is caught")
    check(bool(svg_errors(r, good.replace("T2 b</text>", "T2 c</text>"))), "self-test",
          "an SVG with a wrong column header is caught")
    check(bool(svg_errors(r, good.replace("</svg>", ""))), "self-test", "an SVG that is not well-formed is caught")
    rc, out, err = r.again("text", env={"COLUMNS": "100"})
    check(not text_errors(r, out, 100)[0], "self-test", "the text passes as drawn")
    check(bool(text_errors(r, out.replace("!R1 <-T0", "<-T0"), 100)[0]), "self-test",
          "a text without one of its !R1 marks is caught")
    check(bool(text_errors(r, out.replace("T2 b", "T2 c"), 100)[0]), "self-test",
          "a text with a wrong column header is caught")
    check(bool(text_errors(r, out, 60)[0]), "self-test", "a text wider than the width is caught")
    check(bool(text_errors(runs["lock.dl"], runs["lock.dl"].again("text", env={"COLUMNS": "100"})[1].replace(
        "locks: A=Object#1", "locks: A=Object#2"), 100)[0]), "self-test", "a wrong locks legend is caught")


# ------------------------------------------------------------ main

def main():
    global DRVM, TMP, VERBOSE, STRICT_BUGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drvm", default="./drvm")
    ap.add_argument("--keep", help="write the pictures into DIR and keep them")
    ap.add_argument("--known-bugs", action="store_true", help="fail on the checks of known C-side bugs too")
    ap.add_argument("-v", action="store_true", help="print the commands")
    ap.add_argument("--self-test", action="store_true",
                    help="instead: break each kind of expectation on purpose and see its check fail")
    a = ap.parse_args()
    DRVM = os.path.abspath(a.drvm) if os.sep in a.drvm else a.drvm
    if not os.path.exists(DRVM):
        print("FAIL: no drvm at %s (make drvm)" % DRVM)
        return 1
    VERBOSE, STRICT_BUGS = a.v, a.known_bugs
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        TMP = os.path.abspath(a.keep)
    else:
        TMP = tempfile.mkdtemp(prefix="drvm-timeline-")
    try:
        if a.self_test:
            self_test()
            print("%d passed, %d failed" % (passed, failed))
            return 1 if failed else 0
        rr_runs = check_programs()
        check_escapes(rr_runs)
        check_formats(rr_runs)
        check_replay()
        check_long()
        check_cli()
        check_explore()
        check_hunt()
        check_repl()
        check_figures()
    finally:
        if not a.keep:
            shutil.rmtree(TMP, ignore_errors=True)
    for bug in KNOWN_BUGS:
        if not bug_seen[bug]:
            print("XPASS known bug '%s': no check shows it any more; if it is fixed, take it out of "
                  "KNOWN_BUGS (its checks then fail as usual)" % bug)
    print("%d passed, %d failed, %d XFAIL (checks of known C-side bugs: %s)" %
          (passed, failed, xfailed, ", ".join(sorted(bug_seen)) or "none"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
