// The plain values the store takes and gives back: GPUs, problems, measurements, winners,
// compiled binaries. No SQL and no CUDA types: the tuner, the runtime and tunedb share these.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmtune::cache {

// GPU identity: results from one card serve every card with the same key.
struct GpuKey {
  std::string name;  // cudaDeviceProp::name, e.g. "NVIDIA H200"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  auto operator<=>(const GpuKey&) const = default;
};

struct GpuInfo {
  GpuKey key;
  // Recorded, not part of the key: the latest tuning run's versions.
  std::string driver_version;
  std::string cuda_runtime_version;
  std::string nvrtc_version;
  bool operator==(const GpuInfo&) const = default;
};

struct Gpu {
  std::int64_t id = 0;
  GpuInfo info;
};

// One SGEMM shape as a row of the database. layout is "nn", "nt", "tn" or "tt" (A's then B's
// transposition).
struct Problem {
  std::string layout = "nn";
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  std::int64_t batch = 1;  // products of one batched call; 1 for a plain GEMM
  auto operator<=>(const Problem&) const = default;
};

// "nn:4096x4096x4096" ("nn:128x128x128:b64" for a batch of 64), the way problems are written on command lines and in tables. (Problems are
// read by gemmtune::parse_problem, runtime/core/problem.hpp; runtime/store/problem_rows.hpp
// turns them into rows.)
std::string to_string(const Problem& problem);

// Why a candidate has no time, or Ok. Failures are results, stored like times.
enum class Status { Ok, CompileError, ResourceLimit, Spills, LaunchFailure, Crash, Timeout, WrongResult };
std::string_view to_string(Status status);  // "ok", "compile_error", ... as stored
// The inverse of to_string; throws std::invalid_argument listing the statuses.
Status parse_status(std::string_view text);

// Precision classes as stored: "strict", "fp32", "tf32" (gemmtune::precision_name; the schema
// CHECKs them). A configuration has its family's class; a winner the class it was tuned for.
inline constexpr std::string_view kPrecisionNames[] = {"strict", "fp32", "tf32"};
// Throws std::invalid_argument naming the classes when `text` is not one.
void require_precision_name(std::string_view text);

// Times of the repetitions of one candidate, in milliseconds.
struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double p10_ms = 0;
  double p90_ms = 0;
  bool operator==(const Timing&) const = default;
};

struct Measurement {
  std::int64_t gpu_id = 0;
  std::int64_t problem_id = 0;
  std::int64_t config_id = 0;
  Status status = Status::Ok;
  std::optional<Timing> timing;  // present exactly when status is Ok
  int repetitions = 0;
  std::optional<int> sm_clock_mhz;
  std::optional<double> max_rel_error;  // normwise, against cuBLAS pedantic FP32, when checked
  std::optional<double> fp64_error;     // normwise, against the FP64 reference, when checked
  std::string error_text;
  std::string measured_at;  // UTC ISO-8601; empty means now
  std::string tuner_run;    // identifies the run that measured it
  std::optional<int> device_index;  // the CUDA index of the GPU it ran on; unknown before schema 5
};

// Ask record_measurement to make its measurement the winner of its (GPU, problem).
enum class WinnerPolicy {
  IfFaster,  // only when faster than the stored winner (concurrent tuners keep the best)
  Replace,   // always (a re-tune after a driver change replaces stale times)
};
struct WinnerUpdate {
  // cuBLAS's time on the same inputs in the class's compute type, the baseline.
  std::optional<double> cublas_ms;
  WinnerPolicy policy = WinnerPolicy::IfFaster;
  // The class tuned for, whose winner this may become; fp32 is tune's default.
  std::string precision = "fp32";
};

struct Winner {
  std::int64_t config_id = 0;
  std::string kernel_name;
  double median_ms = 0;
  double tflops = 0;
  std::optional<double> cublas_ms;
  std::optional<double> cublas_tflops;
  std::string measured_at;
  std::string precision;                // the class tuned for
  std::string kernel_precision;         // the class of the winner's family
  std::optional<double> fp64_error;     // the winning measurement's, when known
  bool operator==(const Winner&) const = default;
};

// A winner with the GPU and problem it belongs to.
struct WinnerEntry {
  GpuKey gpu;
  Problem problem;
  Winner winner;
};

// One measurement joined with its GPU, problem and configuration (the leaderboard, exports).
struct MeasurementRow {
  std::int64_t id = 0;
  GpuKey gpu;
  Problem problem;
  std::string kernel_name;
  std::string family;
  std::string precision;  // the family's class
  std::string params_json;
  Status status = Status::Ok;
  std::optional<Timing> timing;
  std::optional<double> tflops;
  std::optional<int> rank;  // 1 = fastest among the ok measurements of its (GPU, problem)
  int repetitions = 0;
  std::optional<int> sm_clock_mhz;
  std::optional<double> max_rel_error;
  std::optional<double> fp64_error;
  std::string error_text;
  std::string measured_at;
  std::string tuner_run;
  std::optional<int> device_index;
};

// What has been done for one (GPU, problem), counted in distinct configurations, with one of
// its winners (Database::problem_summaries gives a summary for each class won, or one without a
// winner).
struct ProblemSummary {
  GpuKey gpu;
  Problem problem;
  std::int64_t measured = 0;  // configurations measured, whatever the outcome
  std::int64_t ok = 0;        // configurations with at least one ok measurement
  std::int64_t failed = 0;    // configurations with at least one failed measurement
  std::optional<Winner> winner;
};

// What a compiled kernel depends on: any change here means a different cubin.
struct BinaryKey {
  std::string kernel_name;
  std::string source_hash;      // hash of the template source text
  std::string compile_options;  // NVRTC options, joined in order
  std::string arch;             // "sm_90"
  std::string nvrtc_version;
  auto operator<=>(const BinaryKey&) const = default;
};

struct Binary {
  BinaryKey key;
  std::string lowered_name;  // nvrtcGetLoweredName of the instantiation
  std::vector<char> cubin;
  int registers = 0;
  int spill_bytes = 0;
  std::string compile_log;
  std::string compiled_at;  // UTC ISO-8601; empty means now
  bool operator==(const Binary&) const = default;
};

// A stored cubin without its bytes: what `tunedb binaries` lists.
struct BinaryInfo {
  BinaryKey key;
  int registers = 0;
  int spill_bytes = 0;
  std::int64_t cubin_bytes = 0;
  std::string compile_log;  // with ptxas's report, which gives the static shared memory
  std::string compiled_at;
};

// What compiling one cubin key gave (table compile_outcomes): ptxas's figures when it compiled
// (-1 where its report said nothing), the error when it did not.
struct CompileOutcomeRecord {
  BinaryKey key;
  bool compiled = false;
  int registers = -1;
  int spill_store_bytes = -1;
  int spill_load_bytes = -1;
  int static_smem_bytes = -1;
  std::optional<double> compile_seconds;  // in the worker; unknown for one read from a stored cubin
  std::string error_text;
  std::string compiled_at;  // UTC ISO-8601; empty means now
  bool operator==(const CompileOutcomeRecord&) const = default;
};

// How many cubins a database holds for one arch and NVRTC version.
struct BinaryCount {
  std::string arch;
  std::string nvrtc_version;
  std::int64_t count = 0;
};

// "1805 cubins for sm_90 (NVRTC 13.0)", "1805 cubins: 1800 for sm_90 (NVRTC 13.0), 5 for sm_80
// (NVRTC 13.0)", "no cubins".
std::string to_string(const std::vector<BinaryCount>& counts);

// The current time as "2024-05-01T12:34:56.789Z": sorts as text in time order.
std::string now_utc_iso8601();

}  // namespace gemmtune::cache
