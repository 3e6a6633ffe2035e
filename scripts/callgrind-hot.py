#!/usr/bin/env python3
"""The hot code of a run: how many distinct instructions a program executes often, from
callgrind's per-instruction counts (issue 19; docs/performance.md §1.5).

  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=OUT PROGRAM ...
  scripts/callgrind-hot.py OUT [--base BASE] (--min N | --pixels P [--frames F] [--per K])
                           [--functions M]

--base BASE: the output of the same program drawing one frame fewer (bench_job and
mesa-run --repeat, bench_draw --draws, as scripts/bench-insns.sh counts): each
instruction's count is then OUT's less BASE's, one frame's, and the set-up, the texture's
making and the JIT compiles, which both runs did alike, cancel (where one instruction's
count fell, it counts 0). An instruction is hot where it ran at least N times; with
--pixels, N is F * P / K (F the frames, 1 with --base and otherwise to be given, warm-up
included; K default 64): at least once per K pixels, so what runs per warp (texvm's 32
pixels), per block (llvmpipe's 16) or per small triangle counts. The count of hot
instructions is the code a core's front end must deliver again and again, frame after
frame: where it outgrows the decoded-instruction cache (op cache, DSB), the core decodes
it anew each time. Prints the instructions executed, the distinct ones, the hot ones with
the share of the executed they account for, how many distinct instructions the busiest
50 / 90 / 99 % take, and with --functions M the M functions with the most hot
instructions. Exit 0; 2 bad arguments or a file that is not callgrind's output with
instruction positions (run callgrind with --dump-instr=yes).
"""
import argparse
import collections
import re
import sys


class Bad(Exception):
    pass


def parse(path):
    """{(function, address): count} from a callgrind output file"""
    counts = collections.Counter()
    names = {}
    positions = None
    ir = 0  # the column of the instruction count (events: Ir ...) among the events
    last = []
    fn = '?'
    skip_next = False  # the cost line after calls= is the call's inclusive cost
    try:
        f = open(path, encoding='utf-8', errors='replace')
    except OSError as e:
        raise Bad('%s: %s' % (path, e.strerror))
    with f:
        for no, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if line.startswith('positions:'):
                positions = line.split()[1:]
                if not positions or positions[0] != 'instr':
                    raise Bad('%s:%d: positions are "%s", not instructions (run callgrind'
                              ' with --dump-instr=yes)' % (path, no, ' '.join(positions)))
                last = [0] * len(positions)
                continue
            if line.startswith('events:'):
                events = line.split()[1:]
                if 'Ir' not in events:
                    raise Bad('%s:%d: no Ir among the events "%s"' % (path, no, ' '.join(events)))
                ir = events.index('Ir')
                continue
            if line.startswith(('fn=', 'cfn=')):
                # fn= and a call's cfn= share one name table: "(id) name" defines an id,
                # "(id)" reuses it; only fn= makes it the current function
                m = re.match(r'c?fn=\((\d+)\)(?: (.*))?$', line)
                if m:
                    if m.group(2) is not None:
                        names[m.group(1)] = m.group(2)
                    name = names.get(m.group(1), '?')
                else:
                    name = line.split('=', 1)[1]
                if line.startswith('fn='):
                    fn = name
                continue
            if line.startswith('calls='):
                skip_next = True
                continue
            if not line or line[0] not in '0123456789+-*':
                continue
            if positions is None:
                raise Bad('%s:%d: a cost line before any "positions:" line' % (path, no))
            fields = line.split()
            if len(fields) < len(positions):
                raise Bad('%s:%d: %d positions expected: %s' % (path, no, len(positions), line))
            for i, tok in enumerate(fields[:len(positions)]):
                try:
                    if tok == '*':
                        continue
                    if tok[0] in '+-':
                        step = int(tok[1:], 16) if tok[1:3] in ('0x', '0X') else int(tok[1:])
                        last[i] += step if tok[0] == '+' else -step
                    else:
                        last[i] = int(tok, 0)
                except ValueError:
                    raise Bad('%s:%d: not a position: %s' % (path, no, tok)) from None
            if skip_next:
                skip_next = False
                continue
            if len(fields) > len(positions) + ir:  # (trailing zero counts are left out)
                tok = fields[len(positions) + ir]
                try:
                    counts[(fn, last[0])] += int(tok)
                except ValueError:
                    raise Bad('%s:%d: not a count: %s' % (path, no, tok)) from None
    if positions is None:
        raise Bad('%s: no "positions:" line: not callgrind output' % path)
    return counts


def main():
    ap = argparse.ArgumentParser(prog='callgrind-hot.py', description=__doc__.split('\n')[0])
    ap.add_argument('file')
    ap.add_argument('--base', help='the same run one frame shorter: its counts taken off')
    ap.add_argument('--min', type=int, help='hot: executed at least this many times')
    ap.add_argument('--pixels', type=int, help='pixels (or invocations) a frame')
    ap.add_argument('--frames', type=int, help="frames the run drew, its warm-up's included")
    ap.add_argument('--per', type=int, default=64, help='pixels per execution (default 64)')
    ap.add_argument('--functions', type=int, default=0, metavar='M')
    a = ap.parse_args()
    if a.min is not None:
        if a.pixels is not None or a.frames is not None:
            ap.error('--min or --pixels with --frames, not both')
        if a.min < 1:
            ap.error('--min: at least 1')
        threshold, how = a.min, 'at least %d times' % a.min
    else:
        if a.base is not None:
            if a.frames is not None:
                ap.error('--frames: one frame with --base')
            a.frames = 1
        if a.pixels is None or a.frames is None:
            ap.error('the threshold: --min N, or --pixels P with --frames F (or --base)')
        if a.pixels < 1 or a.frames < 1 or a.per < 1:
            ap.error('--pixels, --frames and --per: at least 1')
        threshold = max(1, a.frames * a.pixels // a.per)
        how = 'at least once per %d pixels of %d frames of %d: %d times' % (
            a.per, a.frames, a.pixels, threshold)
    try:
        counts = parse(a.file)
        if a.base is not None:
            counts.subtract(parse(a.base))
            counts = +counts  # (drops the counts that fell to 0 or below)
    except Bad as e:
        print('callgrind-hot: %s' % e, file=sys.stderr)
        return 2
    # an address executed under two function names (inlined code named by its caller) is
    # one instruction
    by_addr = collections.Counter()
    for (fn, addr), c in counts.items():
        by_addr[addr] += c
    total = sum(by_addr.values())
    hot = {addr for addr, c in by_addr.items() if c >= threshold}
    hot_sum = sum(by_addr[addr] for addr in hot)
    print('callgrind-hot: %s%s: %d instructions executed, %d distinct' %
          (a.file, ' less %s' % a.base if a.base is not None else '', total, len(by_addr)))
    print('callgrind-hot: hot (%s): %d instructions, %.1f %% of those executed' %
          (how, len(hot), 100.0 * hot_sum / total if total else 0.0))
    busiest = sorted(by_addr.values(), reverse=True)
    marks, cum, i, out = [0.5, 0.9, 0.99], 0, 0, []
    for n, c in enumerate(busiest, 1):
        cum += c
        while i < len(marks) and cum >= marks[i] * total:
            out.append('%d %%: %d' % (round(marks[i] * 100), n))
            i += 1
    print('callgrind-hot: the busiest distinct instructions: %s' % (', '.join(out) or '-'))
    if a.functions > 0:
        # each hot instruction to the function that ran it most
        owner = {}
        for (fn, addr), c in counts.items():
            if addr in hot and c > owner.get(addr, ('', -1))[1]:
                owner[addr] = (fn, c)
        per_fn = collections.Counter(fn for fn, _ in owner.values())
        for fn, n in per_fn.most_common(a.functions):
            print('%8d  %s' % (n, fn))
    return 0


if __name__ == '__main__':
    sys.exit(main())
