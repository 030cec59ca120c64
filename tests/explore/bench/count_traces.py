#!/usr/bin/env python3
"""Independent counts for the programs in tests/explore: Mazurkiewicz traces,
interleavings and outcome sets, computed from hand-written event models.

    python3 count_traces.py PROGRAM [N] [--method M] [--only T1,T2,...] [--no-memo]
    python3 count_traces.py --list
    python3 count_traces.py --selftest        (small cases, every method; about 20 s)
    python3 count_traces.py --check-headers   (tests/explore/*.dl headers vs models)

PROGRAM is a benchmark (lastzero, readers, indexer, indexer_cas, filesystem,
fib_bench) or one of the small programs of tests/explore (sb, mp,
mp_volatile, lostupdate2, deadlock2, peterson, peterson_volatile,
peterson_broken, buffer_if, buffer_while, philosophers3).  N is the
program's parameter (args[0] of the .dl file).

Methods (--method, default `por`):
  por     persistent sets + sleep sets + memoisation on (state, sleep set):
          counts one complete execution per Mazurkiewicz trace.  Uses each
          model's hand-written future footprints (see below).
  sleep   sleep sets + memoisation only (footprints ignored: every thread may
          conflict with anything).  Also exactly one execution per trace.
  brute   every interleaving, each reduced to a canonical form of its trace
          (per location: the writes in order with the set of reads between
          consecutive writes; per monitor: its acquisitions in order); counts
          the distinct forms.  Small cases only.
  paths   the number of interleavings (maximal schedules, no reduction) and
          the set of outcomes, by memoised path counting over states.
  all     paths, then brute (if not too big), sleep and por.

Event model (the one drvm's explorer uses): every read or write of a field,
static or array element is an event; monitor enter/exit; wait/notify;
Thread.start and join.  Two events of different threads are dependent when
they touch the same location and at least one writes, or when both acquire
the same monitor (monitor exits never conflict: an exit and another
thread's enter of the same monitor are never enabled together).  start
happens before the child's events, the child's end before a join.
Sequential consistency.

Each thread of a model is a Python generator yielding events and receiving
the value of each read; its local state is the tuple of values it has
received, so a thread is re-created by replaying that tuple.  Events:

  R(loc)            read: receives the value
  W(loc, v)         write
  RMW(loc, f)       one atomic read-modify-write event (counts as a write)
  ACQ(m) / REL(m)   monitor enter / exit (re-entrant)
  WAIT(m)           wait(): releases m, sleeps until notified, re-acquires
  NOTIFY(m), NOTIFYALL(m)
  START(t) / JOIN(t)
  THROW(msg)        the thread ends with an uncaught exception

Each event may carry `fut`: a set of ('r', loc), ('w', loc), ('m', mon)
over-approximating everything the thread may still do from this event on
(inclusive).  `por` relies on these; each model documents why its footprints
are sound, and the explorer checks on every explored execution that no
thread steps outside the footprint it announced earlier.  Footprints only
speed `por` up; `sleep` and `brute` do not use them.

Thread 0 is main; the other threads exist from the start but run only after
main's START.  The value a model's main thread returns is its stdout.
Outcomes: the stdout, `deadlock` (no thread can run, some have not ended),
and `exception in Tn: MSG` for each thread that died.
"""

import sys
import itertools
from collections import defaultdict

sys.setrecursionlimit(100000)

# --------------------------------------------------------------------------
# events


class Ev:
    __slots__ = ("kind", "loc", "val", "fut")

    def __init__(self, kind, loc=None, val=None, fut=None):
        self.kind = kind
        self.loc = loc
        self.val = val
        self.fut = fut

    def __repr__(self):
        if self.kind == "w":
            return "w %s=%r" % (self.loc, self.val)
        return "%s %s" % (self.kind, self.loc)


def _fut(f):
    return None if f is None else frozenset(f)


def R(loc, fut=None):
    return Ev("r", loc, None, _fut(fut))


def W(loc, v, fut=None):
    return Ev("w", loc, v, _fut(fut))


def RMW(loc, f, fut=None):
    return Ev("rmw", loc, f, _fut(fut))


def ACQ(m, fut=None):
    return Ev("acq", m, None, _fut(fut))


def REL(m, fut=None):
    return Ev("rel", m, None, _fut(fut))


def WAIT(m, fut=None):
    return Ev("wait", m, None, _fut(fut))


def NOTIFY(m, fut=None):
    return Ev("notify", m, None, _fut(fut))


def NOTIFYALL(m, fut=None):
    return Ev("notifyall", m, None, _fut(fut))


def START(t, fut=None):
    return Ev("start", t, None, _fut(fut))


def JOIN(t, fut=None):
    return Ev("join", t, None, _fut(fut))


def THROW(msg):
    return Ev("throw", msg, None, frozenset())


END = Ev("end")
MEM_KINDS = ("r", "w", "rmw")
MON_KINDS = ("acq", "wait", "notify", "notifyall")   # rel: never conflicts


def writes(e):
    return e.kind in ("w", "rmw")


def dependent(a, b):
    """a and b are events of two different threads."""
    if a.kind in MEM_KINDS and b.kind in MEM_KINDS:
        return a.loc == b.loc and (writes(a) or writes(b))
    if a.kind in MON_KINDS and b.kind in MON_KINDS:
        return a.loc == b.loc
    return False


def conflicts_with_future(e, fut):
    """Can event e be dependent with some event in footprint fut?"""
    if e.kind in MEM_KINDS:
        if fut is None:
            return True
        if ("w", e.loc) in fut:
            return True
        return writes(e) and ("r", e.loc) in fut
    if e.kind in MON_KINDS:
        return fut is None or ("m", e.loc) in fut
    return False


def own_item(e):
    if e.kind == "r":
        return (("r", e.loc),)
    if e.kind == "w":
        return (("w", e.loc),)
    if e.kind == "rmw":
        return (("r", e.loc), ("w", e.loc))
    if e.kind in MON_KINDS:
        return (("m", e.loc),)
    return ()


# --------------------------------------------------------------------------
# models


class Model:
    """threads: list of zero-argument generator functions (0 = main).
    init: dict location -> initial value (every location used must be here).
    monitors: list of monitor names."""

    def __init__(self, name, threads, init, monitors=(), tnames=None):
        self.name = name
        self.threads = threads
        self.locs = list(init)
        self.locidx = {l: i for i, l in enumerate(self.locs)}
        self.init_mem = tuple(init[l] for l in self.locs)
        self.mons = list(monitors)
        self.monidx = {m: i for i, m in enumerate(self.mons)}
        self.tnames = tnames or (["main"] + ["T%d" % i for i in range(1, len(threads))])
        self._cache = {}

    def replay(self, t, hist):
        """The next event of thread t after it has received hist, and
        (for END) its return value."""
        key = (t, hist)
        r = self._cache.get(key)
        if r is not None:
            return r
        g = self.threads[t]()
        try:
            ev = next(g)
            for v in hist:
                ev = g.send(v)
        except StopIteration as stop:
            r = (END, stop.value)
        else:
            if not isinstance(ev, Ev):
                raise TypeError("%s: thread %d yielded %r" % (self.name, t, ev))
            if ev.fut is not None:
                own = own_item(ev)
                if not all(i in ev.fut for i in own):
                    ev.fut = ev.fut | frozenset(own)
            r = (ev, None)
        self._cache[key] = r
        return r


# thread status: ('N',) not started, ('R',) running, ('W', m, cnt) waiting,
# ('K', m, cnt) notified, must re-acquire m, ('D', retval) ended,
# ('X', msg) died with an exception
NOT_STARTED = ("N",)
RUNNING = ("R",)


class State:
    __slots__ = ("hist", "status", "mem", "mons", "_h")

    def __init__(self, hist, status, mem, mons):
        self.hist = hist
        self.status = status
        self.mem = mem
        self.mons = mons
        self._h = hash((hist, status, mem, mons))

    def __hash__(self):
        return self._h

    def __eq__(self, o):
        return (self._h == o._h and self.hist == o.hist and self.status == o.status
                and self.mem == o.mem and self.mons == o.mons)


class Engine:
    def __init__(self, model, check_footprints=True):
        self.m = model
        self.n = len(model.threads)
        self.check_fp = check_footprints
        self.fp_violations = []

    # --- state queries ---
    def initial(self):
        n = self.n
        s = State(tuple(() for _ in range(n)),
                  (RUNNING,) + tuple(NOT_STARTED for _ in range(n - 1)),
                  self.m.init_mem,
                  tuple((None, 0) for _ in self.m.mons))
        return self._settle(s, 0)

    def next_ev(self, s, t):
        st = s.status[t]
        if st[0] == "K":
            return Ev("acq", st[1], None, None)
        if st[0] in ("R", "N"):
            return self.m.replay(t, s.hist[t])[0]
        return None

    def future(self, s, t):
        st = s.status[t]
        if st[0] in ("D", "X"):
            return frozenset()
        if st[0] in ("W", "K"):
            return None
        e = self.m.replay(t, s.hist[t])[0]
        if e is END:
            return frozenset()
        return e.fut

    def finished(self, s, t):
        return s.status[t][0] in ("D", "X")

    def enabled_thread(self, s, t):
        st = s.status[t]
        if st[0] == "K":
            owner = s.mons[self.m.monidx[st[1]]][0]
            return owner is None
        if st[0] != "R":
            return False
        e = self.m.replay(t, s.hist[t])[0]
        k = e.kind
        if k == "acq":
            owner = s.mons[self.m.monidx[e.loc]][0]
            return owner is None or owner == t
        if k == "join":
            return self.finished(s, e.loc)
        return True

    def enabled(self, s):
        return [t for t in range(self.n) if self.enabled_thread(s, t)]

    # --- transitions ---
    def _settle(self, s, t):
        """Apply END / THROW of thread t at once (they are local)."""
        while s.status[t][0] == "R":
            e, ret = self.m.replay(t, s.hist[t])
            if e is END:
                st = ("D", ret)
            elif e.kind == "throw":
                st = ("X", e.loc)
            else:
                break
            status = list(s.status)
            status[t] = st
            s = State(s.hist, tuple(status), s.mem, s.mons)
        return s

    def successors(self, s, t):
        """States after thread t's next event (several for notify())."""
        m = self.m
        st = s.status[t]
        hist = list(s.hist)
        status = list(s.status)
        mem = s.mem
        mons = s.mons
        if st[0] == "K":
            i = m.monidx[st[1]]
            mons = mons[:i] + ((t, st[2]),) + mons[i + 1:]
            status[t] = RUNNING
            hist[t] = hist[t] + (None,)          # wait() returns
            return [self._settle(State(tuple(hist), tuple(status), mem, mons), t)]
        e = m.replay(t, s.hist[t])[0]
        k = e.kind
        if self.check_fp:
            self._check_footprint(s, t, e)
        recv = None
        outs = None
        if k == "r":
            recv = mem[m.locidx[e.loc]]
        elif k == "w":
            i = m.locidx[e.loc]
            mem = mem[:i] + (e.val,) + mem[i + 1:]
        elif k == "rmw":
            i = m.locidx[e.loc]
            recv = mem[i]
            mem = mem[:i] + (e.val(recv),) + mem[i + 1:]
        elif k == "acq":
            i = m.monidx[e.loc]
            owner, cnt = mons[i]
            mons = mons[:i] + ((t, cnt + 1),) + mons[i + 1:]
        elif k == "rel":
            i = m.monidx[e.loc]
            owner, cnt = mons[i]
            assert owner == t, "%s: T%d releases %s it does not hold" % (m.name, t, e.loc)
            mons = mons[:i] + (((None, 0) if cnt == 1 else (t, cnt - 1)),) + mons[i + 1:]
        elif k == "wait":
            i = m.monidx[e.loc]
            owner, cnt = mons[i]
            assert owner == t, "%s: T%d waits on %s it does not hold" % (m.name, t, e.loc)
            mons = mons[:i] + ((None, 0),) + mons[i + 1:]
            status[t] = ("W", e.loc, cnt)
            # hist is extended when wait() returns (after re-acquiring)
            return [State(tuple(hist), tuple(status), mem, mons)]
        elif k in ("notify", "notifyall"):
            i = m.monidx[e.loc]
            assert mons[i][0] == t, "%s: T%d notifies %s it does not hold" % (m.name, t, e.loc)
            waiters = [u for u in range(self.n)
                       if status[u][0] == "W" and status[u][1] == e.loc]
            hist[t] = hist[t] + (None,)
            if k == "notifyall" or not waiters:
                for u in waiters:
                    status[u] = ("K", e.loc, status[u][2])
                outs = [tuple(status)]
            else:
                outs = []
                for u in waiters:
                    st2 = list(status)
                    st2[u] = ("K", e.loc, status[u][2])
                    outs.append(tuple(st2))
            return [self._settle(State(tuple(hist), so, mem, mons), t) for so in outs]
        elif k == "start":
            u = e.loc
            assert status[u] == NOT_STARTED
            status[u] = RUNNING
        elif k == "join":
            pass
        else:
            raise ValueError("unknown event %r" % (e,))
        hist[t] = hist[t] + (recv,)
        s2 = State(tuple(hist), tuple(status), mem, mons)
        s2 = self._settle(s2, t)
        if k == "start":
            s2 = self._settle(s2, e.loc)
        return [s2]

    def _check_footprint(self, s, t, e):
        """e must be inside every footprint thread t announced before: we
        check it against the one announced with the previous event."""
        h = s.hist[t]
        if not h:
            return
        prev = self.m.replay(t, h[:-1])[0]
        if prev.fut is None:
            return
        for item in own_item(e):
            if item not in prev.fut:
                self.fp_violations.append((t, h, e))

    def outcome(self, s):
        parts = []
        if all(self.finished(s, t) for t in range(self.n)):
            st = s.status[0]
            parts.append(st[1] if st[0] == "D" and st[1] is not None else "")
        else:
            parts.append("deadlock")
        for t in range(self.n):
            if s.status[t][0] == "X":
                parts.append("exception in %s: %s" % (self.m.tnames[t], s.status[t][1]))
        return " | ".join(p for p in parts if p != "") or "(no output)"

    # --- persistent sets ---
    def persistent(self, s, en):
        best = None
        n = self.n
        for seed in en:
            T = {seed}
            work = [seed]
            while work:
                t = work.pop()
                add = []
                if t in en:
                    e = self.next_ev(s, t)
                    if e.kind in MEM_KINDS or e.kind in MON_KINDS:
                        for q in range(n):
                            if q not in T and not self.finished(s, q) and \
                                    conflicts_with_future(e, self.future(s, q)):
                                add.append(q)
                else:
                    st = s.status[t]
                    if st[0] == "N":
                        add.append(0)            # only main starts threads
                    elif st[0] == "K":
                        add.append(s.mons[self.m.monidx[st[1]]][0])
                    elif st[0] == "W":
                        add.extend(range(n))     # any thread might notify
                    elif st[0] == "R":
                        e = self.next_ev(s, t)
                        if e.kind == "acq":
                            add.append(s.mons[self.m.monidx[e.loc]][0])
                        elif e.kind == "join":
                            add.append(e.loc)
                for q in add:
                    if q is not None and q not in T and not self.finished(s, q):
                        T.add(q)
                        work.append(q)
            P = [t for t in en if t in T]
            if best is None or len(P) < len(best):
                best = P
                if len(best) == 1:
                    break
        return best

    # --- counters ---
    def count_traces(self, use_por=True, progress=False, use_memo=True):
        """(complete traces, deadlocked traces, nodes visited).  Without the
        memo the search is a plain tree walk: slower, but in O(depth) memory."""
        memo = {} if use_memo else None
        self._visits = 0

        def rec(s, Z):
            key = (s, Z)
            if memo is not None:
                r = memo.get(key)
                if r is not None:
                    return r
            self._visits += 1
            if progress and self._visits % 200000 == 0:
                print("  ... %d nodes" % self._visits, file=sys.stderr)
            en = self.enabled(s)
            if not en:
                if all(self.finished(s, t) for t in range(self.n)):
                    r = (1, 0)
                else:
                    r = (0, 1)
                if memo is not None:
                    memo[key] = r
                return r
            P = self.persistent(s, en) if use_por else en
            comp = dead = 0
            sleep = set(Z)
            for p in P:
                if p in sleep:
                    continue
                e = self.next_ev(s, p)
                succ = self.successors(s, p)
                assert len(succ) == 1, "trace counting does not support notify() choices"
                Z2 = frozenset(q for q in sleep if not dependent(self.next_ev(s, q), e))
                c, d = rec(succ[0], Z2)
                comp += c
                dead += d
                sleep.add(p)
            r = (comp, dead)
            if memo is not None:
                memo[key] = r
            return r

        c, d = rec(self.initial(), frozenset())
        return c, d, self._visits

    def count_paths(self):
        """(number of interleavings, {outcome: number of interleavings})."""
        memo = {}

        def rec(s):
            r = memo.get(s)
            if r is not None:
                return r
            en = self.enabled(s)
            if not en:
                r = {self.outcome(s): 1}
            else:
                r = defaultdict(int)
                for t in en:
                    for s2 in self.successors(s, t):
                        for o, c in rec(s2).items():
                            r[o] += c
                r = dict(r)
            memo[s] = r
            return r

        outs = rec(self.initial())
        return sum(outs.values()), outs

    def brute_traces(self, limit=2_000_000):
        """Distinct canonical trace forms over all interleavings."""
        keys = set()
        dead_keys = set()
        n_runs = [0]
        m = self.m

        def canon(log):
            per_loc = {}
            per_mon = {}
            per_thread = defaultdict(list)
            for (t, k, e) in log:
                per_thread[t].append((e.kind, e.loc))
                if e.kind in MEM_KINDS:
                    groups = per_loc.setdefault(e.loc, [[]])
                    if writes(e):
                        groups.append((t, k))
                        groups.append([])
                    else:
                        groups[-1].append((t, k))
                elif e.kind in MON_KINDS:
                    per_mon.setdefault(e.loc, []).append((t, k))
            loc_key = tuple(sorted(
                (repr(l), tuple(frozenset(g) if isinstance(g, list) else g for g in gs))
                for l, gs in per_loc.items()))
            mon_key = tuple(sorted((repr(mo), tuple(v)) for mo, v in per_mon.items()))
            thr_key = tuple(sorted((t, tuple(v)) for t, v in per_thread.items()))
            return (loc_key, mon_key, thr_key)

        def rec(s, log, counters):
            en = self.enabled(s)
            if not en:
                n_runs[0] += 1
                if n_runs[0] > limit:
                    raise OverflowError("more than %d interleavings" % limit)
                key = canon(log)
                if all(self.finished(s, t) for t in range(self.n)):
                    keys.add(key)
                else:
                    dead_keys.add(key)
                return
            for t in en:
                e = self.next_ev(s, t)
                k = counters[t]
                succ = self.successors(s, t)
                counters[t] = k + 1
                log.append((t, k, e))
                for s2 in succ:
                    rec(s2, log, counters)
                log.pop()
                counters[t] = k

        rec(self.initial(), [], [0] * self.n)
        return len(keys), len(dead_keys), n_runs[0]


# --------------------------------------------------------------------------
# benchmark models (tests/explore/bench/*.dl)

def main_starts_joins(n_threads, join=True, after=None, after_fut=()):
    """main: start T1..Tn, then (optionally) join them, then `after`.
    after_fut: main's footprint from its first START on (what `after` may
    touch); default: nothing if there is no `after`, else anything."""
    if after is not None and after_fut == ():
        after_fut = None

    def main():
        for t in range(1, n_threads + 1):
            yield START(t, fut=after_fut)
        if join:
            for t in range(1, n_threads + 1):
                yield JOIN(t, fut=after_fut)
        if after is not None:
            r = yield from after()
            return r
        return None
    return main


def m_lastzero(N):
    """lastzero.dl: reader scans array[N], array[N-1], ... down to the first
    0; writer j (1..N) does array[j] = array[j-1] + 1.  main starts the
    reader and the N writers and does nothing else (no join, as in the C
    original).  Footprints: the reader at index i may still read a[0..i];
    writer j touches a[j-1] (read) and a[j] (write) only."""
    def reader():
        i = N
        while True:
            v = yield R(("a", i), fut=[("r", ("a", k)) for k in range(i + 1)])
            if v == 0:
                return
            i -= 1

    def writer(j):
        def w():
            v = yield R(("a", j - 1), fut=[("r", ("a", j - 1)), ("w", ("a", j))])
            yield W(("a", j), v + 1, fut=[("w", ("a", j))])
        return w

    threads = [main_starts_joins(N + 1, join=False), reader] + [writer(j) for j in range(1, N + 1)]
    init = {("a", k): 0 for k in range(N + 1)}
    return Model("lastzero", threads, init,
                 tnames=["main", "reader"] + ["writer%d" % j for j in range(1, N + 1)])


def m_readers(N):
    """readers.dl: one writer x = 42, N readers each read x once; main joins
    everyone.  (The C original's reader also reads its own idx[] slot, which
    main wrote before creating it: never concurrent with a write.)"""
    def writer():
        yield W("x", 42, fut=[("w", "x")])

    def reader():
        yield R("x", fut=[("r", "x")])

    threads = [main_starts_joins(N + 1), writer] + [reader] * N
    return Model("readers", threads, {"x": 0},
                 tnames=["main", "writer"] + ["reader%d" % i for i in range(1, N + 1)])


def fib(n):
    cur, prev = 1, 0
    for _ in range(n):
        prev, cur = cur, prev + cur
    return prev


def m_fib_bench(N):
    """fib_bench.dl: t1 does N times i = i + j (read i, read j, write i),
    t2 does N times j = j + i (read j, read i, write j); main starts both and
    then, without joining, reads i and then j for its assertion (j only if
    i <= fib(2+2N), which always holds)."""
    allij = [("r", "i"), ("w", "i"), ("r", "j"), ("w", "j")]

    def t1():
        for _ in range(N):
            a = yield R("i", fut=allij)
            b = yield R("j", fut=allij)
            yield W("i", a + b, fut=allij)

    def t2():
        for _ in range(N):
            a = yield R("j", fut=allij)
            b = yield R("i", fut=allij)
            yield W("j", a + b, fut=allij)

    correct = fib(2 + 2 * N)

    def main():
        yield START(1, fut=[("r", "i"), ("r", "j")])
        yield START(2, fut=[("r", "i"), ("r", "j")])
        i = yield R("i", fut=[("r", "i"), ("r", "j")])
        if i > correct:
            yield THROW("AssertionError")
        j = yield R("j", fut=[("r", "j")])
        if j > correct:
            yield THROW("AssertionError")
        return None

    return Model("fib_bench", [main, t1, t2], {"i": 1, "j": 1},
                 tnames=["main", "t1", "t2"])


IDX_SIZE, IDX_MAX = 128, 4


def indexer_plan(N):
    """The values thread tid inserts, and the slots each may probe.  w =
    11*m + tid (m = 1..4), first slot h = 7w mod 128.  Values repeat only
    between threads tid and tid+11; 7 is invertible mod 128, so different
    values have different first slots, and h(w)+1 = h(w') needs w' = w+55
    (mod 128), which no value reaches for N <= 22.  So an insert probes h(w)
    and, only if its value is shared with the partner thread, h(w)+1."""
    vals = {tid: [11 * m + tid for m in range(1, IDX_MAX + 1)] for tid in range(N)}
    count = defaultdict(int)
    for tid in vals:
        for w in vals[tid]:
            count[w] += 1
    probes = {}
    for w, c in count.items():
        h = (w * 7) % IDX_SIZE
        probes[w] = [h] if c == 1 else [h, (h + 1) % IDX_SIZE]
    return vals, probes


def m_indexer(N, cas_event=False):
    """indexer.dl (SV-COMP / Nidhugg version): each of N threads inserts 4
    values; cas(h, 0, w) is `lock cas_mutex[h]; if (table[h] == 0) table[h]
    = w; unlock`.  With cas_event=True (indexer_cas) the cas is instead one
    atomic read-modify-write event on table[h] (the Flanagan-Godefroid /
    Concuerror original), and there are no locks."""
    if N > 22:
        raise SystemExit("indexer model: footprints are proved for N <= 22 only")
    vals, probes = indexer_plan(N)

    def fp(ws):
        f = []
        for w in ws:
            for h in probes[w]:
                if cas_event:
                    f += [("r", ("t", h)), ("w", ("t", h))]
                else:
                    f += [("m", ("L", h)), ("r", ("t", h)), ("w", ("t", h))]
        return f

    def thread(tid):
        def th():
            ws = vals[tid]
            for k, w in enumerate(ws):
                rest = ws[k:]
                h = (w * 7) % IDX_SIZE
                while True:
                    if cas_event:
                        old = yield RMW(("t", h), (lambda w: lambda old: w if old == 0 else old)(w),
                                        fut=fp(rest))
                        ok = old == 0
                    else:
                        yield ACQ(("L", h), fut=fp(rest))
                        v = yield R(("t", h), fut=fp(rest))
                        ok = v == 0
                        if ok:
                            yield W(("t", h), w, fut=fp(rest))
                        yield REL(("L", h), fut=fp(rest))
                    if ok:
                        break
                    h = (h + 1) % IDX_SIZE
        return th

    slots = sorted({h for w in probes for h in probes[w]})
    init = {("t", h): 0 for h in slots}
    mons = [] if cas_event else [("L", h) for h in slots]
    threads = [main_starts_joins(N)] + [thread(t) for t in range(N)]
    return Model("indexer_cas" if cas_event else "indexer", threads, init, mons,
                 tnames=["main"] + ["T%d" % t for t in range(N)])


FS_BLOCKS, FS_INODES, FS_LOOP = 26, 32, 10


def m_filesystem(N):
    """filesystem.dl (Flanagan-Godefroid POPL'05, Nidhugg's C version):
    thread tid: i = tid % 32; lock locki[i]; if (inode[i] == 0) { b = 2i %
    26; up to 10 times: lock lockb[b]; if (busy[b] == 0) { busy[b] = 1;
    inode[i] = b+1; unlock; break } unlock; b = (b+1) % 26 } unlock locki[i].
    Footprints: for N <= 26 the inodes are private and thread tid starts at
    the even block 2*tid mod 26, shared only with its partner tid+-13.  By
    induction over the run, even block b0 is claimed by the first of the
    pair and the second moves to b0+1, which only it can touch: so a thread
    touches only b0, plus b0+1 if it has a partner."""
    if N > 26:
        raise SystemExit("filesystem model: footprints are proved for N <= 26 only")

    def partner(tid):
        p = tid + 13 if tid < 13 else tid - 13
        return p if 0 <= p < N else None

    def blocks(tid):
        b0 = (2 * (tid % FS_INODES)) % FS_BLOCKS
        return [b0] if partner(tid) is None else [b0, (b0 + 1) % FS_BLOCKS]

    def thread(tid):
        i = tid % FS_INODES
        fut = [("m", ("LI", i)), ("r", ("inode", i)), ("w", ("inode", i))]
        for b in blocks(tid):
            fut += [("m", ("LB", b)), ("r", ("busy", b)), ("w", ("busy", b))]

        def th():
            yield ACQ(("LI", i), fut=fut)
            v = yield R(("inode", i), fut=fut)
            if v == 0:
                b = (i * 2) % FS_BLOCKS
                for _ in range(FS_LOOP):
                    yield ACQ(("LB", b), fut=fut)
                    busy = yield R(("busy", b), fut=fut)
                    if busy == 0:
                        yield W(("busy", b), 1, fut=fut)
                        yield W(("inode", i), b + 1, fut=fut)
                        yield REL(("LB", b), fut=fut)
                        break
                    yield REL(("LB", b), fut=fut)
                    b = (b + 1) % FS_BLOCKS
            yield REL(("LI", i), fut=[])
        return th

    init = {}
    for i in range(FS_INODES):
        init[("inode", i)] = 0
    for b in range(FS_BLOCKS):
        init[("busy", b)] = 0
    mons = [("LI", i) for i in range(FS_INODES)] + [("LB", b) for b in range(FS_BLOCKS)]
    threads = [main_starts_joins(N)] + [thread(t) for t in range(N)]
    return Model("filesystem", threads, init, mons,
                 tnames=["main"] + ["T%d" % t for t in range(N)])


# --------------------------------------------------------------------------
# small programs of tests/explore/*.dl
#
# They model the .dl programs event by event, including the reads of a
# thread's own fields (`me`, `k`, ...) that main wrote before start: such
# events never conflict, so they change the number of interleavings but not
# the number of traces.  Main's reads after its joins are modelled too.

def m_sb(_N=None):
    """sb.dl: T1: x = 1; r1 = y.   T2: y = 1; r2 = x.  main prints r1 r2."""
    def t1():
        yield W("x", 1)
        v = yield R("y")
        yield W("r1", v)

    def t2():
        yield W("y", 1)
        v = yield R("x")
        yield W("r2", v)

    def after():
        a = yield R("r1")
        b = yield R("r2")
        return "r1=%d r2=%d" % (a, b)

    return Model("sb", [main_starts_joins(2, after=after), t1, t2],
                 {"x": 0, "y": 0, "r1": 0, "r2": 0})


def m_mp(_N=None):
    """mp.dl / mp_volatile.dl: T1: data = 42; flag = 1.  T2: rf = flag;
    rd = data.  main prints rf rd.  (volatile changes nothing under SC.)"""
    def t1():
        yield W("data", 42)
        yield W("flag", 1)

    def t2():
        f = yield R("flag")
        yield W("rf", f)
        d = yield R("data")
        yield W("rd", d)

    def after():
        a = yield R("rf")
        b = yield R("rd")
        return "flag=%d data=%d" % (a, b)

    return Model("mp", [main_starts_joins(2, after=after), t1, t2],
                 {"data": 0, "flag": 0, "rf": 0, "rd": 0})


def m_lostupdate2(K=2):
    """lostupdate2.dl: two threads each do K times count = count + 1 (read
    own field k once, then K reads and K writes of count); main prints
    count."""
    K = int(K)

    def t():
        k = yield R("k")
        for _ in range(k):
            v = yield R("count")
            yield W("count", v + 1)

    def after():
        c = yield R("count")
        return "count=%d" % c

    return Model("lostupdate2", [main_starts_joins(2, after=after), t, t],
                 {"count": 0, "k": K})


def m_deadlock2(_N=None):
    """deadlock2.dl: T1: sync(A) { sync(B) { x = 1 } }.  T2: sync(B) {
    sync(A) { x = 2 } }; A and B are static final Objects, so each
    `synchronized` first reads the static field.  main joins both and prints
    x."""
    def t1():
        yield R("A")
        yield ACQ("a")
        yield R("B")
        yield ACQ("b")
        yield W("x", 1)
        yield REL("b")
        yield REL("a")

    def t2():
        yield R("B")
        yield ACQ("b")
        yield R("A")
        yield ACQ("a")
        yield W("x", 2)
        yield REL("a")
        yield REL("b")

    def after():
        v = yield R("x")
        return "x=%d" % v

    return Model("deadlock2", [main_starts_joins(2, after=after), t1, t2],
                 {"x": 0, "A": "a", "B": "b"}, ["a", "b"])


def m_philosophers3(_N=None):
    """philosophers3.dl: forks f0, f1, f2.  Philosopher threads phil1
    (left f1, right f2) and phil2 (left f2, right f0) each do sync(left) {
    sync(right) { } }, reading the final field before each monitor enter;
    main is philosopher 0: it starts both, then sync(f0) { sync(f1) { } }
    with the forks in locals, joins both and prints."""
    def phil(i):
        def p():
            yield R(("left", i))
            yield ACQ(("fork", i))
            yield R(("right", i))
            yield ACQ(("fork", (i + 1) % 3))
            yield REL(("fork", (i + 1) % 3))
            yield REL(("fork", i))
        return p

    def main():
        yield START(1)
        yield START(2)
        yield ACQ(("fork", 0))
        yield ACQ(("fork", 1))
        yield REL(("fork", 1))
        yield REL(("fork", 0))
        yield JOIN(1)
        yield JOIN(2)
        return "all three ate"

    init = {}
    for i in (1, 2):
        init[("left", i)] = i
        init[("right", i)] = (i + 1) % 3
    return Model("philosophers3", [main, phil(1), phil(2)],
                 init, [("fork", i) for i in range(3)],
                 tnames=["main", "phil1", "phil2"])


def m_peterson(spin=1, broken=False):
    """peterson.dl / peterson_volatile.dl / peterson_broken.dl.  Process
    me (0 = main, 1 = a thread), other = 1 - me, SPIN (a constant, 1) extra
    tries before giving up:
        flag[me] = 1; turn = other       (broken: turn = me)
        loop: read flag[other]; if 0 -> enter
              read turn; if != other -> enter
              if ++tries > SPIN -> give up
        enter: owner = me; read owner: status 1 if it is still me, else 2
               (the other process is inside too)
        flag[me] = 0 (after the critical section, or when giving up)
    flag0, flag1, turn, owner are static ints (volatile or not).  main
    starts the thread, runs process 0, joins, reads the thread's field
    status (written by the thread as its last event) and prints."""
    spin = int(spin)
    names = {0: "gave-up", 1: "cs", 2: "cs!"}

    def proto(me):
        other = 1 - me
        yield W(("flag", me), 1)
        yield W("turn", me if broken else other)
        tries = 0
        entered = False
        while True:
            f = yield R(("flag", other))
            if f == 0:
                entered = True
                break
            tv = yield R("turn")
            if tv != other:
                entered = True
                break
            tries += 1
            if tries > spin:
                break
        st = 0
        if entered:
            yield W("owner", me)
            o = yield R("owner")
            st = 1 if o == me else 2
        yield W(("flag", me), 0)
        return st

    def other_thread():
        st = yield from proto(1)
        yield W("status", st)

    def main():
        yield START(1)
        a = yield from proto(0)
        yield JOIN(1)
        b = yield R("status")
        return "p0=%s p1=%s %s" % (names[a], names[b], "VIOLATION" if 2 in (a, b) else "ok")

    init = {("flag", 0): 0, ("flag", 1): 0, "turn": 0, "owner": -1, "status": -1}
    return Model("peterson_broken" if broken else "peterson", [main, other_thread], init,
                 tnames=["main", "other"])


def m_buffer(use_if):
    """buffer_if.dl / buffer_while.dl: a one-slot buffer, field item (0 =
    empty), guarded by its own monitor B.
      put(x):  sync(B) { if/while (item != 0) wait(); item = x; notifyAll(); }
      take():  sync(B) { x = item; if/while (x == 0) { wait(); x = item; }
                         item = 0; notifyAll(); return x; }
    The producer reads its field buf, then puts 1 and 2; the consumer reads
    its field buf, takes once and writes its field got; main starts both,
    takes once itself, joins both, reads got and prints."""
    def put(x):
        yield ACQ("B")
        c = yield R("item")
        if use_if:
            if c != 0:
                yield WAIT("B")
        else:
            while c != 0:
                yield WAIT("B")
                c = yield R("item")
        yield W("item", x)
        yield NOTIFYALL("B")
        yield REL("B")

    def take():
        yield ACQ("B")
        x = yield R("item")
        if use_if:
            if x == 0:
                yield WAIT("B")
                x = yield R("item")
        else:
            while x == 0:
                yield WAIT("B")
                x = yield R("item")
        yield W("item", 0)
        yield NOTIFYALL("B")
        yield REL("B")
        return x

    def producer():
        yield R(("buf", 1))
        yield from put(1)
        yield from put(2)

    def consumer():
        yield R(("buf", 2))
        x = yield from take()
        yield W("got", x)

    def main():
        yield START(1)
        yield START(2)
        mine = yield from take()
        yield JOIN(1)
        yield JOIN(2)
        c = yield R("got")
        return "consumer=%d main=%d" % (c, mine)

    return Model("buffer_if" if use_if else "buffer_while",
                 [main, producer, consumer],
                 {"item": 0, "got": -1, ("buf", 1): "B", ("buf", 2): "B"}, ["B"],
                 tnames=["main", "producer", "consumer"])


PROGRAMS = {
    # name: (builder(N), default N, description)
    "lastzero": (m_lastzero, 5, "bench/lastzero.dl"),
    "readers": (m_readers, 8, "bench/readers.dl"),
    "indexer": (lambda n: m_indexer(n), 14, "bench/indexer.dl (mutex cas, as in SV-COMP/Nidhugg)"),
    "indexer_cas": (lambda n: m_indexer(n, cas_event=True), 14, "indexer with cas as one RMW event (not a .dl file)"),
    "filesystem": (m_filesystem, 16, "bench/filesystem.dl"),
    "fib_bench": (m_fib_bench, 3, "bench/fib_bench.dl"),
    "sb": (m_sb, None, "sb.dl"),
    "mp": (m_mp, None, "mp.dl"),
    "mp_volatile": (m_mp, None, "mp_volatile.dl"),
    "lostupdate2": (m_lostupdate2, 2, "lostupdate2.dl (N = increments per thread)"),
    "deadlock2": (m_deadlock2, None, "deadlock2.dl"),
    "philosophers3": (m_philosophers3, None, "philosophers3.dl"),
    "peterson": (lambda n: m_peterson(n), 1, "peterson.dl (N = SPIN, extra checks before giving up; the .dl has 1)"),
    "peterson_volatile": (lambda n: m_peterson(n), 1, "peterson_volatile.dl"),
    "peterson_broken": (lambda n: m_peterson(n, broken=True), 1, "peterson_broken.dl"),
    "buffer_if": (lambda n: m_buffer(True), None, "buffer_if.dl"),
    "buffer_while": (lambda n: m_buffer(False), None, "buffer_while.dl"),
}


def restrict(model, only):
    """Keep main and the listed threads (renumbered 1..k; main's START/JOIN
    of the others are dropped): to check a sub-program of a big benchmark by
    brute force."""
    keep = [t for t in sorted(set(only)) if t != 0]
    newid = {t: i + 1 for i, t in enumerate(keep)}
    orig_main = model.threads[0]

    def main():
        g = orig_main()
        try:
            ev = next(g)
            while True:
                if ev.kind in ("start", "join"):
                    if ev.loc not in newid:
                        ev = g.send(None)
                        continue
                    ev = Ev(ev.kind, newid[ev.loc], None, ev.fut)
                v = yield ev
                ev = g.send(v)
        except StopIteration as stop:
            return stop.value

    model.threads = [main] + [model.threads[t] for t in keep]
    model.tnames = [model.tnames[0]] + [model.tnames[t] for t in keep]
    model._cache = {}
    return model


def run(name, N, method, only=None, quiet=False, use_memo=True):
    build, default, _ = PROGRAMS[name]
    if N is None:
        N = default
    model = build(N)
    if only:
        model = restrict(model, only)
    res = {}
    label = "%s(%s)%s" % (name, N, (" only " + ",".join(map(str, only))) if only else "")
    methods = ["paths", "brute", "sleep", "por"] if method == "all" else [method]
    for meth in methods:
        eng = Engine(model)
        if meth == "paths":
            total, outs = eng.count_paths()
            res["interleavings"] = total
            res["outcomes"] = outs
            if not quiet:
                print("%s: %d interleavings (maximal schedules, no reduction)" % (label, total))
                for o in sorted(outs):
                    print("    outcome %-40s %d interleavings" % (repr(o), outs[o]))
        elif meth == "brute":
            try:
                c, d, runs = eng.brute_traces()
            except OverflowError as e:
                if not quiet:
                    print("%s: brute: skipped (%s)" % (label, e))
                continue
            res["brute"] = (c, d)
            if not quiet:
                print("%s: brute: %d traces (+%d deadlocked) over %d interleavings" % (label, c, d, runs))
        elif meth in ("sleep", "por"):
            c, d, visits = eng.count_traces(use_por=(meth == "por"), progress=not quiet,
                                            use_memo=use_memo)
            res[meth] = (c, d)
            if eng.fp_violations:
                raise SystemExit("%s: footprint violated: %r" % (label, eng.fp_violations[:3]))
            if not quiet:
                print("%s: %s: %d traces (+%d deadlocked), %d nodes" % (label, meth, c, d, visits))
    return res


SMALL = ["sb", "mp", "mp_volatile", "lostupdate2", "deadlock2", "peterson",
         "peterson_volatile", "peterson_broken", "buffer_if", "buffer_while",
         "philosophers3"]


def header_claims(path):
    """The `// outcome:` lines, the trace count and the interleaving count a
    .dl file's header states."""
    import re
    outs, traces, dead, inter = set(), None, 0, None
    for line in open(path):
        if not line.startswith("//"):
            break
        text = line[2:].strip()
        if text.startswith("outcome: "):
            outs.add(text[len("outcome: "):])
        m = re.match(r"Mazurkiewicz traces: (\d+)", text)
        if m and traces is None:
            traces = int(m.group(1))
        m = re.search(r"\+ (\d+) deadlocked", text)
        if m:
            dead = int(m.group(1))
        m = re.search(r"About (\d+)", text)
        if m and inter is None:
            inter = int(m.group(1))
    return outs, (traces, dead), inter


BENCH = ["lastzero", "readers", "indexer", "filesystem", "fib_bench"]


def check_headers(max_count=5000):
    """Each small .dl program's header against this script's models, and
    each benchmark's `// traces: N:count ...` line for the counts up to
    max_count (the bigger ones take minutes; run them one by one)."""
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    ok = True
    for name in BENCH:
        path = os.path.join(here, name + ".dl")
        claims = []
        for line in open(path):
            if line.startswith("// traces: "):
                claims = [tuple(map(int, c.split(":"))) for c in line[len("// traces: "):].split()]
        if not claims:
            print("%-18s MISMATCH  no // traces: line" % (name + ".dl"))
            ok = False
            continue
        res = []
        for N, want in claims:
            if want > max_count:
                res.append("%d:skipped" % N)
                continue
            got = run(name, N, "por", quiet=True)["por"]
            good = got == (want, 0)
            ok &= good
            res.append("%d:%s" % (N, "ok" if good else "MISMATCH(%d)" % got[0]))
        print("%-18s %s" % ("bench/" + name + ".dl", " ".join(res)))
    for name in SMALL:
        path = os.path.join(here, "..", name + ".dl")
        outs, traces, inter = header_claims(path)
        r = run(name, None, "paths", quiet=True)
        r.update(run(name, None, "por", quiet=True))
        got_outs = set(r["outcomes"])
        good = (got_outs == outs and r["por"] == traces and r["interleavings"] == inter)
        ok &= good
        print("%-18s %s  outcomes %s, traces %s, interleavings %s" % (
            name + ".dl", "ok" if good else "MISMATCH",
            "ok" if got_outs == outs else "header %s, model %s" % (sorted(outs), sorted(got_outs)),
            "ok" if r["por"] == traces else "header %s, model %s" % (traces, r["por"]),
            "ok" if r["interleavings"] == inter else "header %s, model %s" % (inter, r["interleavings"])))
    return ok


def selftest():
    """Small cases: brute force, sleep sets and persistent + sleep sets
    must agree, the benchmarks must give the published counts, and the
    headers of tests/explore/*.dl must match the models."""
    ok = True
    print("1. the three trace counters agree")
    cases = [("lastzero", 2, None), ("lastzero", 3, None), ("readers", 2, None),
             ("readers", 4, None), ("fib_bench", 1, None), ("sb", None, None),
             ("mp", None, None), ("lostupdate2", 2, None), ("lostupdate2", 3, None),
             ("deadlock2", None, None), ("philosophers3", None, None),
             ("peterson", 1, None), ("peterson_broken", 1, None),
             ("buffer_if", None, None), ("buffer_while", None, None),
             ("indexer_cas", 12, [1, 12]), ("filesystem", 14, [1, 14]),
             ("filesystem", 16, [2, 15])]
    for name, N, only in cases:
        r = {}
        for meth in ("brute", "sleep", "por"):
            r.update(run(name, N, meth, only=only, quiet=True))
        vals = {k: r[k] for k in ("brute", "sleep", "por") if k in r}
        same = len(vals) == 3 and len(set(vals.values())) == 1
        ok &= same
        print("   %-14s N=%-4s%-12s %s  %s" % (name, N, " only %s" % only if only else "",
                                              "agree" if same else "DISAGREE", vals))
    print("2. benchmarks: published counts (small parameters)")
    published = [("lastzero", 5, 64), ("lastzero", 10, 3328), ("readers", 2, 4),
                 ("readers", 8, 256), ("indexer", 12, 8), ("indexer", 13, 64),
                 ("indexer_cas", 12, 8), ("filesystem", 14, 2), ("filesystem", 16, 8),
                 ("filesystem", 18, 32), ("filesystem", 19, 64), ("fib_bench", 1, 11),
                 ("fib_bench", 2, 140), ("fib_bench", 3, 1698)]
    for name, N, want in published:
        r = run(name, N, "por", quiet=True)
        good = r["por"] == (want, 0)
        ok &= good
        print("   %-14s N=%-4s %-8s %s" % (name, N, r["por"][0], "ok" if good else "want %d" % want))
    print("3. headers of tests/explore/*.dl")
    ok &= check_headers()
    print("selftest:", "OK" if ok else "FAILED")
    return ok


def main(argv):
    method = "por"
    only = None
    use_memo = True
    i = 0
    rest = []
    argv = list(argv)
    while i < len(argv):
        a = argv[i]
        if a == "--method":
            method = argv[i + 1]
            i += 2
            continue
        if a.startswith("--method="):
            method = a.split("=", 1)[1]
        elif a == "--only":
            only = [int(x) for x in argv[i + 1].split(",")]
            i += 2
            continue
        elif a == "--no-memo":
            use_memo = False
        elif a == "--list":
            for k, (_, d, desc) in PROGRAMS.items():
                print("%-18s default N=%-5s %s" % (k, d, desc))
            return 0
        elif a == "--selftest":
            return 0 if selftest() else 1
        elif a == "--check-headers":
            return 0 if check_headers() else 1
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            rest.append(a)
        i += 1
    if not rest or rest[0] not in PROGRAMS:
        print(__doc__)
        return 2
    name = rest[0]
    N = None
    if len(rest) > 1:
        N = int(rest[1])
    run(name, N, method, only=only, use_memo=use_memo)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
