// Internal to cache/: reads the records of cache_records.hpp out of query rows, each from the
// column where the query put its first field, so every query lists these fields in one order.
#pragma once

#include "cache_records.hpp"
#include "sqlite_statement.hpp"

namespace gemmtune::cache {

// name, cc_major, cc_minor, sm_count
GpuKey read_gpu_key(const Statement& row, int first);
// layout, m, n, k, batch
Problem read_problem(const Statement& row, int first);
// config_id, kernel_name, median_ms, tflops, cublas_ms, cublas_tflops, measured_at, precision,
// kernel_precision, fp64_error: kWinnerColumns, as v_winners names them
inline constexpr std::string_view kWinnerColumns =
    "config_id, kernel_name, ms, tflops, cublas_ms, cublas_tflops, measured_at, precision, kernel_precision,"
    " fp64_error";
Winner read_winner(const Statement& row, int first);
// median_ms, min_ms, max_ms, p10_ms, p90_ms: nullopt when median_ms is NULL
std::optional<Timing> read_timing(const Statement& row, int first);

}  // namespace gemmtune::cache
