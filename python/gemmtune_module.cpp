// gemmtune._gemmtune: the C++ Runtime for Python, on plain numbers. The package (python/gemmtune/)
// turns arrays into pointers, leading dimensions and a stream (_arrays.py) and statuses into
// exceptions; this file only forwards calls, releasing the GIL while the runtime works (a new
// shape may load or compile a kernel).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "gemmtune/runtime.hpp"

namespace py = pybind11;

namespace {

// What a call returns to Python: ("", "") on success, else the status's name ("invalid_value")
// and gemmtune::last_error(); the package raises gemmtune.Error from it.
using Outcome = std::pair<std::string, std::string>;

Outcome outcome(gemmtune::Status status) {
  if (status == gemmtune::Status::Success) return {};
  return {gemmtune::to_string(status), gemmtune::last_error()};
}

// A Runtime for Python: open once, then calls that return an Outcome.
class PyRuntime {
 public:
  // A database, or with `manifest` an ahead-of-time export's folder.
  Outcome open(const std::string& path, int device, bool allow_untuned, bool prefer_cublas, bool manifest) {
    gemmtune::RuntimeOptions options;
    options.device = device;
    options.allow_untuned = allow_untuned;
    options.prefer_cublas = prefer_cublas;
    gemmtune::Status status;
    {
      py::gil_scoped_release unlocked;
      status = manifest ? gemmtune::Runtime::open_manifest(runtime_, path, options)
                        : gemmtune::Runtime::open(runtime_, path, options);
    }
    return outcome(status);
  }

  // batch 1: sgemm; more: sgemm_strided_batched's strides (elements).
  Outcome sgemm(bool row_major, bool trans_a, bool trans_b, int M, int N, int K, float alpha,
                                    std::uintptr_t A, std::int64_t lda, std::uintptr_t B, std::int64_t ldb, float beta,
                                    std::uintptr_t C, std::int64_t ldc, std::uintptr_t stream, int batch,
                                    std::int64_t stride_a, std::int64_t stride_b, std::int64_t stride_c) const {
    const gemmtune::SgemmCall call = make_call(row_major, trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                               {batch, stride_a, stride_b, stride_c});
    gemmtune::Status status;
    {
      py::gil_scoped_release unlocked;
      status = runtime_.sgemm(call, reinterpret_cast<cudaStream_t>(stream));
    }
    return outcome(status);
  }

  // (status name, message, selection as a dict or None).
  py::tuple plan(bool row_major, bool trans_a, bool trans_b, int M, int N, int K, std::uintptr_t A, std::int64_t lda,
                 std::uintptr_t B, std::int64_t ldb, std::uintptr_t C, std::int64_t ldc, int batch,
                 std::int64_t stride_a, std::int64_t stride_b, std::int64_t stride_c) const {
    const gemmtune::SgemmCall call = make_call(row_major, trans_a, trans_b, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc,
                                               {batch, stride_a, stride_b, stride_c});
    gemmtune::Selection selection;
    const gemmtune::Status status = runtime_.plan(call, selection);
    const auto [name, message] = outcome(status);
    return py::make_tuple(name, message, status == gemmtune::Status::Success ? py::object(as_dict(selection)) : py::object(py::none()));
  }

  std::string describe() const { return runtime_.describe(); }

  py::dict stats() const {
    const gemmtune::RuntimeStats stats = runtime_.stats();
    py::dict result;
    result["kernels_from_database"] = stats.kernels_from_database;
    result["kernels_compiled"] = stats.kernels_compiled;
    result["routes"] = stats.routes;
    return result;
  }

 private:
  struct Batch {
    int count;
    std::int64_t stride_a, stride_b, stride_c;
  };

  static gemmtune::SgemmCall make_call(bool row_major, bool trans_a, bool trans_b, int M, int N, int K, float alpha,
                                       std::uintptr_t A, std::int64_t lda, std::uintptr_t B, std::int64_t ldb,
                                       float beta, std::uintptr_t C, std::int64_t ldc, const Batch& batch) {
    auto transpose = [](bool yes) { return yes ? gemmtune::Transpose::Yes : gemmtune::Transpose::No; };
    gemmtune::SgemmCall call{row_major ? gemmtune::Order::RowMajor : gemmtune::Order::ColMajor,
                             transpose(trans_a),
                             transpose(trans_b),
                             M, N, K, alpha,
                             reinterpret_cast<const float*>(A), lda,
                             reinterpret_cast<const float*>(B), ldb,
                             beta,
                             reinterpret_cast<float*>(C), ldc};
    call.batch = batch.count;
    call.stride_a = batch.stride_a;
    call.stride_b = batch.stride_b;
    call.stride_c = batch.stride_c;
    return call;
  }

  static py::dict as_dict(const gemmtune::Selection& selection) {
    py::dict result;
    result["backend"] = selection.backend == gemmtune::Backend::Kernel ? "kernel" : "cublas";
    result["kernel"] = selection.kernel;
    result["reason"] = gemmtune::to_string(selection.reason);
    result["problem"] = gemmtune::to_string(selection.problem);
    result["call_align"] = selection.call_align;
    result["tuned_problem"] = selection.tuned_problem ? py::object(py::str(gemmtune::to_string(*selection.tuned_problem)))
                                                      : py::object(py::none());
    result["distance"] = selection.distance;
    result["note"] = selection.note;
    result["description"] = gemmtune::describe(selection);
    return result;
  }

  gemmtune::Runtime runtime_;
};

}  // namespace

PYBIND11_MODULE(_gemmtune, module) {
  module.doc() = "gemmtune's dispatch runtime on plain numbers; use the gemmtune package instead";
  py::class_<PyRuntime>(module, "Runtime")
      .def(py::init<>())
      .def("open", &PyRuntime::open)
      .def("sgemm", &PyRuntime::sgemm)
      .def("plan", &PyRuntime::plan)
      .def("describe", &PyRuntime::describe)
      .def("stats", &PyRuntime::stats);
}
