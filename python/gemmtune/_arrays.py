"""CUDA arrays as the runtime takes them: a pointer, rows and columns, strides, the device.

Any object that speaks ``__cuda_array_interface__`` (PyTorch, CuPy, Numba) or DLPack
(``__dlpack__``/``__dlpack_device__``) is read without copying and without importing its library.
A matrix stored by rows (column stride 1) or by columns (row stride 1) is used where it is, a
column-stored one as the transpose of a row-stored one; any other layout is refused. A 3-D array
(batch, rows, cols) is a batch of such matrices, its entries ``batch_stride`` elements apart.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional, Tuple

_KDL_CUDA = 2  # DLPack's device types: CUDA memory, and CUDA managed memory
_KDL_CUDA_MANAGED = 13
_KDL_FLOAT = 2  # DLPack's type code for IEEE floats


@dataclass(frozen=True)
class Matrix:
    """A 2-D float32 CUDA array: element (i, j) is at pointer + 4 * (i * row_stride + j * col_stride);
    or, batched (a 3-D array), element (e, i, j) at that + 4 * e * batch_stride."""

    pointer: int
    rows: int
    cols: int
    row_stride: int  # in elements
    col_stride: int
    device: Optional[int]  # the CUDA device, where the array says
    batched: bool = False  # a 3-D array, even of one entry
    batch: int = 1
    batch_stride: int = 0


@dataclass(frozen=True)
class Stored:
    """A matrix as a row-major call takes it: X (row-major, leading dimension ld), used as X or
    X^T (transposed) to give the matrix asked for."""

    pointer: int
    ld: int
    transposed: bool


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):  # the head of DLPack's DLManagedTensor
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _device_of(array: Any) -> Optional[int]:
    device = getattr(array, "device", None)
    for attribute in ("index", "id"):  # torch.device.index, cupy.cuda.Device.id
        value = getattr(device, attribute, None)
        if isinstance(value, int):
            return value
    return None


def _contiguous_strides(shape: Tuple[int, ...]) -> Tuple[int, ...]:
    strides = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def _check_dimensions(name: str, ndim: int, shape: Tuple[int, ...]) -> None:
    if ndim not in (2, 3):
        raise ValueError(f"{name}: a matrix has 2 dimensions (3 for a batch of matrices), this array has {ndim} "
                         f"(shape {shape})")


def _matrix_of(pointer: int, shape: Tuple[int, ...], strides: Tuple[int, ...], device: Optional[int]) -> Matrix:
    """The Matrix of a 2-D or 3-D array of `shape` with element `strides`."""
    if len(shape) == 2:
        return Matrix(pointer, shape[0], shape[1], strides[0], strides[1], device)
    return Matrix(pointer, shape[1], shape[2], strides[1], strides[2], device, True, shape[0], strides[0])


def _from_interface(name: str, array: Any, interface: dict) -> Matrix:
    shape = tuple(interface["shape"])
    _check_dimensions(name, len(shape), shape)
    if interface.get("typestr") != "<f4":
        raise TypeError(f"{name}: the array must hold float32, it holds {interface.get('typestr')!r}")
    pointer = int(interface["data"][0])
    strides = interface.get("strides")
    if strides is None:
        element_strides = _contiguous_strides(shape)
    else:
        if any(s % 4 for s in strides):
            raise ValueError(f"{name}: strides {tuple(strides)} (bytes) are not whole float32 elements")
        element_strides = tuple(s // 4 for s in strides)
    return _matrix_of(pointer, shape, element_strides, _device_of(array))


def _dlpack_capsule(array: Any, stream: Optional[int]) -> Any:
    """The array's capsule, its producer told the stream it will be used on (DLPack: the producer
    then orders its pending work before that stream's; 1 is the legacy default stream, as 0 may
    not be passed). Producers that take no stream are asked without one."""
    if stream is None:
        return array.__dlpack__()
    try:
        return array.__dlpack__(stream=stream if stream != 0 else 1)
    except TypeError:
        return array.__dlpack__()


def _from_dlpack(name: str, array: Any, stream: Optional[int]) -> Matrix:
    device_type, device_id = array.__dlpack_device__()
    if device_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        raise TypeError(f"{name}: the array is not in CUDA memory (DLPack device type {device_type})")
    capsule = _dlpack_capsule(array, stream)
    tensor = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim)) if 0 < tensor.ndim <= 8 else ()
    _check_dimensions(name, tensor.ndim, shape)
    dtype = tensor.dtype
    if (dtype.code, dtype.bits, dtype.lanes) != (_KDL_FLOAT, 32, 1):
        raise TypeError(f"{name}: the array must hold float32 (DLPack type {dtype.code}/{dtype.bits}/{dtype.lanes})")
    strides = tuple(tensor.strides[i] for i in range(len(shape))) if tensor.strides else _contiguous_strides(shape)
    pointer = (tensor.data or 0) + tensor.byte_offset
    # The capsule frees its DLManagedTensor when it goes; the memory stays the array's.
    return _matrix_of(pointer, shape, strides, device_id)


def matrix(name: str, array: Any, stream: Optional[int] = None) -> Matrix:
    """Reads `array` (named `name` in messages) as a 2-D float32 CUDA matrix, or a 3-D batch of them,
    or raises TypeError (not a CUDA array, not float32) or ValueError (not 2-D or 3-D). `stream`: the cudaStream_t the
    matrix will be used on, for DLPack producers (None: not to be used, as by plan())."""
    interface = getattr(array, "__cuda_array_interface__", None)
    if interface is not None:
        return _from_interface(name, array, interface)
    if hasattr(array, "__dlpack__") and hasattr(array, "__dlpack_device__"):
        return _from_dlpack(name, array, stream)
    raise TypeError(
        f"{name}: {type(array).__module__}.{type(array).__qualname__} is not a CUDA array "
        "(it has neither __cuda_array_interface__ nor __dlpack__)"
    )


def stored(name: str, m: Matrix) -> Stored:
    """How a row-major call reads `m`: by rows (column stride 1), or by columns as the transpose of
    a row-major matrix. Raises ValueError for any other layout (a slice with a step, a broadcast
    dimension, negative strides)."""
    if m.rows < 1 or m.cols < 1:
        raise ValueError(f"{name}: an empty matrix ({m.rows} x {m.cols}): every size must be at least 1")
    # A dimension of size 1 has no stride that matters: it reads as either layout.
    if m.col_stride == 1 or m.cols == 1:
        ld = m.row_stride if m.rows > 1 else m.cols
        if ld >= m.cols:
            return Stored(m.pointer, ld, False)
    if m.row_stride == 1 or m.rows == 1:
        ld = m.col_stride if m.cols > 1 else m.rows
        if ld >= m.rows:
            return Stored(m.pointer, ld, True)
    raise ValueError(
        f"{name}: strides ({m.row_stride}, {m.col_stride}) elements for a {m.rows} x {m.cols} matrix are not "
        "those of one stored by rows or by columns (one stride 1, the other at least the row or column length): "
        "copy it first, e.g. with .contiguous() or .copy()"
    )
