"""[gpu] The Python package on PyTorch tensors (and CuPy arrays where CuPy is installed): results
against torch.matmul in FP64, every transpose, padded and transposed views, column-stored
outputs, alpha and beta, refused layouts, DLPack, the caller's current stream respected, and 3-D
(batched) tensors against torch.bmm in FP64.
Prints "SKIPPED: ..." and exits 0 without torch or a GPU.

GEMMTUNE_TEST_DB=tuned.db runs it on a tuned database (default: no database, default kernels)."""
import os
import sys
import unittest

try:
    import torch
except ImportError:
    torch = None

import gemmtune

if torch is None or not torch.cuda.is_available():
    print("SKIPPED: " + ("torch is not installed" if torch is None else "torch sees no CUDA device"))
    sys.exit(0)

DEVICE = torch.device("cuda", 0)


def open_runtime():
    path = os.environ.get("GEMMTUNE_TEST_DB", "")
    return gemmtune.Runtime(path, allow_untuned=not path)


def reference(a, b, trans_a, trans_b, alpha=1.0, beta=0.0, c=None):
    a64 = a.double().T if trans_a else a.double()
    b64 = b.double().T if trans_b else b.double()
    result = alpha * (a64 @ b64)
    return result + beta * c.double() if c is not None else result


def relative_error(got, expected):
    return ((got.double() - expected).abs().max() / expected.abs().max().clamp_min(1e-30)).item()


class TorchResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = open_runtime()
        torch.manual_seed(0)

    def check(self, got, expected, K):
        # FP32 products summed over K: a few units in the last place times sqrt(K), with margin.
        self.assertLess(relative_error(got, expected), 2e-6 * max(K, 16) ** 0.5 * 4)

    def test_every_transpose_against_fp64(self):
        for M, N, K in ((1, 1, 1), (100, 70, 50), (257, 129, 300), (16, 1024, 64)):
            for trans_a in (False, True):
                for trans_b in (False, True):
                    with self.subTest(M=M, N=N, K=K, trans_a=trans_a, trans_b=trans_b):
                        a = torch.randn((K, M) if trans_a else (M, K), device=DEVICE)
                        b = torch.randn((N, K) if trans_b else (K, N), device=DEVICE)
                        c = self.rt.sgemm(a, b, trans_a=trans_a, trans_b=trans_b)
                        torch.cuda.synchronize()
                        self.assertEqual(tuple(c.shape), (M, N))
                        self.assertEqual(c.dtype, torch.float32)
                        self.check(c, reference(a, b, trans_a, trans_b), K)

    def test_batches_against_bmm_in_fp64(self):
        for batch, M, N, K in ((3, 33, 65, 17), (8, 128, 128, 128), (2, 1, 7, 300)):
            for trans_a in (False, True):
                for trans_b in (False, True):
                    with self.subTest(batch=batch, M=M, N=N, K=K, trans_a=trans_a, trans_b=trans_b):
                        a = torch.randn((batch, K, M) if trans_a else (batch, M, K), device=DEVICE)
                        b = torch.randn((batch, N, K) if trans_b else (batch, K, N), device=DEVICE)
                        c = self.rt.sgemm(a, b, trans_a=trans_a, trans_b=trans_b)
                        torch.cuda.synchronize()
                        self.assertEqual(tuple(c.shape), (batch, M, N))
                        a64 = a.double().transpose(1, 2) if trans_a else a.double()
                        b64 = b.double().transpose(1, 2) if trans_b else b.double()
                        self.check(c, torch.bmm(a64, b64), K)

    def test_batched_views_shared_operands_and_refusals(self):
        a = torch.randn(4, 40, 24, device=DEVICE)
        padded_b = torch.randn(4, 24, 60, device=DEVICE)[:, :, :50]  # padded rows
        column_out = torch.empty(4, 50, 40, device=DEVICE).transpose(1, 2)  # entries stored by columns
        before = torch.randn(4, 40, 50, device=DEVICE)
        column_out.copy_(before)
        self.rt.sgemm(a, padded_b, out=column_out, alpha=0.5, beta=-1.0)
        torch.cuda.synchronize()
        self.check(column_out, 0.5 * torch.bmm(a.double(), padded_b.double()) - before.double(), 24)
        shared_b = torch.randn(24, 50, device=DEVICE).expand(4, 24, 50)  # one b for every entry: stride 0
        c = self.rt.sgemm(a, shared_b)
        torch.cuda.synchronize()
        self.check(c, torch.bmm(a.double(), shared_b.double()), 24)
        with self.assertRaises(gemmtune.Error) as raised:  # entries of out that overlap
            self.rt.sgemm(a, shared_b, out=torch.empty(3000, device=DEVICE).as_strided((4, 40, 50), (10, 50, 1)))
        self.assertIn("stride_c", raised.exception.message)
        with self.assertRaisesRegex(ValueError, "for every operand"):
            self.rt.sgemm(a, shared_b[0])

    def test_alpha_beta_and_out(self):
        a = torch.randn(64, 48, device=DEVICE)
        b = torch.randn(48, 80, device=DEVICE)
        out = torch.randn(64, 80, device=DEVICE)
        before = out.clone()
        returned = self.rt.sgemm(a, b, out=out, alpha=0.5, beta=-2.0)
        torch.cuda.synchronize()
        self.assertIs(returned, out)
        self.check(out, reference(a, b, False, False, 0.5, -2.0, before), 48)

    def test_views_padded_transposed_and_column_stored_out(self):
        big_a = torch.randn(90, 130, device=DEVICE)
        a = big_a[5:75, 3:103]  # 70 x 100, rows 130 apart: a padded view
        b = torch.randn(60, 100, device=DEVICE).T  # 100 x 60 stored by columns
        out = torch.empty(60, 70, device=DEVICE).T  # 70 x 60 stored by columns
        self.rt.sgemm(a, b, out=out)
        torch.cuda.synchronize()
        self.check(out, reference(a, b, False, False), 100)
        selection = self.rt.plan(a, b, out=out)
        # C^T = B^T A^T, as the kernels see it: B^T is b's storage (60 x 100 by rows, so not
        # transposed), A^T is a's storage read transposed (70 x 100 by rows): nt.
        self.assertEqual(selection.problem, "nt:60x70x100")

    def test_layouts_that_cannot_be_read_are_refused(self):
        a = torch.randn(64, 128, device=DEVICE)[:, ::2]  # columns 2 apart
        b = torch.randn(64, 32, device=DEVICE)
        with self.assertRaisesRegex(ValueError, "^a: strides \\(128, 2\\) elements"):
            self.rt.sgemm(a, b)
        with self.assertRaisesRegex(TypeError, "must hold float32"):
            self.rt.sgemm(b.double(), b.T)
        with self.assertRaisesRegex(TypeError, "not in CUDA memory|not a CUDA array"):
            self.rt.sgemm(b.cpu(), b.T.cpu())
        with self.assertRaisesRegex(ValueError, "beta != 0 needs out="):
            self.rt.sgemm(b, b.T, beta=1.0)

    def test_plan(self):
        a = torch.randn(100, 50, device=DEVICE)
        b = torch.randn(50, 70, device=DEVICE)
        selection = self.rt.plan(a, b)
        self.assertEqual(selection.problem, "nn:100x70x50")
        self.assertTrue(selection.kernel.startswith("gemmtune_sgemm_") or selection.kernel == "cublas")
        self.assertIn(selection.reason, ("measured", "nearest", "default"))
        self.assertIn("nn:100x70x50", str(selection))

    def test_dlpack_only_arrays(self):
        class DlpackOnly:
            def __init__(self, tensor):
                self.tensor = tensor

            def __dlpack__(self, stream=None):
                return self.tensor.__dlpack__()

            def __dlpack_device__(self):
                return self.tensor.__dlpack_device__()

        a = torch.randn(40, 30, device=DEVICE)
        b = torch.randn(30, 20, device=DEVICE)
        out = torch.empty(40, 20, device=DEVICE)
        self.rt.sgemm(DlpackOnly(a), DlpackOnly(b), out=DlpackOnly(out))
        torch.cuda.synchronize()
        self.check(out, reference(a, b, False, False), 30)

    def test_the_current_stream_is_respected(self):
        """A side stream (non-blocking, as torch makes them) first sleeps, then writes A: a launch on
        any other stream would read A's old zeros."""
        M = N = K = 256
        source = torch.randn(M, K, device=DEVICE)
        b = torch.randn(K, N, device=DEVICE)
        for explicit in (False, True):
            with self.subTest(explicit_stream=explicit):
                a = torch.zeros(M, K, device=DEVICE)
                out = torch.zeros(M, N, device=DEVICE)
                torch.cuda.synchronize()
                side = torch.cuda.Stream()
                with torch.cuda.stream(side):
                    torch.cuda._sleep(200_000_000)  # about 0.1 s of GPU time
                    a.copy_(source)
                    if explicit:
                        self.rt.sgemm(a, b, out=out, stream=side)
                if not explicit:
                    with torch.cuda.stream(side):
                        self.rt.sgemm(a, b, out=out)
                side.synchronize()
                self.check(out, reference(source, b, False, False), K)


try:
    import cupy
except ImportError:
    cupy = None


@unittest.skipIf(cupy is None, "cupy is not installed")
class CupyResults(unittest.TestCase):
    def test_cupy_arrays_on_the_current_stream(self):
        rt = open_runtime()
        a = cupy.random.standard_normal((70, 40), dtype=cupy.float32)
        b = cupy.random.standard_normal((40, 90), dtype=cupy.float32)
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            c = rt.sgemm(a, b.T.copy().T)  # b stored by columns
        stream.synchronize()
        self.assertIsInstance(c, cupy.ndarray)
        expected = a.astype(cupy.float64) @ b.astype(cupy.float64)
        error = float(abs(c.astype(cupy.float64) - expected).max() / abs(expected).max())
        self.assertLess(error, 1e-5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
