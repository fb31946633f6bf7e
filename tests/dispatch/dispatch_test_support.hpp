// Helpers of the dispatch tests: a tuning database filled by hand (GPUs, problems, winners),
// made-up GPU keys and devices, and calls on made-up pointers of a chosen alignment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cache/cache_test_support.hpp"  // TempDir
#include "device.hpp"
#include "family_registry.hpp"
#include "gemmtune/types.hpp"
#include "kernel_config.hpp"
#include "kernel_name.hpp"
#include "tuning_db.hpp"

namespace gemmtune::dispatch::test {

inline cache::GpuKey fake_gpu() { return {"Fake GPU 9000", 9, 0, 7}; }
inline cache::GpuKey other_gpu() { return {"Other GPU", 8, 6, 10}; }

// A DeviceInfo that matches `key`, for opening a Runtime where there is no GPU.
inline DeviceInfo fake_device(const cache::GpuKey& key = fake_gpu()) {
  DeviceInfo device;
  device.name = key.name;
  device.cc_major = key.cc_major;
  device.cc_minor = key.cc_minor;
  device.sm_count = key.sm_count;
  return device;
}

// The params_json the tuner stores: the template parameters plus layout and align.
inline std::string params_json(const KernelConfig& config) {
  std::string json = "{";
  for (const auto& [name, value] : config.params) json += "\"" + name + "\":" + std::to_string(value) + ",";
  return json + "\"layout\":\"" + std::string(layout_name(config.layout)) + "\",\"align\":" +
         std::to_string(config.align) + "}";
}

// A family's default configuration with some parameters changed.
inline KernelConfig config_of(const std::string& family, Layout layout, int align,
                              std::initializer_list<std::pair<const char*, int>> changes = {}) {
  KernelConfig config = find_family(family).default_config(layout, align);
  for (const auto& [param, value] : changes) config.set(param, value);
  return config;
}

// The class of a family this build knows, as stored; "strict" for one it does not.
inline std::string stored_class(const std::string& family) {
  try {
    return std::string(precision_name(find_family(family).precision()));
  } catch (const std::invalid_argument&) {
    return "strict";
  }
}

// Records `kernel` as the winner of (gpu, problem) for the class `tuned_for` in `median_ms`, with
// cuBLAS's time beside it.
inline void add_winner(cache::Database& db, const cache::GpuKey& gpu, const cache::Problem& problem,
                       const std::string& kernel, const std::string& family, const std::string& json,
                       double median_ms = 1.0, std::optional<double> cublas_ms = 2.0,
                       const std::string& tuned_for = "fp32") {
  cache::Measurement measurement;
  measurement.gpu_id = db.upsert_gpu({gpu, "580.00", "13.0", "13.0"});
  measurement.problem_id = db.upsert_problem(problem);
  measurement.config_id = db.upsert_config(kernel, family, json, stored_class(family));
  measurement.status = cache::Status::Ok;
  measurement.timing = cache::Timing{median_ms, median_ms, median_ms, median_ms, median_ms};
  measurement.repetitions = 10;
  measurement.tuner_run = "dispatch test";
  db.record_measurement(measurement, cache::WinnerUpdate{cublas_ms, cache::WinnerPolicy::Replace, tuned_for});
}

inline void add_winner(cache::Database& db, const cache::GpuKey& gpu, const cache::Problem& problem,
                       const KernelConfig& config, double median_ms = 1.0, std::optional<double> cublas_ms = 2.0,
                       const std::string& tuned_for = "fp32") {
  add_winner(db, gpu, problem, kernel_name(config), config.family, params_json(config), median_ms, cublas_ms,
             tuned_for);
}

// A row-major call on made-up device pointers (never dereferenced: selection reads only their
// alignment) with tight leading dimensions, or the pointers one float past a 16-byte boundary.
inline SgemmCall fake_call(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K,
                           std::int64_t lda, std::int64_t ldb, std::int64_t ldc, bool misalign_pointers = false) {
  const std::uintptr_t base = 0x10000 + (misalign_pointers ? sizeof(float) : 0);
  SgemmCall call;
  call.order = order;
  call.trans_a = trans_a;
  call.trans_b = trans_b;
  call.M = M;
  call.N = N;
  call.K = K;
  call.A = reinterpret_cast<const float*>(base);
  call.lda = lda;
  call.B = reinterpret_cast<const float*>(base + 0x100000);
  call.ldb = ldb;
  call.C = reinterpret_cast<float*>(base + 0x200000);
  call.ldc = ldc;
  return call;
}

// A row-major, untransposed call with leading dimensions `ld_pad` above the minimum.
inline SgemmCall fake_nn_call(int M, int N, int K, int ld_pad = 0, bool misalign_pointers = false) {
  return fake_call(Order::RowMajor, Transpose::No, Transpose::No, M, N, K, K + ld_pad, N + ld_pad, N + ld_pad,
                   misalign_pointers);
}

}  // namespace gemmtune::dispatch::test
