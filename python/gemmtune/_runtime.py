"""gemmtune.Runtime: the tuned SGEMM on CUDA arrays."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional

from . import _arrays, _call
from ._errors import Error, raise_for

try:
    from . import _gemmtune
except ImportError as error:  # the extension was not built (or not for this Python)
    _gemmtune = None
    _import_error = error

# plan() needs C's alignment only; a freshly allocated output is aligned at least this much.
_ALLOCATION_ALIGNMENT = 256


@dataclass(frozen=True)
class Selection:
    """Which kernel serves a call and why (docs/api.md, "Which kernel, and why")."""

    backend: str  # "kernel" or "cublas"
    kernel: str
    reason: str  # "measured", "nearest" or "default"
    problem: str  # the row-major problem the kernels see, e.g. "nn:512x256x256"
    call_align: int
    tuned_problem: Optional[str]
    distance: float
    note: str
    description: str

    def __str__(self) -> str:
        return self.description


def _stream_pointer(stream: Any, array: Any) -> int:
    """The cudaStream_t to launch on: `stream` (an int, a torch.cuda.Stream or a cupy Stream), else
    the current stream of the array's library (PyTorch's or CuPy's), else the legacy default (0)."""
    if stream is not None:
        for attribute in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
            if hasattr(stream, attribute):
                return int(getattr(stream, attribute))
        return int(stream)
    library = type(array).__module__.split(".")[0]
    if library == "torch":
        import torch

        if array.device.type != "cuda":
            return 0  # not a CUDA array: reading the operands refuses it, naming it
        return int(torch.cuda.current_stream(array.device).cuda_stream)
    if library == "cupy":
        import cupy

        return int(cupy.cuda.get_current_stream().ptr)
    return 0


def _allocate_like(array: Any, rows: int, cols: int, batch: Optional[int] = None) -> Any:
    """An uninitialized rows x cols float32 array (batch x rows x cols for a batch) of the same library
    and device as `array`."""
    shape = (rows, cols) if batch is None else (batch, rows, cols)
    if hasattr(array, "new_empty"):  # torch.Tensor
        return array.new_empty(shape)
    library = type(array).__module__.split(".")[0]
    if library == "cupy":
        import cupy

        with array.device:
            return cupy.empty(shape, dtype=cupy.float32)
    raise TypeError(f"out=None: cannot allocate the result for a {type(array).__qualname__}; pass out=")


class Runtime:
    """An open tuning database on one GPU: ``Runtime("tuned.db")``. Raises gemmtune.Error
    (``status`` "no_device", "database_not_found", "database_error", "untuned_gpu") when it
    cannot be opened. Safe to share between threads."""

    def __init__(self, path: os.PathLike | str = "tuned.db", *, device: int = 0, allow_untuned: bool = False,
                 prefer_cublas: bool = False, manifest: bool = False) -> None:
        """`path` is a tuning database, or with manifest=True the folder of an ahead-of-time export
        (``tunedb export-kernels --out DIR``), served without SQLite or NVRTC."""
        if _gemmtune is None:
            raise ImportError(f"gemmtune's extension module is not built for this Python: {_import_error}")
        self.device = device
        self._runtime = _gemmtune.Runtime()
        raise_for(*self._runtime.open(os.fspath(path), device, allow_untuned, prefer_cublas, manifest))

    def sgemm(self, a: Any, b: Any, out: Any = None, alpha: float = 1.0, beta: float = 0.0, trans_a: bool = False,
              trans_b: bool = False, *, stream: Any = None) -> Any:
        """out = alpha * op(a) @ op(b) + beta * out, op(x) = x.T where trans_x, on the current stream of
        the arrays' library (or `stream`), asynchronously; returns out (allocated like `a` when None).
        The arrays are 2-D float32 CUDA arrays stored by rows or by columns, or all three 3-D
        (batch, rows, cols): a strided batched product, entry by entry (Runtime::sgemm_strided_batched),
        each entry stored by rows or columns, the entries evenly spaced (a and b may repeat one
        matrix, as expand() gives); out, when None, is then allocated (batch, M, N)."""
        launch_stream = _stream_pointer(stream, a)
        operands = _call.read_operands(a, b, out, trans_a, trans_b, launch_stream)
        self._check_device(operands)
        if out is None:
            if beta != 0:
                raise ValueError("beta != 0 needs out= (the C that beta scales)")
            out = _allocate_like(a, operands.M, operands.N, operands.batch)
        c = operands.c or _arrays.matrix("out", out, launch_stream)
        call = _call.row_major_call(operands, c, trans_a, trans_b)
        raise_for(*self._runtime.sgemm(True, call.trans_a, call.trans_b, call.M, call.N, call.K, float(alpha), call.A,
                                       call.lda, call.B, call.ldb, float(beta), call.C, call.ldc, launch_stream,
                                       call.batch, call.stride_a, call.stride_b, call.stride_c))
        return out

    def plan(self, a: Any, b: Any, out: Any = None, trans_a: bool = False, trans_b: bool = False) -> Selection:
        """The Selection sgemm(a, b, out, ...) would run, without launching anything."""
        operands = _call.read_operands(a, b, out, trans_a, trans_b)
        self._check_device(operands)
        c = operands.c or _arrays.Matrix(_ALLOCATION_ALIGNMENT, operands.M, operands.N, operands.N, 1, None,
                                         operands.batch is not None, operands.batch or 1, operands.M * operands.N)
        call = _call.row_major_call(operands, c, trans_a, trans_b)
        status, message, selection = self._runtime.plan(True, call.trans_a, call.trans_b, call.M, call.N, call.K,
                                                        call.A, call.lda, call.B, call.ldb, call.C, call.ldc,
                                                        call.batch, call.stride_a, call.stride_b, call.stride_c)
        raise_for(status, message)
        return Selection(**selection)

    def describe(self) -> str:
        """'NVIDIA H200 (sm_90, 132 SMs), 24 tuned problems from tuned.db'."""
        return self._runtime.describe()

    def stats(self) -> dict:
        """kernels_from_database, kernels_compiled, routes."""
        return self._runtime.stats()

    def _check_device(self, operands: _call.Operands) -> None:
        if operands.device is not None and operands.device != self.device:
            raise ValueError(f"the arrays are on CUDA device {operands.device}, this Runtime serves device {self.device}")

    def __repr__(self) -> str:
        return f"gemmtune.Runtime({self.describe()!r})"


__all__ = ["Runtime", "Selection", "Error"]
