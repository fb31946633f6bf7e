#!/usr/bin/env python3
"""Decodes the control bits of sm_90 SASS and summarises a kernel's FFMA main loop.

    python3 tools/sass_control.py [--listing] [--banks 2|4] [--inner-trips N] [--taken ADDRESS]
                                  [--function TEXT] [--names A,B,...] FILE...

FILE is what `cuobjdump -sass` prints (of a cubin, or of a library with -fun NAME), or a .cubin,
which is disassembled with $CUOBJDUMP (default: cuobjdump on PATH). Each 128-bit instruction is
printed by cuobjdump as two 64-bit words; the upper word's bits 41-61 hold the control
information that ptxas writes (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
Microbenchmarking", arXiv:1804.06826, section 2.3; the layout has not changed since Volta),
lowest bit first:

    stall (4 bits)    cycles before this warp may issue its next instruction
    yield (1 bit)     the scheduler hint, printed raw (ptxas clears it mostly where it stalls long)
    write barrier (3) scoreboard (0-5) this instruction's result sets when it lands; 7 = none
    read barrier (3)  scoreboard set until its source registers have been read; 7 = none
    wait mask (6)     scoreboards that must be clear before it issues
    reuse (4)         operand slots (a, b, c, d) whose register the operand reuse cache keeps

The main loop is the shortest of the loops (backward branches' ranges) holding the most FFMAs.
--inner-trips N: the outermost loop instead, with its innermost FFMA loop repeated N times (a k
tile run as N pieces); --taken ADDRESS: the forward branch there is taken, what it jumps over is
left out (a path a tile inside the matrix does not run). The summary, per 1024 FFMAs where that
makes sense, one column a kernel (a Markdown table):
- instructions; stall counts, summed, and beyond the one cycle an issue takes (the fixed-latency
  cycles Nsight Compute counts as "wait" stalls), by opcode;
- shared- and global-memory instructions issued right after another (ptxas gives the first a
  stall of 4: the pipe takes one from a warp every 4 cycles, which cuBLAS's loop hides by
  placing 3 FFMAs between them);
- FFMAs by the operand slots they mark for reuse, register-file reads after the reuse cache, and
  FFMAs whose reads collide in a register bank.
The reuse cache is modelled as one entry per operand slot and register bank (the only model under
which every reuse bit ptxas sets is used: cuBLAS's loop marks R136 in slot b for the FFMA after
next, with an R137 read in slot b between them); an FFMA's read of a slot and bank replaces the
entry, which stays only where the bit is set; other instructions leave it alone. Banks (--banks):
2 (default), Volta and later: register % 2, two 64-bit banks that serve two reads a cycle each,
so an FFMA conflicts only when all three of its register-file reads fall in one bank (Jia et al.,
section 3.2, measured on Volta; later dissections of Turing and Ampere report the same); 4:
Maxwell's four banks (register % 4, one read a bank), for comparison.

--listing prints each main-loop instruction with its decoded bits first. Exit codes: 0 done,
2 bad input (a file that is not SASS, no FFMA loop, a branch that is not there, a cubin without
cuobjdump).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

# "/*1d30*/  @!P0 FFMA R7, R132.reuse, R136.reuse, R7 ;  /* 0x0000008884077223 */" and the next
# line's "/* 0x0dafe20000000007 */": the low word with the text, then the high word.
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$")
HIGH_WORD = re.compile(r"^\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
REGISTER = re.compile(r"^[-|!]*R(\d+)(\.reuse)?\|?$")
BRANCH_TARGET = re.compile(r"\b0x([0-9a-f]+)\s*$")
# Instructions of the memory pipe (MIO): shared and global loads and stores, cp.async.
MEMORY_OPCODES = {"LDS", "STS", "LDSM", "LDGSTS", "LD", "ST", "LDG", "STG"}


class Instruction:
    def __init__(self, address, text, low, high):
        self.address = address
        self.text = text
        self.low = low
        self.high = high
        control = high >> 41
        self.stall = control & 0xF
        self.yield_bit = (control >> 4) & 1
        self.write_barrier = (control >> 5) & 7
        self.read_barrier = (control >> 8) & 7
        self.wait_mask = (control >> 11) & 0x3F
        self.reuse = (control >> 17) & 0xF
        body = re.sub(r"^@!?U?P[T0-9]+\s+", "", text)
        self.opcode = body.split()[0] if body else ""
        self.operands = [o.strip() for o in body[len(self.opcode):].split(",")] if body else []

    @property
    def base_opcode(self):
        return self.opcode.split(".")[0]

    def source_registers(self):
        """(slot, register) of each general-register source of an FFMA: slots a, b, c = 0, 1, 2."""
        sources = []
        for slot, operand in enumerate(self.operands[1:4]):
            match = REGISTER.match(operand)
            if match:
                sources.append((slot, int(match.group(1))))
        return sources

    def control_text(self):
        wait = "".join(str(b) if self.wait_mask >> b & 1 else "-" for b in range(6))
        write = "-" if self.write_barrier == 7 else str(self.write_barrier)
        read = "-" if self.read_barrier == 7 else str(self.read_barrier)
        reuse = "".join("abcd"[s] if self.reuse >> s & 1 else "-" for s in range(4))
        return f"S{self.stall:02d} Y{self.yield_bit} W{write} R{read} B{wait} U{reuse}"


def read_functions(path):
    """{function name: [Instruction]} of a cuobjdump -sass text (or of a cubin, disassembled)."""
    if path.endswith(".cubin"):
        cuobjdump = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
        if not cuobjdump:
            raise ValueError(f"{path}: a cubin needs cuobjdump (set CUOBJDUMP)")
        result = subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True)
        if result.returncode != 0:
            raise ValueError(f"{path}: {cuobjdump} -sass failed: {result.stderr.strip()}")
        lines = result.stdout.splitlines()
    else:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    functions = collections.OrderedDict()
    current = None
    pending = None
    for number, line in enumerate(lines, 1):
        match = FUNCTION.match(line)
        if match:
            current = functions.setdefault(match.group(1), [])
            continue
        match = INSTRUCTION.match(line)
        if match:
            if pending:
                raise ValueError(f"{path}:{number}: an instruction without its second word before it")
            pending = (int(match.group(1), 16), match.group(2), int(match.group(3), 16))
            continue
        match = HIGH_WORD.match(line)
        if match and pending:
            if current is None:
                raise ValueError(f"{path}:{number}: an instruction outside a 'Function :' section")
            current.append(Instruction(pending[0], pending[1], pending[2], int(match.group(1), 16)))
            pending = None
    return functions


def loops(instructions):
    """(first index, last index) of each backward branch's range."""
    index_of = {ins.address: i for i, ins in enumerate(instructions)}
    found = []
    for i, ins in enumerate(instructions):
        if ins.base_opcode != "BRA":
            continue
        match = BRANCH_TARGET.search(ins.text)
        if match and int(match.group(1), 16) < ins.address and int(match.group(1), 16) in index_of:
            found.append((index_of[int(match.group(1), 16)], i))
    return found


def main_loop(instructions, inner_trips):
    """The FFMA loop to summarise, as it runs (see the module's help), or None without one."""
    ranked = []
    for first, last in loops(instructions):
        ffmas = sum(1 for ins in instructions[first:last + 1] if ins.base_opcode == "FFMA")
        if ffmas:
            ranked.append((first, last))
    if not ranked:
        return None

    def inside(inner, outer):
        return outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer

    def as_run(loop):
        if not inner_trips:
            return instructions[loop[0]:loop[1] + 1]
        nested = [r for r in ranked if inside(r, loop)]
        if not nested:
            return instructions[loop[0]:loop[1] + 1]
        first, last = min(nested, key=lambda r: r[1] - r[0])
        return (instructions[loop[0]:first] + instructions[first:last + 1] * inner_trips +
                instructions[last + 1:loop[1] + 1])

    outermost = [r for r in ranked if not any(inside(r, other) for other in ranked)]
    runs = [as_run(loop) for loop in (outermost if inner_trips else ranked)]
    return max(runs, key=lambda run: (sum(1 for ins in run if ins.base_opcode == "FFMA"), -len(run)))


def reuse_cache_reads(body):
    """Per FFMA: the source registers it reads from the register file, after the reuse cache;
    and the reuse bits that no later FFMA used.

    The cache holds one register per operand slot and bank: that is the only model under which
    ptxas's own bits are all used (cuBLAS's loop sets .reuse on R136 in slot b of one FFMA for
    the FFMA after next, with an R137 read in slot b between them). An FFMA's read of a slot and
    bank replaces that entry, kept only where the reuse bit is set; other instructions leave the
    cache alone (ptxas keeps FFMA operands cached across LDS and integer instructions).
    """
    cached = {}
    for steady in (False, True):  # the second pass starts with the cache the loop's end left
        reads = []
        set_bits = {}
        unused = 0
        for ins in body:
            if ins.base_opcode != "FFMA":
                continue
            sources = ins.source_registers()
            reads.append([r for slot, r in sources if cached.get((slot, r % 2)) != r])
            for slot, register in sources:
                entry = (slot, register % 2)
                if cached.get(entry) == register:
                    set_bits.pop(entry, None)
                elif entry in set_bits:
                    unused += 1
                    del set_bits[entry]
                if ins.reuse >> slot & 1:
                    cached[entry] = register
                    set_bits[entry] = True
                else:
                    cached.pop(entry, None)
    return reads, unused


def conflicts(registers, banks):
    """Extra register-file cycles of one instruction's reads under the bank model."""
    per_bank = collections.Counter(r % banks for r in registers)
    if banks == 2:  # two reads a bank a cycle
        return max(0, (max(per_bank.values(), default=0) + 1) // 2 - 1)
    return max(0, max(per_bank.values(), default=0) - 1)


def summary(name, body, banks):
    ffma = [ins for ins in body if ins.base_opcode == "FFMA"]
    scale = 1024 / len(ffma)
    rows = collections.OrderedDict()
    rows["instructions in the loop"] = len(body)
    rows["FFMAs in the loop"] = len(ffma)
    rows["instructions per 1024 FFMAs"] = round(len(body) * scale)
    rows["sum of stall counts per 1024 FFMAs"] = round(sum(ins.stall for ins in body) * scale)
    rows["  of which beyond 1 a instruction (wait cycles)"] = round(
        sum(max(ins.stall - 1, 0) for ins in body) * scale)
    rows["  of them on FFMAs"] = round(sum(max(ins.stall - 1, 0) for ins in ffma) * scale)
    stalls = collections.Counter(ins.stall for ins in body)
    waits = collections.Counter()
    for ins in body:
        waits[ins.opcode] += max(ins.stall - 1, 0)
    rows["  wait cycles by opcode"] = " ".join(
        f"{opcode}:{round(count * scale)}" for opcode, count in waits.most_common() if round(count * scale))
    memory = [i for i, ins in enumerate(body) if ins.base_opcode in MEMORY_OPCODES]
    rows["memory instructions right after another"] = round(
        sum(1 for a, b in zip(memory, memory[1:]) if b == a + 1) * scale)
    rows["stall count histogram (all)"] = " ".join(f"S{s}:{stalls[s]}" for s in sorted(stalls))
    patterns = collections.Counter(
        "".join("abc"[s] for s in range(3) if ins.reuse >> s & 1) or "none" for ins in ffma)
    for pattern in ("none", "a", "b", "ab", "c", "ac", "bc", "abc"):
        if patterns[pattern]:
            rows[f"FFMAs reusing {pattern}"] = round(patterns[pattern] * scale)
    reads, unused = reuse_cache_reads(body)
    rows["FFMA register-file reads per 1024 FFMAs"] = round(sum(len(r) for r in reads) * scale)
    rows["reuse bits no FFMA used"] = unused
    rows[f"FFMAs with a bank conflict (% {banks}), without reuse"] = round(
        sum(1 for ins in ffma if conflicts([r for _, r in ins.source_registers()], banks)) * scale)
    rows[f"FFMAs with a bank conflict (% {banks}), after reuse"] = round(
        sum(1 for r in reads if conflicts(r, banks)) * scale)
    rows["FFMAs waiting on a scoreboard"] = round(sum(1 for ins in ffma if ins.wait_mask) * scale)
    rows["instructions waiting on a scoreboard"] = round(sum(1 for ins in body if ins.wait_mask) * scale)
    others = collections.Counter(ins.opcode for ins in body if ins.base_opcode != "FFMA")
    rows["non-FFMA instructions per 1024 FFMAs"] = round(sum(others.values()) * scale)
    for opcode, count in others.most_common():
        rows[f"  {opcode}"] = round(count * scale)
    return rows


def parse_address(text):
    if not re.fullmatch(r"(0x)?[0-9a-fA-F]+", text):
        raise ValueError(f"--taken {text}: not a hex address")
    return int(text, 16)


def follow_taken(body, taken):
    """The loop without what the branches at the `taken` addresses (in it, forward) jump over."""
    for address in taken:
        branch = next((ins for ins in body if ins.address == address), None)
        match = BRANCH_TARGET.search(branch.text) if branch is not None and branch.base_opcode == "BRA" else None
        if match is None or int(match.group(1), 16) <= address:
            raise ValueError(f"--taken {address:#x}: not a forward branch in the main loop")
        target = int(match.group(1), 16)
        body = [ins for ins in body if not address < ins.address < target]
    return body


def print_listing(name, body):
    print(f"# {name}: main loop {body[0].address:#x}..{body[-1].address:#x}")
    for ins in body:
        print(f"{ins.address:6x}  {ins.control_text()}  {ins.text}")


def print_table(names, summaries):
    keys = []
    for rows in summaries:
        keys += [k for k in rows if k not in keys]
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key in keys:
        print(f"| {key} | " + " | ".join(str(rows.get(key, "")) for rows in summaries) + " |")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="cuobjdump -sass output or a .cubin")
    parser.add_argument("--function", default="", help="only functions whose name contains this")
    parser.add_argument("--banks", type=int, choices=(2, 4), default=2, help="register bank model")
    parser.add_argument("--listing", action="store_true", help="print each main-loop instruction")
    parser.add_argument("--inner-trips", type=int, default=0, metavar="N",
                        help="summarise the outer loop, its inner FFMA loop run N times")
    parser.add_argument("--taken", action="append", default=[], metavar="ADDRESS",
                        help="the forward branch at this hex address is taken: leave out what it jumps over")
    parser.add_argument("--names", help="comma-separated column names, one per kernel")
    args = parser.parse_args(argv)
    names, summaries = [], []
    try:
        taken = [parse_address(text) for text in args.taken]
        for path in args.files:
            functions = read_functions(path)
            if not functions:
                raise ValueError(f"{path}: no SASS functions in it (cuobjdump -sass output?)")
            for function, instructions in functions.items():
                if args.function not in function:
                    continue
                body = main_loop(instructions, args.inner_trips)
                if body is None:
                    raise ValueError(f"{path}: {function} has no loop of FFMAs")
                body = follow_taken(body, taken)
                if args.listing:
                    print_listing(function, body)
                names.append(function)
                summaries.append(summary(function, body, args.banks))
    except (OSError, ValueError) as error:
        print(f"sass_control.py: {error}", file=sys.stderr)
        return 2
    if not summaries:
        print(f"sass_control.py: no function matches '{args.function}'", file=sys.stderr)
        return 2
    if args.names:
        given = args.names.split(",")
        if len(given) != len(names):
            print(f"sass_control.py: --names gives {len(given)} names for {len(names)} kernels", file=sys.stderr)
            return 2
        names = given
    print_table(names, summaries)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
