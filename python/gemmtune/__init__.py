"""gemmtune: autotuned CUDA SGEMM from Python.

    import gemmtune, torch
    rt = gemmtune.Runtime("tuned.db")
    c = rt.sgemm(a, b)                  # a, b: float32 CUDA tensors (PyTorch, CuPy, DLPack)
    print(rt.plan(a, b))                # which kernel serves the call, and why
    result = gemmtune.tune(["4096 4096 4096"], db="tuned.db", gpu="H200")

See docs/python.md.
"""
from ._errors import Error
from ._runtime import Runtime, Selection
from ._tune import TuneError, find_tune, tune

__all__ = ["Error", "Runtime", "Selection", "TuneError", "find_tune", "tune"]
