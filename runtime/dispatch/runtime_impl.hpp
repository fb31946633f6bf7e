// What a Runtime holds: the device, the tuned problems, the routes of the calls seen so far
// and the loaded kernels. Private to the library; tests include it to open a Runtime on a
// made-up device, which runs everything but loading and launching on a machine without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "cublas_pool.hpp"
#include "device.hpp"
#include "gemmtune/runtime.hpp"
#include "kernel_store.hpp"
#include "row_major_call.hpp"
#include "select_kernel.hpp"
#include "tuning_source.hpp"
#include "workspace_pool.hpp"

namespace gemmtune {

namespace dispatch {

// What a route depends on besides the tuning table: two calls with the same key get the same
// kernel. can_implement looks at the alignment and the output's size only, and cuBLAS takes
// 32-bit leading dimensions only.
struct RouteKey {
  Layout layout;
  int M;
  int N;
  int K;
  int batch;            // 1 for a plain call
  bool pointer_arrays;  // a batch given as arrays of pointers (the kernel reads them), not strides
  int align;  // call_alignment: 1, 2 or 4
  bool lds_fit_int;
  Precision precision;  // the class the call accepts
  bool operator==(const RouteKey&) const = default;
};

struct RouteKeyHash {
  std::size_t operator()(const RouteKey& key) const noexcept;
};

// How calls of one key are served: the selection, and the kernel (null: cuBLAS) with its launch
// on this key's problem (grid, block, shared memory, workspace), worked out once.
struct Route {
  Selection selection;
  const LoadedKernel* kernel;
  LaunchPlan plan;
};

// Runtime::open once the device is known. Throws DispatchError (see load_tuning).
Runtime open_on_device(const DeviceInfo& device, const std::string& db_path, const RuntimeOptions& options);
// Runtime::open_manifest once the device is known. Throws DispatchError (see load_manifest_tuning).
Runtime open_manifest_on_device(const DeviceInfo& device, const std::string& dir, const RuntimeOptions& options);

}  // namespace dispatch

class Runtime::Impl {
 public:
  Impl(const DeviceInfo& device, dispatch::TuningSource tuning, const RuntimeOptions& options);

  // The public methods' work; they throw, and Runtime turns exceptions into a Status.
  void sgemm(const SgemmCall& call, cudaStream_t stream) const;
  Selection plan(const SgemmCall& call) const;
  std::optional<Selection> last_selection() const;
  RuntimeStats stats() const;
  std::string describe() const;

 private:
  // Checks the call and maps it to the row-major problem; throws InvalidValue.
  static dispatch::RowMajorCall checked(const SgemmCall& call);
  // The class the call accepts: its own, else the Runtime's.
  Precision precision_of(const SgemmCall& call) const { return call.precision.value_or(options_.precision); }
  dispatch::Choice choose(const dispatch::RowMajorCall& call, Precision precision) const;
  // The route of the call's key, made (selected and loaded) on first sight.
  const dispatch::Route& route(const dispatch::RowMajorCall& call, Precision precision) const;

  cache::GpuKey gpu_;
  DeviceTraits device_;
  RuntimeOptions options_;
  dispatch::TuningSource tuning_;
  std::uint64_t serial_;  // tells this Runtime's routes from others' in a thread's last route

  // The hot path reads routes_ under a shared lock. A new route is made under miss_mutex_, one
  // at a time (loading is rare and slow), and inserted under a unique lock; routes are never
  // erased, and unordered_map keeps its elements in place, so a Route reference stays valid.
  mutable std::shared_mutex routes_mutex_;
  mutable std::unordered_map<dispatch::RouteKey, dispatch::Route, dispatch::RouteKeyHash> routes_;
  mutable std::mutex miss_mutex_;
  mutable dispatch::KernelStore kernels_;  // guarded by miss_mutex_
  mutable dispatch::CublasPool cublas_;
  mutable dispatch::WorkspacePool workspaces_;
};

}  // namespace gemmtune
