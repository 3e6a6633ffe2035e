#!/usr/bin/env bash
# The rows the performance pages give for suite runs (docs/performance-amd-zen5.md §2),
# from scripts/bench.sh's printed tables instead of by hand:
#   scripts/bench-rows.sh LOG...
# LOG: a run's output (stdout, or stdout and stderr together), named after the run
# (H1.log -> column H1). Prints one Markdown table, a row for each workload and scene the
# logs hold (in the order they print them): per workload, for each run, texvm's
# one-thread ratio to llvmpipe as median / paired / best / frame, then for each run
# texvm's 2t/1t as medians / fastest rounds / median of the rounds' own (where the log has
# that column) with llvmpipe's own in brackets (its two-thread median rate over its
# one-thread one / the median of its rounds' own); per scene (runs with the scenes' summary),
# paired / best / frame at one thread and the paired ratio at two. Exit 1 naming the log
# where a table or a row is missing.
set -uo pipefail
[ $# -ge 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "bench-rows: $f: cannot read it" >&2; exit 1; }; done
exec python3 - "$@" <<'PY'
import os, sys

# each table: the first words of its header line, the fields a row must have
TABLES = {"rates": ("workload   llvmpipe1", 12), "ratios": ("workload     paired1", 9),
          "scenes": ("scene      paired1", 11)}

def fail(msg):
    print("bench-rows: " + msg, file=sys.stderr)
    sys.exit(1)

def number(word):
    """a table's cell: a rate or ratio (a scene's with its x), or what the suite prints
    for none ("-", "nan")"""
    try:
        float(word.rstrip("x"))
        return True
    except ValueError:
        return word == "-"

def parse(path):
    tables, cur = {}, None
    with open(path, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            hit = [k for k, (head, _) in TABLES.items() if line.startswith(head)]
            if hit:
                cur = hit[0]
                tables[cur] = {}
                continue
            words = line.split()
            if cur is None or not words:
                cur = None
                continue
            if len(words) < TABLES[cur][1] or not number(words[1]):
                cur = None      # the lines after a table (bench_store, notes, the outputs)
                continue
            tables[cur][words[0]] = (words, n)
    return tables

def ratio(a, b, path, n):
    try:
        return "%.2f" % (float(a) / float(b))
    except (ValueError, ZeroDivisionError):
        fail("%s:%d: llvmpipe's rates %r, %r are not two numbers" % (path, n, b, a))

runs = []
for path in sys.argv[1:]:
    t = parse(path)
    for k in ("rates", "ratios"):
        if k not in t:
            fail("%s: no %s table (a line starting %r)" % (path, k, TABLES[k][0]))
    name = os.path.basename(path)
    runs.append((name.rsplit(".", 1)[0] if "." in name else name, path, t))

# the rows: every workload and scene the logs hold, in the order they first appear (the
# suite's own list, bench/workloads/, decides them; a log without one of them fails below)
def rows_of(table):
    seen = {}
    for _, _, t in runs:
        seen.update(dict.fromkeys(t.get(table, {})))
    return list(seen)

names = [r[0] for r in runs]
print("| workload | " + " | ".join(names) + " | " +
      " | ".join("2t/1t " + n for n in names) + " |")
print("|---" * (1 + 2 * len(runs)) + "|")
for w in rows_of("rates"):
    one, two = [], []
    for _, path, t in runs:
        if w not in t["rates"] or w not in t["ratios"]:
            fail("%s: no row for %s" % (path, w))
        (m, n), (q, _) = t["rates"][w], t["ratios"][w]
        # rates: workload lp1 lp2 sp tv1 tv2 tv/lp1 tv/lp2 tv/sp 2t/1t ...
        # ratios: workload paired1 paired2 best1 best2 frame1 frame2 2t/1t.best rounds
        # [2t/1t.pair lp.pair] (the last two since 2026-12-04)
        one.append("%s / %s / %s / %s" % (m[6], q[1], q[3], q[5]))
        lp = ratio(m[2], m[1], path, n)
        if len(q) >= 11:
            two.append("%s / %s / %s (%s / %s)" % (m[9], q[7], q[9], lp, q[10]))
        else:
            two.append("%s / %s (%s)" % (m[9], q[7], lp))
    print("| %s | %s |" % (w, " | ".join(one + two)))
if all("scenes" in t for _, _, t in runs):
    for s in rows_of("scenes"):
        one, two = [], []
        for _, path, t in runs:
            if s not in t["scenes"]:
                fail("%s: no row for the %s scene" % (path, s))
            sc = t["scenes"][s][0]
            # scene paired1 paired2 texvm-1 texvm-2 llvmpipe-1 llvmpipe-2 best1 best2 frame1 frame2
            x = lambda v: v.replace("x", "\u00d7")
            one.append("%s / %s / %s" % (x(sc[1]), x(sc[7]), x(sc[9])))
            two.append("%s (2t)" % x(sc[2]))
        print("| %s | %s |" % (s, " | ".join(one + two)))
PY
