// Small tuning databases with known contents, for the merge and migration tests and tunedb's
// tests.
#pragma once

#include <sqlite3.h>

#include <string>

#include "cache_test_support.hpp"
#include "schema_migrations.hpp"

namespace gemmtune::cache::test {

inline const Problem kShared{"nn", 512, 512, 512};
inline const Problem kOnlyB{"nn", 64, 64, 4096};

// A: on the H200, kShared won by bm128 (older), plus a failure and a binary.
inline void write_a(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem(kShared);
  const auto fast = add_reg2d_config(db, 128);
  db.record_measurement(ok_measurement(gpu, problem, fast, 1.0, "2024-01-01T00:00:00.000Z"),
                        WinnerUpdate{1.2});
  db.record_measurement(
      failed_measurement(gpu, problem, add_reg2d_config(db, 256), Status::ResourceLimit, "smem"));
  db.store_binary({{reg2d_name(128), "h", "", "sm_90", "13.0"}, "lowered", {'a'}, 64, 0, "", ""});
}

// B: on the H200 too, kShared won later by bm64 (slower, but newer), and kOnlyB, measured on
// GPU 1 of its host.
inline void write_b(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem(kShared);
  const auto other = db.upsert_problem(kOnlyB);
  const auto config = add_reg2d_config(db, 64);
  db.record_measurement(ok_measurement(gpu, problem, config, 1.1, "2024-03-01T00:00:00.000Z"),
                        WinnerUpdate{1.2});
  Measurement on_gpu1 = ok_measurement(gpu, other, config, 0.5, "2024-03-02T00:00:00.000Z");
  on_gpu1.device_index = 1;
  db.record_measurement(on_gpu1, WinnerUpdate{0.7});
  db.store_binary({{reg2d_name(64), "h", "", "sm_90", "13.0"}, "lowered", {'b'}, 64, 0, "", ""});
}

// Many: on the H200, kShared measured with 400 configurations, so that its export and report are
// hundreds of kilobytes (for the tests of an output that fails part-way).
inline void write_many(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem(kShared);
  for (int bm = 1; bm <= 400; ++bm) {
    db.record_measurement(ok_measurement(gpu, problem, add_reg2d_config(db, bm), 1.0 + bm / 1000.0), WinnerUpdate{1.2});
  }
}

// Dry: what `tune --dry-run` leaves, cubins and nothing measured: reg2d with 8 KiB of static
// shared memory, warptile with its stages in dynamic shared memory.
inline const std::string kDryWarptile =
    "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_align4";
inline void write_dry(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  db.store_binary({{reg2d_name(128), "h", "", "sm_90", "13.0"}, "lowered", std::vector<char>(1000, 'r'), 64, 0,
                   "ptxas info    : Used 64 registers, used 1 barriers, 8192 bytes smem, 400 bytes cmem[0]\n", ""});
  db.store_binary({{kDryWarptile, "h", "", "sm_90", "13.0"}, "lowered", std::vector<char>(2000, 'w'), 128, 0,
                   "ptxas info    : Used 128 registers, used 1 barriers\n", ""});
}

// Classes: on the H200, nn:1024x1024x1024 won in each class, by reg2d (strict, 2.0 ms), wgmma
// (fp32, 1.0 ms) and tmatf32 (tf32, 0.4 ms, against cuBLAS FAST_TF32's 0.5 ms), each with its
// error against FP64.
inline const Problem kClassesProblem{"nn", 1024, 1024, 1024};
inline void write_classes(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem(kClassesProblem);
  struct Won {
    std::int64_t config;
    double ms, fp64_error, cublas_ms;
    const char* precision;
  };
  const Won winners[] = {
      {add_reg2d_config(db, 128), 2.0, 3.1e-7, 2.5, "strict"},
      {db.upsert_config("gemmtune_sgemm_wgmma_nn_bm128_bn128_bk32_stages4_splitk1_align4", "wgmma", R"({"BM":128})",
                        "fp32"),
       1.0, 2.4e-7, 2.5, "fp32"},
      {db.upsert_config("gemmtune_sgemm_tmatf32_nn_bm128_bn256_stages4_schedule0_splitk1_align4", "tmatf32",
                        R"({"BM":128})", "tf32"),
       0.4, 3.2e-4, 0.5, "tf32"},
  };
  for (const Won& won : winners) {
    Measurement measurement = ok_measurement(gpu, problem, won.config, won.ms);
    measurement.fp64_error = won.fp64_error;
    db.record_measurement(measurement, WinnerUpdate{won.cublas_ms, WinnerPolicy::IfFaster, won.precision});
  }
}

// Version 1: a database as the code of schema version 1 wrote it (its migration step and its
// inserts), before precision classes. On the H200:
// - nn:512x512x512 won by wgmma (0.5 ms), with reg2d (1.0 ms) and vectorized (0.8 ms) measured;
// - nn:64x64x4096 won by reg2d (2.0 ms), the only kernel measured;
// - nn:1024x1024x1024 won by tmatf32 (0.1 ms), with wgmma (0.3 ms) and reg2d (0.9 ms) measured,
//   and a reg2d crash;
// and one cubin.
inline const Problem kV1WonByWgmma{"nn", 512, 512, 512};
inline const Problem kV1WonByReg2d{"nn", 64, 64, 4096};
inline const Problem kV1WonByTmatf32{"nn", 1024, 1024, 1024};
inline void write_version1(const std::string& path) {
  const Connection connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  apply_migrations(connection, schema_migrations().first(1));
  connection.exec(R"sql(
INSERT INTO gpus (id, name, cc_major, cc_minor, sm_count, driver_version, cuda_runtime_version, nvrtc_version)
  VALUES (1, 'NVIDIA H200', 9, 0, 132, '570.86', '13.0', '13.0');
INSERT INTO problems (id, layout, m, n, k) VALUES (1, 'nn', 512, 512, 512), (2, 'nn', 64, 64, 4096),
  (3, 'nn', 1024, 1024, 1024);
INSERT INTO configs (id, kernel_name, family, params_json) VALUES
  (1, 'gemmtune_sgemm_reg2d_nn_bm64_bn64_bk8_tm8_tn8_align4', 'reg2d', '{"BM":64}'),
  (2, 'gemmtune_sgemm_wgmma_nn_bm128_bn128_bk32_stages4_splitk1_align4', 'wgmma', '{"BM":128}'),
  (3, 'gemmtune_sgemm_tmatf32_nn_bm128_bn256_stages4_schedule0_splitk1_align4', 'tmatf32', '{"BM":128}'),
  (4, 'gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4', 'vectorized', '{"BM":128}');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, median_ms, min_ms, max_ms, p10_ms, p90_ms,
                          repetitions, max_rel_error, measured_at, tuner_run) VALUES
  (1, 1, 1, 1, 'ok', 1.0, 1.0, 1.0, 1.0, 1.0, 10, 1e-7, '2026-01-01T00:00:01.000Z', 'v1'),
  (2, 1, 1, 2, 'ok', 0.5, 0.5, 0.5, 0.5, 0.5, 10, 2e-7, '2026-01-01T00:00:02.000Z', 'v1'),
  (3, 1, 1, 4, 'ok', 0.8, 0.8, 0.8, 0.8, 0.8, 10, 1e-7, '2026-01-01T00:00:03.000Z', 'v1'),
  (4, 1, 2, 1, 'ok', 2.0, 2.0, 2.0, 2.0, 2.0, 10, 1e-7, '2026-01-01T00:00:04.000Z', 'v1'),
  (5, 1, 3, 3, 'ok', 0.1, 0.1, 0.1, 0.1, 0.1, 10, 3e-4, '2026-01-01T00:00:05.000Z', 'v1'),
  (6, 1, 3, 2, 'ok', 0.3, 0.3, 0.3, 0.3, 0.3, 10, 2e-7, '2026-01-01T00:00:06.000Z', 'v1'),
  (7, 1, 3, 1, 'ok', 0.9, 0.9, 0.9, 0.9, 0.9, 10, 1e-7, '2026-01-01T00:00:07.000Z', 'v1');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, error_text, measured_at, tuner_run)
  VALUES (8, 1, 3, 1, 'crash', 'xid 13', '2026-01-01T00:00:08.000Z', 'v1');
INSERT INTO winners (gpu_id, problem_id, config_id, median_ms, tflops, cublas_ms, cublas_tflops, measured_at)
  VALUES (1, 1, 2, 0.5, 0.54, 0.6, 0.45, '2026-01-01T00:00:02.000Z'),
         (1, 2, 1, 2.0, 0.02, 2.5, 0.01, '2026-01-01T00:00:04.000Z'),
         (1, 3, 3, 0.1, 21.5, 0.2, 10.7, '2026-01-01T00:00:05.000Z');
INSERT INTO binaries (kernel_name, source_hash, compile_options, arch, nvrtc_version, lowered_name, cubin,
                      registers, spill_bytes, compiled_at)
  VALUES ('gemmtune_sgemm_reg2d_nn_bm64_bn64_bk8_tm8_tn8_align4', 'h', '', 'sm_90', '13.0', 'lowered', x'61',
          64, 0, '2026-01-01T00:00:00.000Z');
)sql");
}

// Version 3: a database as the code of schema version 3 wrote it, before batched problems. On the
// H200, problem ids 4 and 9 (not 1, 2: ids must survive the table rebuild, gaps too):
// - nn:256x256x256 (id 4) won by reg2d (1.0 ms) in the strict and fp32 classes, wgmma's wrong
//   result measured too;
// - tn:128x64x32 (id 9) with one ok reg2d measurement (0.25 ms) and no winner;
// and one compile outcome.
inline const Problem kV3Won{"nn", 256, 256, 256};
inline const Problem kV3Measured{"tn", 128, 64, 32};
inline void write_version3(const std::string& path) {
  const Connection connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  apply_migrations(connection, schema_migrations().first(3));
  connection.exec(R"sql(
INSERT INTO gpus (id, name, cc_major, cc_minor, sm_count, driver_version, cuda_runtime_version, nvrtc_version)
  VALUES (1, 'NVIDIA H200', 9, 0, 132, '570.86', '13.0', '13.0');
INSERT INTO problems (id, layout, m, n, k) VALUES (4, 'nn', 256, 256, 256), (9, 'tn', 128, 64, 32);
INSERT INTO configs (id, kernel_name, family, params_json, precision) VALUES
  (1, 'gemmtune_sgemm_reg2d_nn_bm64_bn64_bk8_tm8_tn8_align4', 'reg2d', '{"BM":64}', 'strict'),
  (2, 'gemmtune_sgemm_wgmma_nn_bm128_bn128_bk32_stages4_splitk1_align4', 'wgmma', '{"BM":128}', 'fp32');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, median_ms, min_ms, max_ms, p10_ms, p90_ms,
                          repetitions, max_rel_error, fp64_error, measured_at, tuner_run) VALUES
  (1, 1, 4, 1, 'ok', 1.0, 1.0, 1.0, 1.0, 1.0, 10, 1e-7, 2e-7, '2026-01-01T00:00:01.000Z', 'v3'),
  (2, 1, 9, 1, 'ok', 0.25, 0.25, 0.25, 0.25, 0.25, 10, 1e-7, 2e-7, '2026-01-01T00:00:02.000Z', 'v3');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, error_text, measured_at, tuner_run)
  VALUES (3, 1, 4, 2, 'wrong_result', 'error 1e-2', '2026-01-01T00:00:03.000Z', 'v3');
INSERT INTO winners (gpu_id, problem_id, precision, config_id, median_ms, tflops, cublas_ms, cublas_tflops,
                     fp64_error, measured_at)
  VALUES (1, 4, 'strict', 1, 1.0, 0.0336, 1.5, 0.0224, 2e-7, '2026-01-01T00:00:01.000Z'),
         (1, 4, 'fp32', 1, 1.0, 0.0336, 1.5, 0.0224, 2e-7, '2026-01-01T00:00:01.000Z');
INSERT INTO compile_outcomes (kernel_name, source_hash, compile_options, arch, nvrtc_version, compiled, compiled_at)
  VALUES ('gemmtune_sgemm_reg2d_nn_bm64_bn64_bk8_tm8_tn8_align4', 'h', '', 'sm_90', '13.0', 1,
          '2026-01-01T00:00:00.000Z');
)sql");
}

// Version 4: a database as the code of schema version 4 wrote it, before measurements named
// their device. On the H200, nn:256x256x256:b8 (id 3) won by reg2d (1.0 ms), with wgmma's crash
// measured too.
inline const Problem kV4Won{"nn", 256, 256, 256, 8};
inline void write_version4(const std::string& path) {
  const Connection connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  apply_migrations(connection, schema_migrations().first(4));
  connection.exec(R"sql(
INSERT INTO gpus (id, name, cc_major, cc_minor, sm_count, driver_version, cuda_runtime_version, nvrtc_version)
  VALUES (1, 'NVIDIA H200', 9, 0, 132, '570.86', '13.0', '13.0');
INSERT INTO problems (id, layout, m, n, k, batch) VALUES (3, 'nn', 256, 256, 256, 8);
INSERT INTO configs (id, kernel_name, family, params_json, precision) VALUES
  (1, 'gemmtune_sgemm_reg2d_nn_bm64_bn64_bk8_tm8_tn8_align4', 'reg2d', '{"BM":64}', 'strict'),
  (2, 'gemmtune_sgemm_wgmma_nn_bm128_bn128_bk32_stages4_splitk1_align4', 'wgmma', '{"BM":128}', 'fp32');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, median_ms, min_ms, max_ms, p10_ms, p90_ms,
                          repetitions, max_rel_error, fp64_error, measured_at, tuner_run) VALUES
  (1, 1, 3, 1, 'ok', 1.0, 1.0, 1.0, 1.0, 1.0, 10, 1e-7, 2e-7, '2026-01-01T00:00:01.000Z', 'v4');
INSERT INTO measurements (id, gpu_id, problem_id, config_id, status, error_text, measured_at, tuner_run)
  VALUES (2, 1, 3, 2, 'crash', 'xid 13', '2026-01-01T00:00:02.000Z', 'v4');
INSERT INTO winners (gpu_id, problem_id, precision, config_id, median_ms, tflops, cublas_ms, cublas_tflops,
                     fp64_error, measured_at)
  VALUES (1, 3, 'fp32', 1, 1.0, 0.268, 1.5, 0.179, 2e-7, '2026-01-01T00:00:01.000Z');
)sql");
}

}  // namespace gemmtune::cache::test
