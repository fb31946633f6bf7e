"""An sgemm call on arrays, as the runtime's row-major call: sizes, operands, leading dimensions.

Every operand may be stored by rows or by columns (see _arrays.stored). The call is always made
row-major: a column-stored A or B is the transpose of a row-stored matrix, and a column-stored C
is computed as C^T = op(B)^T op(A)^T, which is row-stored. 3-D arrays (batch, rows, cols) make a
strided batched call: every operand a batch of the same count, each entry stored as above, its
entries a fixed stride apart (a and b may repeat one matrix: stride 0, as torch's expand gives).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from . import _arrays


@dataclass(frozen=True)
class RowMajorCall:
    M: int
    N: int
    K: int
    A: int
    lda: int
    trans_a: bool
    B: int
    ldb: int
    trans_b: bool
    C: int
    ldc: int
    batch: int = 1
    stride_a: int = 0  # elements between entries, of the row-major call's A, B and C
    stride_b: int = 0
    stride_c: int = 0


@dataclass(frozen=True)
class Operands:
    """The arrays of a call, read: op(A) is M x K, op(B) K x N, C M x N (None: to be allocated)."""

    a: _arrays.Matrix
    b: _arrays.Matrix
    c: Optional[_arrays.Matrix]
    M: int
    N: int
    K: int
    device: Optional[int]
    batch: Optional[int] = None  # None: 2-D arrays, one product


def read_operands(a: Any, b: Any, out: Any, trans_a: bool, trans_b: bool, stream: Optional[int] = None) -> Operands:
    """Reads and checks the arrays: 2-D float32 CUDA matrices whose shapes agree, or 3-D batches of
    them of one batch count, on one device, to be used on `stream` (None: not used). Raises
    TypeError or ValueError saying which argument is wrong."""
    ma = _arrays.matrix("a", a, stream)
    mb = _arrays.matrix("b", b, stream)
    M, K = (ma.cols, ma.rows) if trans_a else (ma.rows, ma.cols)
    K_b, N = (mb.cols, mb.rows) if trans_b else (mb.rows, mb.cols)
    op_a = "a.T" if trans_a else "a"
    op_b = "b.T" if trans_b else "b"
    if K != K_b:
        raise ValueError(f"{op_a} is {M} x {K} and {op_b} is {K_b} x {N}: the inner sizes differ ({K} != {K_b})")
    mc = None
    if out is not None:
        mc = _arrays.matrix("out", out, stream)
        if (mc.rows, mc.cols) != (M, N):
            raise ValueError(f"out is {mc.rows} x {mc.cols}, {op_a} @ {op_b} is {M} x {N}")
    devices = {m.device for m in (ma, mb, mc) if m is not None and m.device is not None}
    if len(devices) > 1:
        raise ValueError(f"the arrays are on different CUDA devices: {sorted(devices)}")
    return Operands(ma, mb, mc, M, N, K, devices.pop() if devices else None, _batch_of(ma, mb, mc))


def _batch_of(ma: _arrays.Matrix, mb: _arrays.Matrix, mc: Optional[_arrays.Matrix]) -> Optional[int]:
    """The batch count all the arrays share (None: all 2-D); ValueError when they do not."""
    named = [("a", ma), ("b", mb)] + ([("out", mc)] if mc is not None else [])
    kinds = {m.batched for _, m in named}
    if kinds == {False}:
        return None
    if len(kinds) > 1:
        shapes = ", ".join(f"{name} {'3-D' if m.batched else '2-D'}" for name, m in named)
        raise ValueError(f"a batched product takes 3-D arrays (batch, rows, cols) for every operand: {shapes}")
    counts = {m.batch for _, m in named}
    if len(counts) > 1:
        raise ValueError("the batch counts differ: " + ", ".join(f"{name} {m.batch}" for name, m in named))
    for name, m in named:
        if m.batch_stride < 0:
            raise ValueError(f"{name}: batch stride {m.batch_stride} elements is negative: copy it first (.contiguous())")
    if mc is not None and mc.batch > 1 and mc.batch_stride == 0:
        raise ValueError("out: batch stride 0: every entry would write the same matrix")
    return counts.pop()


def row_major_call(operands: Operands, c: _arrays.Matrix, trans_a: bool, trans_b: bool) -> RowMajorCall:
    """The runtime's call for C = op(A) op(B) with C stored as `c`."""
    sa = _arrays.stored("a", operands.a)
    sb = _arrays.stored("b", operands.b)
    sc = _arrays.stored("out", c)
    # op(A) = X_A or X_A^T where X_A is row-major: the flag the row-major call needs.
    ta = trans_a != sa.transposed
    tb = trans_b != sb.transposed
    M, N, K = operands.M, operands.N, operands.K
    batch = operands.batch or 1
    if not sc.transposed:
        return RowMajorCall(M, N, K, sa.pointer, sa.ld, ta, sb.pointer, sb.ld, tb, sc.pointer, sc.ld, batch,
                            operands.a.batch_stride, operands.b.batch_stride, c.batch_stride)
    # C stored by columns: C^T (N x M, row-major) = op(B)^T op(A)^T.
    return RowMajorCall(N, M, K, sb.pointer, sb.ld, not tb, sa.pointer, sa.ld, not ta, sc.pointer, sc.ld, batch,
                        operands.b.batch_stride, operands.a.batch_stride, c.batch_stride)
