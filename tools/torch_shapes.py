#!/usr/bin/env python3
"""Turns the matrix products of a PyTorch program into a gemmtune shapes file.

    python3 tools/torch_shapes.py trace.json [more.json ...] [--out shapes.txt]
    python3 tools/torch_shapes.py shapes.txt           # a list: one 'aten::mm [[M, K], [K, N]]' a line

Input is either a Chrome trace of torch.profiler (``prof.export_chrome_trace("trace.json")``,
recorded with ``record_shapes=True``) or a list of operators with their input shapes, one a line,
as the profiler's tables print them (``aten::bmm [[8, 128, 64], [8, 64, 32]]``; '#' comments).
The operators read are aten::mm, aten::addmm, aten::bmm and aten::baddbmm on float32 tensors
(others are counted and left out: half precision is not SGEMM). Each distinct problem is written
once, most frequent first, as ``M N K layout`` with a comment counting its calls; the layout
comes from the trace's input strides where it has them (a transposed input is 't'), else 'nn'. A
batched product (bmm, baddbmm) is a batched problem, ``M N K layout bBATCH``: tune times it as
one strided batched call.

Exit codes: 0 done, 2 bad input (a file that is missing or not a trace or list: FILE:LINE: why).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
from typing import Iterable, List, Optional, Sequence, Tuple

# Operator -> (index of A, index of B) among its inputs, and whether it is batched.
OPERATORS = {
    "aten::mm": (0, 1, False),
    "aten::addmm": (1, 2, False),  # addmm(bias, mat1, mat2)
    "aten::bmm": (0, 1, True),
    "aten::baddbmm": (1, 2, True),  # baddbmm(input, batch1, batch2)
}


class BadInput(Exception):
    """A file that cannot be read as a trace or a list; the message names FILE[:LINE]."""


Problem = Tuple[str, int, int, int, int]  # layout, M, N, K, batch (1: not batched)


def operand_letter(shape: Sequence[int], strides: Optional[Sequence[int]]) -> str:
    """'n' for a matrix stored by rows, 't' for one stored by columns (a transposed view)."""
    if strides and len(strides) >= 2 and strides[-1] != 1 and strides[-2] == 1 and shape[-1] > 1:
        return "t"
    return "n"


def problem_of(operator: str, shapes: Sequence, strides: Optional[Sequence], where: str) -> Problem:
    """The problem of one call, (layout, M, N, K, batch); raises BadInput saying what does not fit."""
    a_index, b_index, batched = OPERATORS[operator]
    rank = 3 if batched else 2
    if len(shapes) <= b_index:
        raise BadInput(f"{where}: {operator} needs {b_index + 1} inputs, got {len(shapes)}")
    a, b = shapes[a_index], shapes[b_index]
    if len(a) != rank or len(b) != rank or not all(isinstance(x, int) and x > 0 for x in (*a, *b)):
        raise BadInput(f"{where}: {operator} takes {rank}-D inputs with sizes >= 1, got {a} and {b}")
    M, K = a[-2], a[-1]
    K_b, N = b[-2], b[-1]
    if K != K_b:
        raise BadInput(f"{where}: {operator} of {a} and {b}: the inner sizes differ ({K} != {K_b})")
    layout = "nn"
    if strides and len(strides) > b_index:
        layout = operand_letter(a, strides[a_index]) + operand_letter(b, strides[b_index])
    return (layout, M, N, K, a[0] if batched else 1)


class Tally:
    """Problems counted by calls, with the operators that made them."""

    def __init__(self) -> None:
        self.calls = collections.Counter()
        self.sources = collections.defaultdict(set)
        self.skipped = collections.Counter()  # operator and dtype -> calls left out

    def add(self, operator: str, shapes: Sequence, types: Optional[Sequence[str]], strides: Optional[Sequence],
            where: str) -> None:
        a_index, b_index, _ = OPERATORS[operator]
        if types and any(t not in ("float", "Float", "float32") for t in (types[a_index:b_index + 1])):
            self.skipped[f"{operator} on {'/'.join(types[a_index:b_index + 1])}"] += 1
            return
        problem = problem_of(operator, shapes, strides, where)
        self.calls[problem] += 1
        self.sources[problem].add(operator)

    def shapes_file(self, sources: List[str]) -> str:
        lines = [f"# gemmtune shapes from {', '.join(os.path.basename(s) for s in sources)} (tools/torch_shapes.py): "
                 "M N K layout [bBATCH]",
                 "# each problem once, most calls first; a batched product is a batched problem"]
        ordered = sorted(self.calls.items(), key=lambda item: (-item[1], item[0][1:], item[0][0]))
        for problem, count in ordered:
            layout, M, N, K, batch = problem
            batch_field = f" b{batch}" if batch > 1 else ""
            lines.append(f"{M} {N} {K} {layout}{batch_field}  # {count} call(s): {', '.join(sorted(self.sources[problem]))}")
        return "\n".join(lines) + "\n"


def read_trace(path: str, text: str, tally: Tally) -> None:
    try:
        trace = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"{path}:{error.lineno}: not a Chrome trace: {error.msg}") from None
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace
    if not isinstance(events, list):
        raise BadInput(f"{path}: not a Chrome trace (no traceEvents list)")
    for number, event in enumerate(events):
        if not isinstance(event, dict) or event.get("name") not in OPERATORS or event.get("ph", "X") != "X":
            continue
        args = event.get("args") or {}
        shapes = args.get("Input Dims")
        if shapes is None:
            raise BadInput(f"{path}: event {number} ({event['name']}) has no 'Input Dims': "
                           "record the trace with torch.profiler.profile(record_shapes=True)")
        tally.add(event["name"], shapes, args.get("Input type"), args.get("Input Strides"), f"{path}: event {number}")


def read_list(path: str, text: str, tally: Tally) -> None:
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        operator, _, rest = content.partition(" ")
        where = f"{path}:{number}"
        if operator not in OPERATORS:
            raise BadInput(f"{where}: '{operator[:40]}' is not one of {', '.join(OPERATORS)}")
        try:
            shapes = json.loads(rest)
        except json.JSONDecodeError:
            raise BadInput(f"{where}: the input shapes must be a list of lists, e.g. [[128, 64], [64, 256]]") from None
        if not isinstance(shapes, list) or not all(isinstance(s, list) for s in shapes):
            raise BadInput(f"{where}: the input shapes must be a list of lists, e.g. [[128, 64], [64, 256]]")
        tally.add(operator, shapes, None, None, where)


def read(path: str, tally: Tally) -> None:
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: cannot read: {error}") from None
    if text.lstrip().startswith(("{", "[")):
        read_trace(path, text, tally)
    else:
        read_list(path, text, tally)


def write_whole(path: str, text: str) -> None:
    """Writes `path` whole or not at all, as the other tools' output files: a temporary
    .NAME.tmp-XXXXXX beside it, renamed over it once complete. Raises BadInput when it cannot be
    created."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.tmp-")
    except OSError as error:
        raise BadInput(f"{path}: cannot open for writing ({error.strerror})") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="torch_shapes.py", description=__doc__.split("\n\n")[0],
        epilog="Exit codes: 0 done, 2 bad input (a missing file, one that is not a trace or list).")
    parser.add_argument("inputs", nargs="+", help="Chrome traces of torch.profiler, or lists of 'aten::mm [[M, K], [K, N]]'")
    parser.add_argument("--out", help="shapes file to write (default: standard output)")
    arguments = parser.parse_args(argv)
    tally = Tally()
    try:
        for path in arguments.inputs:
            read(path, tally)
        for what, count in sorted(tally.skipped.items()):
            print(f"torch_shapes.py: left out {count} call(s) of {what} (not float32)", file=sys.stderr)
        if not tally.calls:
            print("torch_shapes.py: no float32 aten::mm, addmm, bmm or baddbmm call found", file=sys.stderr)
        text = tally.shapes_file(arguments.inputs)
        if arguments.out:
            write_whole(arguments.out, text)
        else:
            sys.stdout.write(text)
    except BadInput as error:
        print(f"torch_shapes.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
