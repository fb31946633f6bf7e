#include "runtime_impl.hpp"

#include <atomic>
#include <climits>

#include "dispatch_error.hpp"
#include "gemm_call.hpp"

namespace gemmtune {
namespace dispatch {
namespace {

// The route of this thread's last sgemm, and the Runtime it belongs to (by serial, not by
// address: a new Runtime may be allocated where a destroyed one was).
struct LastRoute {
  std::uint64_t runtime_serial = 0;
  const Route* route = nullptr;
};
thread_local LastRoute t_last_route;

std::atomic<std::uint64_t> g_next_serial{1};

// cuBLAS takes 32-bit leading dimensions (and 64-bit strides).
bool lds_fit_int(const GemmParams& p) { return p.lda <= INT_MAX && p.ldb <= INT_MAX && p.ldc <= INT_MAX; }

RouteKey key_of(const RowMajorCall& call, Precision precision) {
  const GemmParams& p = call.params;
  return {call.layout, p.M, p.N, p.K, p.batch, p.A_array != nullptr, call_alignment(p), lds_fit_int(p), precision};
}

}  // namespace

std::size_t RouteKeyHash::operator()(const RouteKey& key) const noexcept {
  // M, N and K are positive ints: pack them with the small fields, then mix (splitmix64's
  // finalizer) so that nearby shapes spread over the buckets.
  std::uint64_t h = static_cast<std::uint64_t>(key.M) << 32 ^ static_cast<std::uint64_t>(key.N);
  h = h * 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(key.K) << 10 |
                                    static_cast<std::uint64_t>(key.precision) << 8 |
                                    static_cast<std::uint64_t>(key.layout) << 4 |
                                    static_cast<std::uint64_t>(key.align) << 1 | (key.lds_fit_int ? 1u : 0u)) ^
      static_cast<std::uint64_t>(key.batch) << 40 ^ (key.pointer_arrays ? 1ull << 63 : 0u);
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  h ^= h >> 31;
  return static_cast<std::size_t>(h);
}

Runtime open_on_device(const DeviceInfo& device, const std::string& db_path, const RuntimeOptions& options) {
  if (!is_precision(options.precision)) {
    throw DispatchError(Status::InvalidValue, "RuntimeOptions::precision " +
                                                  std::to_string(static_cast<int>(options.precision)) +
                                                  " is none of Strict, Fp32, Tf32");
  }
  const cache::GpuKey gpu{device.name, device.cc_major, device.cc_minor, device.sm_count};
  TuningSource tuning = load_tuning(db_path, gpu, options.allow_untuned);
  return Runtime(std::make_unique<Runtime::Impl>(device, std::move(tuning), options));
}

Runtime open_manifest_on_device(const DeviceInfo& device, const std::string& dir, const RuntimeOptions& options) {
  const cache::GpuKey gpu{device.name, device.cc_major, device.cc_minor, device.sm_count};
  TuningSource tuning = load_manifest_tuning(dir, gpu, device.arch(), options.allow_untuned);
  return Runtime(std::make_unique<Runtime::Impl>(device, std::move(tuning), options));
}

}  // namespace dispatch

Runtime::Impl::Impl(const DeviceInfo& device, dispatch::TuningSource tuning, const RuntimeOptions& options)
    : gpu_{device.name, device.cc_major, device.cc_minor, device.sm_count},
      device_(device.traits()),
      options_(options),
      tuning_(std::move(tuning)),
      serial_(dispatch::g_next_serial.fetch_add(1)),
      kernels_(dispatch::cubin_lookup(tuning_, device.arch()), device.arch(), dispatch::compile_refusal(tuning_),
               dispatch::cubin_check(tuning_, device.arch())) {}

dispatch::RowMajorCall Runtime::Impl::checked(const SgemmCall& call) {
  if (std::optional<std::string> why = dispatch::invalid_argument(call)) {
    throw dispatch::DispatchError(Status::InvalidValue, *why);
  }
  return dispatch::to_row_major(call);
}

dispatch::Choice Runtime::Impl::choose(const dispatch::RowMajorCall& call, Precision precision) const {
  // cublas_sgemm takes 32-bit leading dimensions.
  const bool cublas_allowed = options_.prefer_cublas && dispatch::lds_fit_int(call.params);
  // Called with miss_mutex_ held (route, plan), which guards kernels_.
  return dispatch::select_kernel(tuning_.table, call, device_,
                                 {cublas_allowed, precision,
                                  [this](const KernelConfig& c) { return kernels_.has_cubin(c); }});
}

void Runtime::Impl::sgemm(const SgemmCall& call, cudaStream_t stream) const {
  const dispatch::RowMajorCall row_major = checked(call);
  const dispatch::Route& chosen = route(row_major, precision_of(call));
  dispatch::t_last_route = {serial_, &chosen};
  if (chosen.kernel == nullptr) {
    cublas_.sgemm(row_major.layout, row_major.params, stream, chosen.selection.precision);
  } else if (chosen.plan.workspace_floats == 0) {
    chosen.kernel->launch(chosen.plan, row_major.params, stream);
  } else {
    GemmParams params = row_major.params;
    params.workspace = workspaces_.get(stream, chosen.plan.workspace_floats, chosen.plan.counter_floats);
    params.workspace_floats = static_cast<long long>(chosen.plan.workspace_floats);
    chosen.kernel->launch(chosen.plan, params, stream);
  }
}

const dispatch::Route& Runtime::Impl::route(const dispatch::RowMajorCall& call, Precision precision) const {
  const dispatch::RouteKey key = dispatch::key_of(call, precision);
  {
    const std::shared_lock lock(routes_mutex_);
    if (auto found = routes_.find(key); found != routes_.end()) return found->second;
  }
  const std::lock_guard miss(miss_mutex_);
  // Only holders of miss_mutex_ insert, so this second look needs no lock of routes_mutex_.
  if (auto found = routes_.find(key); found != routes_.end()) return found->second;
  dispatch::Choice choice = choose(call, precision);
  const LoadedKernel* kernel = nullptr;
  LaunchPlan plan{};
  if (choice.config) {
    kernel = &kernels_.get(*choice.config);
    plan = kernel->plan(problem_of(call.params, key.layout));
  }
  const std::unique_lock lock(routes_mutex_);
  return routes_.emplace(key, dispatch::Route{std::move(choice.selection), kernel, plan}).first->second;
}

Selection Runtime::Impl::plan(const SgemmCall& call) const {
  const dispatch::RowMajorCall row_major = checked(call);
  const std::lock_guard miss(miss_mutex_);  // choose() reads the kernel store
  return choose(row_major, precision_of(call)).selection;
}

std::optional<Selection> Runtime::Impl::last_selection() const {
  const dispatch::LastRoute last = dispatch::t_last_route;
  if (last.runtime_serial != serial_ || last.route == nullptr) return std::nullopt;
  return last.route->selection;
}

RuntimeStats Runtime::Impl::stats() const {
  const std::lock_guard miss(miss_mutex_);
  return {kernels_.from_database(), kernels_.compiled(), routes_.size()};
}

std::string Runtime::Impl::describe() const {
  return dispatch::describe_gpu(gpu_) + ", " + tuning_.description;
}

}  // namespace gemmtune
