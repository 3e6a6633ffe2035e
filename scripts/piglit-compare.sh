#!/usr/bin/env bash
# One table for a piglit list run four ways: through texvm's vtest server, through
# virglrenderer's virgl_test_server on llvmpipe (both with Mesa's virgl driver), and
# natively on llvmpipe and softpipe. Prints the verdict counts and wall time of each, then
# every test where the four disagree (texvm's verdict first).
#   scripts/piglit-compare.sh [LIST | full | all]     (default tests/vtest/piglit-list.txt)
# Each run is scripts/piglit-run.sh's, into build/piglit-compare/<driver>/ (PIGLIT_OUT: another
# folder); the table is also written to build/piglit-compare/table.md. DRIVERS (default
# "texvm virgl llvmpipe softpipe") picks the columns; JOBS/TIMEOUT as for piglit-run.sh.
# The two servers run one after the other (Mesa 22.3 connects to the fixed /tmp/.virgl_test).
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-tests/vtest/piglit-list.txt}
out=${PIGLIT_OUT:-build/piglit-compare}
drivers=${DRIVERS:-texvm virgl llvmpipe softpipe}
scripts/setup.sh --piglit
BUILD_TARGETS=texvm scripts/build.sh build   # the server is all it runs
mkdir -p "$out"
for d in $drivers; do
  scripts/piglit-run.sh "$d" "$list" "$out/$d"
done
python3 - "$out" $drivers <<'PY' | tee "$out/table.md.tmp"
import os, sys, collections
out, drivers = sys.argv[1], sys.argv[2:]
res, wall = {}, {}
for d in drivers:
    res[d] = dict(l.rstrip('\n').split('\t')[:2] for l in open(os.path.join(out, d, 'results.tsv')) if l.strip())
    wall[d] = float(open(os.path.join(out, d, 'wall.txt')).read())
kinds = ['pass', 'fail', 'skip', 'warn', 'crash', 'timeout']
names = {'texvm': 'texvm (vtest)', 'virgl': 'virgl_test_server (llvmpipe)',
         'llvmpipe': 'llvmpipe (native)', 'softpipe': 'softpipe (native)'}
tests = sorted(set().union(*(r.keys() for r in res.values())))
print('| %s | tests | %s | wall s |' % ('run', ' | '.join(kinds)))
print('|---|---:|%s---:|' % ('---:|' * len(kinds)))
for d in drivers:
    c = collections.Counter(res[d].values())
    print('| %s | %d | %s | %.1f |' % (names.get(d, d), len(res[d]),
          ' | '.join(str(c.get(k, 0)) for k in kinds), wall[d]))
diff = [t for t in tests if len({res[d].get(t, '-') for d in drivers}) > 1]
print()
print('%d of %d tests where the runs disagree:' % (len(diff), len(tests)))
print()
print('| test | %s |' % ' | '.join(drivers))
print('|---|%s' % ('---|' * len(drivers)))
for t in diff:
    print('| %s | %s |' % (t, ' | '.join(res[d].get(t, '-') for d in drivers)))
if 'texvm' in drivers and 'llvmpipe' in drivers:
    behind = [t for t in tests if res['llvmpipe'].get(t) == 'pass' and res['texvm'].get(t) != 'pass']
    print()
    print('texvm does not pass %d tests native llvmpipe passes' % len(behind))
PY
mv "$out/table.md.tmp" "$out/table.md"
