"""The Python package without a GPU: import, the errors of Runtime, how arrays are read (through
__cuda_array_interface__ and DLPack, with made-up pointers) and mapped to the runtime's row-major
call (checked against the products themselves on a simulated memory), and tune() on a dry run."""
import ctypes
import itertools
import os
import tempfile
import unittest

import gemmtune
from gemmtune import _arrays, _call


class FakeCudaArray:
    """What __cuda_array_interface__ says of an array, with nothing behind its pointer."""

    def __init__(self, shape, pointer=1 << 20, strides=None, typestr="<f4"):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (pointer, False),
                                         "strides": strides, "version": 3}


class FakeDlpackArray:
    """An array that speaks DLPack only: its capsule holds a real DLTensor."""

    def __init__(self, shape, strides, pointer=1 << 20, device_type=2, bits=32):
        self._shape = (ctypes.c_int64 * 2)(*shape)
        self._strides = (ctypes.c_int64 * 2)(*strides) if strides else None
        self._tensor = _arrays._DLTensor(pointer, _arrays._DLDevice(device_type, 0), 2, _arrays._DLDataType(2, bits, 1),
                                         self._shape, self._strides, 16)
        self._device_type = device_type

    def __dlpack_device__(self):
        return (self._device_type, 0)

    def __dlpack__(self, stream=None):
        self.asked_stream = stream
        new_capsule = ctypes.pythonapi.PyCapsule_New
        new_capsule.restype = ctypes.py_object
        new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new_capsule(ctypes.addressof(self._tensor), b"dltensor", None)


class ImportAndOpen(unittest.TestCase):
    def test_runtime_without_a_gpu_raises_the_library_error(self):
        with self.assertRaises(gemmtune.Error) as raised:
            gemmtune.Runtime("/nonexistent/tuned.db")
        # Without a GPU (CI) the device is what is missing; with one, the database.
        self.assertIn(raised.exception.status, ("no_device", "database_not_found"))
        self.assertIn("Runtime::open", raised.exception.message)
        self.assertIn(raised.exception.status, str(raised.exception))

    def test_runtime_on_an_export_without_a_gpu_raises_the_library_error(self):
        with self.assertRaises(gemmtune.Error) as raised:
            gemmtune.Runtime("/nonexistent/kernels", manifest=True)
        self.assertIn(raised.exception.status, ("no_device", "database_not_found"))
        self.assertIn("Runtime::open_manifest", raised.exception.message)


class ReadingArrays(unittest.TestCase):
    def test_contiguous_interface(self):
        m = _arrays.matrix("a", FakeCudaArray((3, 5), pointer=4096))
        self.assertEqual(m, _arrays.Matrix(4096, 3, 5, 5, 1, None))

    def test_byte_strides_become_elements(self):
        m = _arrays.matrix("a", FakeCudaArray((3, 5), strides=(4, 12)))
        self.assertEqual((m.row_stride, m.col_stride), (1, 3))

    def test_refusals_name_the_argument(self):
        with self.assertRaisesRegex(TypeError, "^b: the array must hold float32, it holds '<f8'"):
            _arrays.matrix("b", FakeCudaArray((3, 5), typestr="<f8"))
        with self.assertRaisesRegex(ValueError, "^a: a matrix has 2 dimensions \\(3 for a batch of matrices\\), "
                                                "this array has 4"):
            _arrays.matrix("a", FakeCudaArray((3, 5, 2, 2)))
        with self.assertRaisesRegex(TypeError, "^a: builtins.list is not a CUDA array"):
            _arrays.matrix("a", [[1.0]])
        with self.assertRaisesRegex(ValueError, "not whole float32 elements"):
            _arrays.matrix("a", FakeCudaArray((3, 5), strides=(20, 2)))

    def test_dlpack(self):
        m = _arrays.matrix("a", FakeDlpackArray((4, 6), (1, 4), pointer=8192))
        self.assertEqual(m, _arrays.Matrix(8192 + 16, 4, 6, 1, 4, 0))  # byte_offset added
        array = FakeDlpackArray((4, 6), None)
        m = _arrays.matrix("a", array)
        self.assertEqual((m.row_stride, m.col_stride), (6, 1))
        self.assertIsNone(array.asked_stream)  # not to be used: no stream to order work on
        _arrays.matrix("a", array, stream=0x1234)
        self.assertEqual(array.asked_stream, 0x1234)
        _arrays.matrix("a", array, stream=0)
        self.assertEqual(array.asked_stream, 1)  # DLPack's name for the legacy default stream
        with self.assertRaisesRegex(TypeError, "not in CUDA memory \\(DLPack device type 1\\)"):
            _arrays.matrix("a", FakeDlpackArray((4, 6), None, device_type=1))
        with self.assertRaisesRegex(TypeError, "must hold float32"):
            _arrays.matrix("a", FakeDlpackArray((4, 6), None, bits=64))

    def test_storage(self):
        stored = _arrays.stored
        M = _arrays.Matrix
        self.assertEqual(stored("a", M(0, 3, 5, 5, 1, None)), _arrays.Stored(0, 5, False))
        self.assertEqual(stored("a", M(0, 3, 5, 8, 1, None)), _arrays.Stored(0, 8, False))  # padded rows
        self.assertEqual(stored("a", M(0, 3, 5, 1, 3, None)), _arrays.Stored(0, 3, True))  # a transposed view
        self.assertEqual(stored("a", M(0, 1, 5, 7, 9, None)), _arrays.Stored(0, 9, True))  # one row, spread
        self.assertEqual(stored("a", M(0, 4, 1, 2, 9, None)), _arrays.Stored(0, 2, False))  # one column
        for strides in ((10, 2), (0, 1), (5, -1), (2, 1)):
            with self.assertRaisesRegex(ValueError, "not those of one stored by rows or by columns"):
                stored("out", M(0, 3, 5, *strides, None))
        with self.assertRaisesRegex(ValueError, "empty matrix"):
            stored("a", M(0, 0, 5, 5, 1, None))

    def test_shapes_must_agree(self):
        a, b = FakeCudaArray((3, 4)), FakeCudaArray((5, 6))
        with self.assertRaisesRegex(ValueError, "^a is 3 x 4 and b is 5 x 6: the inner sizes differ"):
            _call.read_operands(a, b, None, False, False)
        with self.assertRaisesRegex(ValueError, "^a.T is 4 x 3 and b is 5 x 6"):
            _call.read_operands(a, b, None, True, False)
        with self.assertRaisesRegex(ValueError, "^out is 3 x 3, a @ b.T is 3 x 6"):
            _call.read_operands(a, FakeCudaArray((6, 4)), FakeCudaArray((3, 3)), False, True)


class Batches(unittest.TestCase):
    def test_a_3d_array_is_a_batch_of_matrices(self):
        m = _arrays.matrix("a", FakeCudaArray((4, 3, 5), pointer=4096))
        self.assertEqual(m, _arrays.Matrix(4096, 3, 5, 5, 1, None, True, 4, 15))
        padded = _arrays.matrix("a", FakeCudaArray((4, 3, 5), strides=(4 * 20, 4, 4 * 3)))  # column-stored entries
        self.assertEqual((padded.batch, padded.batch_stride, padded.row_stride, padded.col_stride), (4, 20, 1, 3))
        self.assertFalse(_arrays.matrix("a", FakeCudaArray((3, 5))).batched)

    def test_a_batched_call_maps_its_strides_as_it_maps_its_operands(self):
        a, b = FakeCudaArray((6, 3, 4)), FakeCudaArray((6, 4, 5))
        out = FakeCudaArray((6, 3, 5), strides=(4 * 16, 4 * 5, 4))  # one float of padding between entries
        operands = _call.read_operands(a, b, out, False, False)
        self.assertEqual((operands.batch, operands.M, operands.N, operands.K), (6, 3, 5, 4))
        call = _call.row_major_call(operands, operands.c, False, False)
        self.assertEqual((call.batch, call.stride_a, call.stride_b, call.stride_c), (6, 12, 20, 16))
        # out stored by columns: C^T = B^T A^T, so A's and B's strides swap with the operands.
        out_t = FakeCudaArray((6, 3, 5), strides=(4 * 15, 4, 4 * 3))
        swapped = _call.row_major_call(_call.read_operands(a, b, out_t, False, False), _arrays.matrix("out", out_t),
                                       False, False)
        self.assertEqual((swapped.M, swapped.N, swapped.stride_a, swapped.stride_b, swapped.stride_c), (5, 3, 20, 12, 15))
        # One b for every entry (torch's expand): stride 0.
        shared_b = FakeCudaArray((6, 4, 5), strides=(0, 4 * 5, 4))
        self.assertEqual(_call.row_major_call(_call.read_operands(a, shared_b, out, False, False), operands.c,
                                              False, False).stride_b, 0)
        self.assertIsNone(_call.read_operands(FakeCudaArray((3, 4)), FakeCudaArray((4, 5)), None, False, False).batch)

    def test_batches_that_cannot_be_one_call_are_refused(self):
        with self.assertRaisesRegex(ValueError, "takes 3-D arrays \\(batch, rows, cols\\) for every operand: a 3-D, b 2-D"):
            _call.read_operands(FakeCudaArray((2, 3, 4)), FakeCudaArray((4, 5)), None, False, False)
        with self.assertRaisesRegex(ValueError, "^the batch counts differ: a 2, b 3"):
            _call.read_operands(FakeCudaArray((2, 3, 4)), FakeCudaArray((3, 4, 5)), None, False, False)
        with self.assertRaisesRegex(ValueError, "^b: batch stride -20 elements is negative"):
            _call.read_operands(FakeCudaArray((2, 3, 4)), FakeCudaArray((2, 4, 5), strides=(-80, 20, 4)), None,
                                False, False)
        with self.assertRaisesRegex(ValueError, "^out: batch stride 0: every entry would write the same matrix"):
            _call.read_operands(FakeCudaArray((2, 3, 4)), FakeCudaArray((2, 4, 5)),
                                FakeCudaArray((2, 3, 5), strides=(0, 20, 4)), False, False)


class Memory:
    """Simulated device memory: buffers at made-up addresses, read by (pointer, element offset)."""

    def __init__(self):
        self.buffers = {}
        self.next = 1 << 16

    def matrix(self, rows, cols, by_columns, padding, values):
        """A rows x cols matrix stored by rows or columns, each line `padding` elements longer."""
        ld = (rows if by_columns else cols) + padding
        lines, length = (cols, rows) if by_columns else (rows, cols)
        data = [float("nan")] * (ld * lines)
        for i, j in itertools.product(range(rows), range(cols)):
            data[(j * ld + i) if by_columns else (i * ld + j)] = values(i, j)
        pointer = self.next
        self.buffers[pointer] = data
        self.next += 4 * len(data) + 4096
        strides = (1, ld) if by_columns else (ld, 1)
        return _arrays.Matrix(pointer, rows, cols, strides[0], strides[1], None)

    def row_major_gemm(self, call):
        """C = op(A) op(B) exactly as the runtime's row-major call reads and writes memory."""
        A, B, C = self.buffers[call.A], self.buffers[call.B], self.buffers[call.C]
        for i, j in itertools.product(range(call.M), range(call.N)):
            total = 0.0
            for k in range(call.K):
                a = A[k * call.lda + i] if call.trans_a else A[i * call.lda + k]
                b = B[j * call.ldb + k] if call.trans_b else B[k * call.ldb + j]
                total += a * b
            C[i * call.ldc + j] = total


class RowMajorMapping(unittest.TestCase):
    def test_every_storage_and_transpose_gives_the_product(self):
        M, N, K = 3, 4, 5
        a_value = lambda i, k: 1 + i * 7 + k * 3  # noqa: E731  op(A)[i][k]
        b_value = lambda k, j: 2 - k * 5 + j * 11  # noqa: E731  op(B)[k][j]
        expected = [[sum(a_value(i, k) * b_value(k, j) for k in range(K)) for j in range(N)] for i in range(M)]
        for trans_a, trans_b, a_cols, b_cols, c_cols in itertools.product((False, True), repeat=5):
            with self.subTest(trans_a=trans_a, trans_b=trans_b, a_by_columns=a_cols, b_by_columns=b_cols,
                              c_by_columns=c_cols):
                memory = Memory()
                # The arrays as passed: a is op(A) or its transpose, b likewise.
                a = (memory.matrix(K, M, a_cols, 1, lambda r, c: a_value(c, r)) if trans_a
                     else memory.matrix(M, K, a_cols, 2, a_value))
                b = (memory.matrix(N, K, b_cols, 0, lambda r, c: b_value(c, r)) if trans_b
                     else memory.matrix(K, N, b_cols, 3, b_value))
                c = memory.matrix(M, N, c_cols, 1, lambda i, j: 0.0)
                operands = _call.Operands(a, b, c, M, N, K, None)
                call = _call.row_major_call(operands, c, trans_a, trans_b)
                memory.row_major_gemm(call)
                data = memory.buffers[c.pointer]
                got = [[data[i * c.row_stride + j * c.col_stride] for j in range(N)] for i in range(M)]
                self.assertEqual(got, expected)


class Tune(unittest.TestCase):
    def test_dry_run_returns_the_json_report(self):
        with tempfile.TemporaryDirectory() as folder:
            db = os.path.join(folder, "tuned.db")
            report = gemmtune.tune(["64 64 64", (32, 32, 32, "tn")], db=db, dry_run=True, arch="sm_90", families=["naive"])
            self.assertTrue(report["dry_run"])
            self.assertEqual([p["problem"] for p in report["problems"]], ["nn:64x64x64", "tn:32x32x32"])
            self.assertGreater(report["cubins_compiled"], 0)
            self.assertTrue(os.path.exists(db))

    def test_time_limit_goes_to_tune_which_refuses_it_on_a_dry_run(self):
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaises(gemmtune.TuneError) as raised:
                gemmtune.tune(["64 64 64"], db=os.path.join(folder, "t.db"), dry_run=True, arch="sm_90", time_limit="10m")
            self.assertIn("--time-limit", str(raised.exception))

    def test_bad_problem_is_a_tune_error_naming_the_line(self):
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaises(gemmtune.TuneError) as raised:
                gemmtune.tune(["64 64 64", "64 64"], db=os.path.join(folder, "t.db"), dry_run=True, arch="sm_90")
            self.assertEqual(raised.exception.exit_code, 2)
            self.assertIn("/dev/stdin:2: missing K", raised.exception.message)

    def test_a_tune_binary_that_is_not_a_program_falls_back_to_the_others(self):
        saved = os.environ.pop("GEMMTUNE_TUNE", None)
        try:
            self.assertTrue(os.access(gemmtune.find_tune("/nonexistent/tune"), os.X_OK))  # falls back
        finally:
            if saved is not None:
                os.environ["GEMMTUNE_TUNE"] = saved


if __name__ == "__main__":
    unittest.main()
