// Two small tuning databases with known contents, for the merge tests and tunedb's tests.
#pragma once

#include <string>

#include "cache_test_support.hpp"

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

// B: on the H200 too, kShared won later by bm64 (slower, but newer), and kOnlyB.
inline void write_b(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem(kShared);
  const auto other = db.upsert_problem(kOnlyB);
  const auto config = add_reg2d_config(db, 64);
  db.record_measurement(ok_measurement(gpu, problem, config, 1.1, "2024-03-01T00:00:00.000Z"),
                        WinnerUpdate{1.2});
  db.record_measurement(ok_measurement(gpu, other, config, 0.5, "2024-03-02T00:00:00.000Z"),
                        WinnerUpdate{0.7});
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

}  // namespace gemmtune::cache::test
