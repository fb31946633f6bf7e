// A realistic tuning database for the report's tests and for docs/report-example.html: an
// H200 with ten problems (square, skinny, long-K, one without a cuBLAS time, one whose
// candidates all failed so far), many candidates of six families on nn:4096x4096x4096, and
// failures whose error texts contain <, >, & and quotes, as compiler output does.
//
// Times follow a simple model, not a measurement: each problem's best configuration takes the
// time given below, and every other one is slower by its family's factor (from the seed
// chapter's table: naive 1.7%, ..., reg2d 88% of vectorized) and by how far its tiles are
// from the problem's best tiles, times a repeatable 0-5% jitter.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tuning_db.hpp"

namespace gemmtune::report::test {

struct SampleConfig {
  std::string family;
  std::vector<std::pair<std::string, int>> params;  // in the family's order
  int align = 1;

  std::string kernel_name(const std::string& layout) const {
    std::string name = "gemmtune_sgemm_" + family + "_" + layout;
    for (const auto& [param, value] : params) {
      name += "_";
      for (const char c : param)
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      name += std::to_string(value);
    }
    return name + "_align" + std::to_string(align);
  }
  std::string params_json(const std::string& layout) const {
    std::string json = "{";
    for (const auto& [param, value] : params)
      json += "\"" + param + "\":" + std::to_string(value) + ",";
    return json + "\"layout\":\"" + layout + "\",\"align\":" + std::to_string(align) + "}";
  }
  int get(const std::string& param) const {
    for (const auto& [name, value] : params) {
      if (name == param) return value;
    }
    return 0;
  }
};

struct SampleProblem {
  cache::Problem problem;
  double best_ms;                   // the best configuration's time
  std::optional<double> cublas_ms;  // nullopt: measured without the baseline
  int best_bm;                      // the block tile the best configuration has
  int best_bn;
  bool all_families;  // every family and a wide grid, not just the tuned two
};

inline const std::vector<SampleProblem>& sample_problems() {
  static const std::vector<SampleProblem> problems = {
      {{"nn", 4096, 4096, 4096}, 2.90, 2.70, 128, 128, true},
      {{"nn", 8192, 8192, 8192}, 23.1, 21.4, 128, 128, false},
      {{"nn", 2048, 2048, 2048}, 0.405, 0.372, 128, 64, false},
      {{"nn", 1024, 1024, 1024}, 0.0735, 0.0640, 64, 64, false},
      {{"nn", 512, 512, 512}, 0.0165, std::nullopt, 64, 64, false},
      {{"nn", 16, 4096, 4096}, 0.0268, 0.0379, 32, 128, false},
      {{"nn", 4096, 16, 4096}, 0.0281, 0.0362, 128, 32, false},
      {{"nn", 1, 4096, 4096}, 0.0192, 0.0211, 32, 128, false},
      {{"nn", 256, 256, 65536}, 0.241, 0.292, 64, 64, false},
  };
  return problems;
}

// tn:4096x4096x4096: a run interrupted after three failures, so no winner yet.
inline const cache::Problem kNoWinnerProblem{"tn", 4096, 4096, 4096};

// A repeatable number in [0, 1) from a text (FNV-1a).
inline double sample_jitter(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ull;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return static_cast<double>(hash % 10007) / 10007.0;
}

// Speed relative to the problem's best configuration (1.0 for it, less for the others).
inline double sample_relative_speed(const SampleConfig& config, const SampleProblem& problem) {
  static const std::map<std::string, double> kFamilyFactor = {
      {"vectorized", 1.0}, {"reg2d", 0.88},     {"reg1d", 0.47},
      {"smem", 0.165},     {"coalesced", 0.11}, {"naive", 0.017}};
  double speed = kFamilyFactor.at(config.family);
  if (config.get("TILE") != 0) return speed * (config.get("TILE") == 32 ? 1.0 : 0.8);
  auto distance = [](int value, int best) { return std::fabs(std::log2(double(value) / best)); };
  speed /= 1 + 0.18 * distance(config.get("BM"), problem.best_bm) +
           0.12 * distance(config.get("BN"), problem.best_bn);
  speed /= 1 + 0.05 * distance(config.get("BK"), 8);
  const int thread_tile = config.get("TM") * std::max(config.get("TN"), 1);
  if (config.family != "reg1d") speed /= 1 + 0.2 * distance(thread_tile, 64);
  if (config.family == "reg1d") speed /= 1 + 0.15 * distance(config.get("TM"), 16);
  return speed;
}

// The candidates of a problem: block tiles around the best, thread counts 32..1024.
inline std::vector<SampleConfig> sample_candidates(const SampleProblem& problem) {
  std::vector<SampleConfig> configs;
  const std::vector<int> block_tiles =
      problem.all_families ? std::vector<int>{64, 128, 256} : std::vector<int>{32, 64, 128};
  const std::vector<int> depths =
      problem.all_families ? std::vector<int>{8, 16} : std::vector<int>{8};
  for (const char* family : {"vectorized", "reg2d"}) {
    for (const int bm : block_tiles) {
      for (const int bn : block_tiles) {
        for (const int bk : depths) {
          for (const int thread_tile : {4, 8}) {
            const int threads = bm * bn / (thread_tile * thread_tile);
            if (threads < 32 || threads > 1024) continue;
            configs.push_back(
                {family,
                 {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"TM", thread_tile}, {"TN", thread_tile}},
                 std::string(family) == "vectorized" ? 4 : 1});
          }
        }
      }
    }
  }
  if (!problem.all_families) return configs;
  for (const int bm : {64, 128}) {
    for (const int bn : {64, 128}) {
      for (const int tm : {4, 8, 16}) {
        if (bm * bn / tm > 1024) continue;
        configs.push_back({"reg1d", {{"BM", bm}, {"BN", bn}, {"BK", 8}, {"TM", tm}}, 1});
      }
    }
  }
  for (const char* family : {"smem", "coalesced", "naive"}) {
    for (const int tile : {16, 32}) configs.push_back({family, {{"TILE", tile}}, 1});
  }
  return configs;
}

// Failures of nn:4096x4096x4096, by kernel name: what ptxas, NVRTC and the checks say.
inline const std::map<std::string, std::pair<cache::Status, std::string>>& sample_failures() {
  static const std::map<std::string, std::pair<cache::Status, std::string>> failures = {
      {"gemmtune_sgemm_vectorized_nn_bm256_bn256_bk16_tm8_tn8_align4",
       {cache::Status::Spills,
        "ptxas info: Used 255 registers, 1184 bytes spill stores, 1320 bytes spill loads "
        "(limit: 0 spill bytes)"}},
      {"gemmtune_sgemm_reg2d_nn_bm256_bn256_bk32_tm8_tn8_align1",
       {cache::Status::ResourceLimit,
        "ptxas error: Entry function 'gemmtune::reg2d_sgemm<256, 256, 32, 8, 8, "
        "gemmtune::Layout::NN, 1>' uses too much shared data (0x10000 bytes, 0xc000 max)"}},
      {"gemmtune_sgemm_vectorized_nn_bm64_bn256_bk32_tm4_tn8_align4",
       {cache::Status::CompileError,
        "vectorized.cuh(48): error: static assertion failed with \"BN * BK must be a multiple "
        "of 4 * threads (float4 loads of B) && BM * BK likewise\"\n"
        "  detected during instantiation of \"void gemmtune::vectorized_sgemm<BM, BN, BK, TM, "
        "TN, L, ALIGN>(gemmtune::GemmParams) [with BM=64, BN=256, BK=32, TM=4, TN=8, "
        "L=gemmtune::Layout::NN, ALIGN=4]\""}},
      {"gemmtune_sgemm_reg2d_nn_bm128_bn64_bk16_tm8_tn4_align1",
       {cache::Status::WrongResult,
        "max relative error 3.2e-01 > tolerance 4.9e-05 at C[4095, 63] (expected 1022.51, got "
        "694.02); 4096 elements wrong"}},
      {"gemmtune_sgemm_vectorized_nn_bm256_bn64_bk8_tm8_tn8_align4",
       {cache::Status::Crash,
        "an illegal memory access was encountered (cudaErrorIllegalAddress) in "
        "cudaStreamSynchronize after gemmtune_sgemm_vectorized_nn_bm256_bn64_bk8_tm8_tn8_align4; "
        "the worker was restarted"}},
      {"gemmtune_sgemm_naive_nn_tile8_align1",
       {cache::Status::Timeout, "no result after 60 s; the worker process was killed"}},
  };
  return failures;
}

inline cache::Measurement sample_measurement(std::int64_t gpu, std::int64_t problem,
                                             std::int64_t config, int sequence) {
  cache::Measurement measurement;
  measurement.gpu_id = gpu;
  measurement.problem_id = problem;
  measurement.config_id = config;
  char when[32];
  std::snprintf(when, sizeof when, "2026-11-20T%02d:%02d:%02d.000Z", 9 + sequence / 3600,
                sequence / 60 % 60, sequence % 60);
  measurement.measured_at = when;
  measurement.tuner_run = "sample-run-1";
  return measurement;
}

// Fills `db` (a new, empty database) with the sample.
inline void fill_sample_report_database(cache::Database& db) {
  const auto gpu = db.upsert_gpu({{"NVIDIA H200", 9, 0, 132}, "570.124.06", "12.8", "12.8"});
  int sequence = 0;
  for (const SampleProblem& sample : sample_problems()) {
    const auto problem = db.upsert_problem(sample.problem);
    std::vector<SampleConfig> configs = sample_candidates(sample);
    if (sample.all_families) {
      // Failures the grid above does not hold: too deep (BK 32), unequal thread tiles, or
      // naive's smallest tile.
      configs.push_back({"reg2d", {{"BM", 256}, {"BN", 256}, {"BK", 32}, {"TM", 8}, {"TN", 8}}, 1});
      configs.push_back({"reg2d", {{"BM", 128}, {"BN", 64}, {"BK", 16}, {"TM", 8}, {"TN", 4}}, 1});
      configs.push_back(
          {"vectorized", {{"BM", 64}, {"BN", 256}, {"BK", 32}, {"TM", 4}, {"TN", 8}}, 4});
      configs.push_back({"naive", {{"TILE", 8}}, 1});
    }
    for (const SampleConfig& config : configs) {
      const std::string name = config.kernel_name(sample.problem.layout);
      const auto config_id =
          db.upsert_config(name, config.family, config.params_json(sample.problem.layout), "strict");
      cache::Measurement measurement = sample_measurement(gpu, problem, config_id, sequence++);
      const auto failure = sample_failures().find(name);
      if (sample.all_families && failure != sample_failures().end()) {
        measurement.status = failure->second.first;
        measurement.error_text = failure->second.second;
        db.record_measurement(measurement);
        continue;
      }
      const double speed = sample_relative_speed(config, sample);
      const double jitter =
          speed >= 1 ? 1 : 1 + 0.05 * sample_jitter(name + to_string(sample.problem));
      const double ms = sample.best_ms / speed * jitter;
      measurement.status = cache::Status::Ok;
      measurement.timing = cache::Timing{ms, ms * 0.99, ms * 1.04, ms * 0.995, ms * 1.02};
      measurement.repetitions = ms < 1 ? 200 : 20;
      measurement.sm_clock_mhz = 1980;
      measurement.max_rel_error = 2.1e-6;
      db.record_measurement(measurement, cache::WinnerUpdate{sample.cublas_ms});
    }
  }
  const auto interrupted = db.upsert_problem(kNoWinnerProblem);
  const std::vector<std::pair<SampleConfig, cache::Status>> tried = {
      {{"vectorized", {{"BM", 128}, {"BN", 128}, {"BK", 8}, {"TM", 8}, {"TN", 8}}, 4},
       cache::Status::Timeout},
      {{"vectorized", {{"BM", 128}, {"BN", 64}, {"BK", 8}, {"TM", 8}, {"TN", 8}}, 4},
       cache::Status::Timeout},
      {{"reg2d", {{"BM", 128}, {"BN", 128}, {"BK", 8}, {"TM", 8}, {"TN", 8}}, 1},
       cache::Status::Crash},
  };
  for (const auto& [config, status] : tried) {
    const auto config_id =
        db.upsert_config(config.kernel_name("tn"), config.family, config.params_json("tn"), "strict");
    cache::Measurement measurement = sample_measurement(gpu, interrupted, config_id, sequence++);
    measurement.status = status;
    measurement.error_text = status == cache::Status::Crash
                                 ? "worker exited with signal 11 (SIGSEGV)"
                                 : "no result after 60 s; the worker process was killed";
    db.record_measurement(measurement);
  }
}

}  // namespace gemmtune::report::test
