"""An sgemm call on arrays, as the runtime's row-major call: sizes, operands, leading dimensions.

Every operand may be stored by rows or by columns (see _arrays.stored). The call is always made
row-major: a column-stored A or B is the transpose of a row-stored matrix, and a column-stored C
is computed as C^T = op(B)^T op(A)^T, which is row-stored.
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


def read_operands(a: Any, b: Any, out: Any, trans_a: bool, trans_b: bool, stream: Optional[int] = None) -> Operands:
    """Reads and checks the arrays: 2-D float32 CUDA matrices whose shapes agree, on one device,
    to be used on `stream` (None: not used). Raises TypeError or ValueError saying which argument
    is wrong."""
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
    return Operands(ma, mb, mc, M, N, K, devices.pop() if devices else None)


def row_major_call(operands: Operands, c: _arrays.Matrix, trans_a: bool, trans_b: bool) -> RowMajorCall:
    """The runtime's call for C = op(A) op(B) with C stored as `c`."""
    sa = _arrays.stored("a", operands.a)
    sb = _arrays.stored("b", operands.b)
    sc = _arrays.stored("out", c)
    # op(A) = X_A or X_A^T where X_A is row-major: the flag the row-major call needs.
    ta = trans_a != sa.transposed
    tb = trans_b != sb.transposed
    M, N, K = operands.M, operands.N, operands.K
    if not sc.transposed:
        return RowMajorCall(M, N, K, sa.pointer, sa.ld, ta, sb.pointer, sb.ld, tb, sc.pointer, sc.ld)
    # C stored by columns: C^T (N x M, row-major) = op(B)^T op(A)^T.
    return RowMajorCall(N, M, K, sb.pointer, sb.ld, not tb, sa.pointer, sa.ld, not ta, sc.pointer, sc.ld)
