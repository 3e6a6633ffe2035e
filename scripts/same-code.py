#!/usr/bin/env python3
"""Whether two x86-64 ELF builds hold the same machine code, function by function: the
proof a change meant to keep the code (a file split, a move into a header of the same
translation unit, a rename) gives that it did (docs/contributing.md, "The rules the code
keeps").

    scripts/same-code.py [--function REGEX] [--show N] OLD NEW

OLD and NEW are two builds of one program or object file (e.g. bench_job before and after
the change). Each is disassembled (binutils' objdump) and each function's instructions are
normalised so that what moves when code moves does not count, and what the code computes
does:
  - an instruction's own address is dropped; a branch or call names its target as
    <symbol+offset> (a branch within a function by its offset in the function);
  - a RIP-relative operand names what it reaches: a named object or function as
    <symbol+offset>; an unnamed constant (the compiler's constant pools) by its bytes, as
    many as the instruction reads (its vector register's width, 1/N of it for a {1toN}
    broadcast, a scalar's or a movq/movd/movz/movs source's size from the mnemonic; 8
    where none says) — so a constant whose value changed counts, one that only moved
    does not; an unnamed address taken with lea (jump tables, whose entries are offsets
    that move with the code) as <lea>; an address in .bss or the GOT by its section;
  - %fs: offsets (thread-local variables, placed by the linker) as %fs:<tls>;
  - the PLT entries of IFUNC symbols, which objdump names by an address (*ABS*+0x…@plt),
    as *ABS*@plt; a static function's name without the .lto_priv.N that link-time
    optimisation adds or not from one link to the next (two static functions of one
    name are then compared as a multiset, and a call names either).
A function's trailing padding (nop, int3) is not part of it. Functions are matched by
name (static functions of the same name in several units as a multiset). Prints the
functions that differ (the first differing line of each, up to --show of them), those in
one build only, and a summary line; exit 0 when every function is the same, 1 when one
differs or is missing, 2 on bad arguments or an unreadable file.
--function REGEX compares only the functions whose name matches (re.search).

What it cannot see: the order of functions and data, and TLS variables' identity (blanked
above); what the code reads from an unnamed address other than at the instruction (a
jump table's entries, an over-read for an instruction whose width is not told by its
operands, which can only report a difference that is not one, at a neighbour)."""
import argparse
import re
import struct
import subprocess
import sys

SHT_NOBITS = 8


class Elf:
    """An ELF64 little-endian file's allocated sections (virtual address -> bytes) and its
    symbol table (objdump -t)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if len(d) < 64 or d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise ValueError(f"{path}: not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", d, 0x3A)
        if shentsize != 64 or shoff + shnum * 64 > len(d):
            raise ValueError(f"{path}: section header table out of the file")
        names = []
        for i in range(shnum):
            names.append(struct.unpack_from("<IIQQQQ", d, shoff + 64 * i))
        shstrndx, = struct.unpack_from("<H", d, 0x3E)
        strtab = names[shstrndx] if shstrndx < shnum else None
        self.sections = []   # (addr, size, offset or None for NOBITS, name)
        for name, typ, flags, addr, off, size in names:
            if flags & 2 and size:   # SHF_ALLOC
                if typ != SHT_NOBITS and off + size > len(d):
                    raise ValueError(f"{path}: a section lies out of the file")
                sname = ""
                if strtab and strtab[4] + name < len(d):
                    end = d.find(b"\0", strtab[4] + name)
                    sname = d[strtab[4] + name:end].decode("ascii", "replace")
                self.sections.append((addr, size, None if typ == SHT_NOBITS else off, sname))
        self.objects = {}   # name -> (addr, size) of data objects
        out = run(["objdump", "-t", "-w", path])
        for line in out.splitlines():
            m = re.match(r"^([0-9a-f]{16}) (.{7}) (\S+)\s+([0-9a-f]{16})\s+(.*)$", line)
            if m and "O" in m.group(2):
                name = m.group(5).split()[-1]
                self.objects[name] = (int(m.group(1), 16), int(m.group(4), 16))

    def section_of(self, addr):
        for s in self.sections:
            if s[0] <= addr < s[0] + s[1]:
                return s
        return None

    def read(self, addr, n):
        s = self.section_of(addr)
        if s is None or s[2] is None:
            return None
        n = min(n, s[0] + s[1] - addr)
        return self.data[s[2] + addr - s[0]:s[2] + addr - s[0] + n]


def run(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, check=False)
    except OSError as e:
        raise ValueError(f"{argv[0]}: {e}") from e
    if p.returncode != 0:
        raise ValueError(f"{' '.join(argv)}: {p.stderr.strip() or 'failed'}")
    return p.stdout


CODE = (".text", ".plt", ".init", ".fini")
REG_BYTES = {"zmm": 64, "ymm": 32, "xmm": 16}
# (scalar floating point: the name ends in ss or sd or converts from or to one; packed
# integer instructions, whose names start with p or vp, can end so too: vpminsd)
SCALAR = re.compile(r"(ss|sd)$|(ss|sd)2|2(ss|sd)")
BROADCAST = {"vbroadcastss": 4, "vbroadcastsd": 8, "vpbroadcastb": 1, "vpbroadcastw": 2,
             "vpbroadcastd": 4, "vpbroadcastq": 8, "vbroadcastf128": 16, "vbroadcasti128": 16,
             "vbroadcastf32x4": 16, "vbroadcasti32x4": 16, "vbroadcastf64x2": 16,
             "vbroadcasti64x2": 16, "vbroadcastf32x8": 32, "vbroadcasti32x8": 32,
             "vbroadcastf64x4": 32, "vbroadcasti64x4": 32, "vmovddup": 8}


def width(mnemonic, operands):
    """How many bytes an instruction reads from its memory operand (the heuristic the
    module's docstring describes: at least what it reads)."""
    if mnemonic in BROADCAST:
        return BROADCAST[mnemonic]
    if mnemonic in ("movq", "vmovq", "movd", "vmovd"):
        return 8 if mnemonic.endswith("q") else 4
    m = re.match(r"^mov([sz])([bwl])[wlq]$", mnemonic)   # movzbl, movswq, movslq: the source
    if m:
        return {"b": 1, "w": 2, "l": 4}[m.group(2)]
    regs = [REG_BYTES[r] for r in re.findall(r"%(zmm|ymm|xmm)\d+", operands)]
    b = re.search(r"\{1to(\d+)\}", operands)
    if b and regs:
        return max(max(regs) // int(b.group(1)), 1)
    if not mnemonic.startswith(("p", "vp")) and SCALAR.search(mnemonic):
        return 4 if re.search(r"ss$|ss2", mnemonic) else 8
    if regs:
        return max(regs)
    return 8


# (the alignment after a function's last instruction, which depends on where the next one
# starts)
PADDING = re.compile(r"^((data16|cs) )*nop[wl]?\b|^xchg %ax,%ax$|^int3$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s*(.*)$")
FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
TARGET = re.compile(r"\b[0-9a-f]+ (<[^>]+>)")
RIP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
COMMENT = re.compile(r"\s*#\s*([0-9a-f]+)(?: <([^>+]+)(?:\+0x([0-9a-f]+))?>)?\s*$")


# (the PLT entries of IFUNC symbols, which objdump names by their resolver's address)
ABS_PLT = re.compile(r"\*ABS\*\+0x[0-9a-f]+@plt")
# (the suffix link-time optimisation gives a static function it keeps local, or not,
# from one link to the next)
LTO_PRIV = re.compile(r"\.lto_priv\.\d+")


def name_of(symbol):
    """A function's name as compared: without the two kinds of suffix above."""
    return LTO_PRIV.sub("", ABS_PLT.sub("*ABS*@plt", symbol))


def normalise(elf, text):
    """One instruction's text (objdump -d --no-show-raw-insn -w, its address cut off) in
    the form that is the same wherever the code lies."""
    text = re.sub(r"\s+", " ", text.strip())
    ref = ""
    m = COMMENT.search(text)
    if m:
        text = text[:m.start()]
        addr = int(m.group(1), 16)
        sym, off = m.group(2), int(m.group(3) or "0", 16)
        mnemonic, _, operands = text.partition(" ")
        obj = elf.objects.get(sym) if sym else None
        sec = elf.section_of(addr)
        if obj and obj[0] <= addr < obj[0] + max(obj[1], 1):
            ref = f"<{sym}+{off:#x}>"
        elif sec is None:
            ref = "<unmapped>"
        elif sec[3].startswith(CODE):
            # (an address in code, a function's: named as a branch target is)
            ref = f"<{name_of(sym)}+{off:#x}>" if sym else f"<{sec[3]}>"
        elif sec[2] is None or sec[3].startswith(".got"):
            # (.bss has no bytes; the GOT's are filled in at load time)
            ref = f"<{sec[3]}:{sym}+{off:#x}>" if sym else f"<{sec[3]}>"
        elif mnemonic == "lea":
            ref = "<lea>"
        else:
            ref = "=" + elf.read(addr, width(mnemonic, operands)).hex()
    text = name_of(TARGET.sub(r"\1", text))
    text = RIP.sub("(%rip)", text)
    text = re.sub(r"%fs:-?0x[0-9a-f]+", "%fs:<tls>", text)
    return f"{text} {ref}".rstrip()


def functions(path, only):
    elf = Elf(path)
    out = run(["objdump", "-d", "--no-show-raw-insn", "-w", path])
    funcs = {}
    name, body = None, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            name, body = name_of(m.group(2)), []
            if only is None or only.search(name):
                funcs.setdefault(name, []).append(body)
            continue
        m = INSN.match(line)
        if m and body is not None and m.group(2) and not m.group(2).startswith("(bad)"):
            body.append(normalise(elf, m.group(2)))
    for bodies in funcs.values():
        for body in bodies:
            while body and PADDING.match(body[-1]):
                body.pop()
    return {n: sorted(bodies) for n, bodies in funcs.items()}


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    i = min(len(a), len(b))
    return i, a[i] if i < len(a) else "(end)", b[i] if i < len(b) else "(end)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--function", help="only the functions whose name matches this regex")
    ap.add_argument("--show", type=int, default=20, help="differing functions shown (20)")
    ap.add_argument("old")
    ap.add_argument("new")
    args = ap.parse_args()
    try:
        only = re.compile(args.function) if args.function else None
    except re.error as e:
        print(f"same-code: --function: {e}", file=sys.stderr)
        return 2
    try:
        old, new = functions(args.old, only), functions(args.new, only)
    except (OSError, ValueError) as e:
        print(f"same-code: {e}", file=sys.stderr)
        return 2
    differ, insns = [], 0
    for name in sorted(set(old) & set(new)):
        a, b = old[name], new[name]
        insns += sum(len(x) for x in a)
        if a != b:
            differ.append(name)
    gone, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    for name in differ[:args.show]:
        a, b = old[name], new[name]
        if len(a) != len(b):
            print(f"differs: {name}: {len(a)} definitions in OLD, {len(b)} in NEW")
            continue
        for x, y in zip(a, b):
            if x != y:
                i, lx, ly = first_difference(x, y)
                print(f"differs: {name}: instruction {i}: OLD '{lx}' NEW '{ly}'")
                break
    for name in gone[:args.show]:
        print(f"only in OLD: {name}")
    for name in added[:args.show]:
        print(f"only in NEW: {name}")
    common = len(set(old) & set(new))
    if not differ and not gone and not added:
        print(f"same-code: the same: {common} functions, {insns} instructions")
        return 0
    print(f"same-code: NOT the same: {len(differ)} of {common} functions differ, "
          f"{len(gone)} only in OLD, {len(added)} only in NEW")
    return 1


if __name__ == "__main__":
    sys.exit(main())
