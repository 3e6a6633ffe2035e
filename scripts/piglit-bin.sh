#!/usr/bin/env bash
# piglit's GL test programs (not shader_tests) through texvm, virglrenderer's
# virgl_test_server and native llvmpipe: the sample tests/vtest/piglit-bin-list.txt, run by
# scripts/piglit-compare.sh (docs/fidelity-piglit-programs.md §1, "piglit's test programs").
#   scripts/piglit-bin.sh                 run the sample three ways and print the table
#   scripts/piglit-bin.sh --make-list     write the sample again from piglit's quick_gl
#                                         profile (Debian's piglit package)
# The sample: piglit's quick_gl profile (quick_gl.xml.gz) without the glx group, grouped by
# the name's first part (spec@EXTENSION, shaders, hiz, ...), every test of a group of at
# most 8 and 8 drawn with Python's random.Random(42) from a larger one; a program the
# package does not ship is left out. Each line is "NAME<TAB>PROGRAM ARGS -auto -fbo"
# (PIGLIT_PLATFORM=surfaceless_egl needs -fbo: without it every test aborts); an argument
# naming a file under piglit's tests/ folder gets that prefix (the programs run in
# PIGLIT_DIR). Environment: DRIVERS (default "texvm virgl llvmpipe"), TIMEOUT (60 s a
# test), JOBS, PIGLIT_DIR, PIGLIT_OUT (build/piglit-bin), as for piglit-compare.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
list=tests/vtest/piglit-bin-list.txt
export PIGLIT_DIR=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
if [ "${1:-}" = --make-list ]; then
  python3 - "$PIGLIT_DIR" "$list" <<'PY'
import ast, collections, gzip, os, random, sys
import xml.etree.ElementTree as ET
piglit, out = sys.argv[1], sys.argv[2]
groups = collections.defaultdict(list)
for e in ET.parse(gzip.open(os.path.join(piglit, 'tests', 'quick_gl.xml.gz'))).getroot():
    opts = {o.get('name'): o.get('value') for o in e.findall('option')}
    name, cmd = e.get('name'), ast.literal_eval(opts['command'])
    parts = name.split('@')
    groups[parts[0] if parts[0] != 'spec' else 'spec@' + parts[1]].append((name, cmd))
rnd = random.Random(42)
rows = []
for g in sorted(groups):
    if g == 'glx':
        continue
    v = groups[g]
    rows += v if len(v) <= 8 else sorted(rnd.sample(v, 8))
with open(out, 'w') as f:
    f.write('# piglit test programs: scripts/piglit-bin.sh --make-list (quick_gl, <= 8 a group)\n')
    for name, cmd in rows:
        if not os.path.exists(os.path.join(piglit, 'bin', cmd[0])):
            continue
        args = ['tests/' + a if '/' in a and not os.path.exists(os.path.join(piglit, a))
                and os.path.exists(os.path.join(piglit, 'tests', a)) else a for a in cmd]
        # (empty arguments dropped: piglit-run.sh splits the line at blanks)
        f.write('%s\t%s -auto -fbo\n' % (name, ' '.join(a for a in args if a)))
PY
  echo "piglit-bin: $(grep -vc '^#' "$list") tests in $list"
  exit 0
fi
export TIMEOUT=${TIMEOUT:-60}
DRIVERS=${DRIVERS:-texvm virgl llvmpipe} PIGLIT_OUT=${PIGLIT_OUT:-build/piglit-bin} \
  scripts/piglit-compare.sh "$list"
