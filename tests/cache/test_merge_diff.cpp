// Merging databases (nothing lost, newer winner wins, all or nothing) and comparing winners.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include "cache_test_support.hpp"
#include "tuning_db_merge.hpp"
#include "sample_databases.hpp"
#include "winner_diff.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

std::int64_t all_rows(const Database& db) {
  std::int64_t rows = 0;
  for (const char* table : {"gpus", "problems", "configs", "measurements", "winners", "binaries"}) {
    rows += count_rows(db, table);
  }
  return rows;
}

}  // namespace

TEST_CASE("cache: merge keeps every row of both and the newer winner", "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db");
  const std::string b = dir.file("b.db");
  write_a(a);
  write_b(b);
  const std::string b_before = read_bytes(b);

  Database into = Database::open(a, OpenMode::ReadWrite);
  const std::vector<std::string> sources = {b};
  const MergeCounts added = merge_databases(into, sources);
  CHECK(added.gpus == 0);
  CHECK(added.problems == 1);
  CHECK(added.configs == 1);
  CHECK(added.measurements == 2);
  CHECK(added.binaries == 1);
  CHECK(added.winners == 2);

  CHECK(count_rows(into, "measurements") == 4);
  CHECK(count_rows(into, "binaries") == 2);
  const auto gpu = into.find_gpu(h200().key)->id;
  const auto shared = *into.find_problem(kShared);
  CHECK(into.winner(gpu, shared, "fp32")->kernel_name == reg2d_name(64));  // newer, though slower
  CHECK(into.winner(gpu, *into.find_problem(kOnlyB), "fp32")->cublas_ms == 0.7);
  CHECK(into.measured_kernels(gpu, shared) ==
        std::set<std::string>{reg2d_name(64), reg2d_name(128), reg2d_name(256)});
  CHECK(read_bytes(b) == b_before);

  SECTION("merging the same source again adds nothing") {
    const auto rows = all_rows(into);
    const MergeCounts again = merge_databases(into, sources);
    CHECK(again.measurements == 0);
    CHECK(again.winners == 0);
    CHECK(all_rows(into) == rows);
  }
}

TEST_CASE("cache: merge keeps the target's winner when it is newer", "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db");
  const std::string b = dir.file("b.db");
  write_a(a);
  write_b(b);
  Database into = Database::open(b, OpenMode::ReadWrite);
  const std::vector<std::string> sources = {a};
  merge_databases(into, sources);
  const auto gpu = into.find_gpu(h200().key)->id;
  CHECK(into.winner(gpu, *into.find_problem(kShared), "fp32")->kernel_name == reg2d_name(64));
  CHECK(count_rows(into, "measurements") == 4);
}

TEST_CASE("cache: a merge that fails part-way leaves the target unchanged", "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db");
  const std::string b = dir.file("b.db");
  write_a(a);
  write_b(b);
  Database into = Database::open(a, OpenMode::ReadWrite);
  // Binaries are copied after GPUs, problems, configs and measurements.
  into.connection().exec(
      "CREATE TEMP TRIGGER fail_merge BEFORE INSERT ON main.binaries"
      " BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
  const auto rows = all_rows(into);
  const std::vector<std::string> sources = {b};
  CHECK_THROWS_WITH(merge_databases(into, sources), Catch::Contains("injected failure"));
  CHECK(all_rows(into) == rows);
  CHECK(count_rows(into, "measurements") == 2);
}

TEST_CASE("cache: merge refuses a missing source, or the target itself, changing nothing", "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db");
  write_a(a);
  Database into = Database::open(a, OpenMode::ReadWrite);
  const auto rows = all_rows(into);
  const std::vector<std::string> missing = {dir.file("missing.db")};
  CHECK_THROWS_AS(merge_databases(into, missing), NotFoundError);
  CHECK_FALSE(std::filesystem::exists(dir.file("missing.db")));
  const std::vector<std::string> itself = {a};
  CHECK_THROWS_WITH(merge_databases(into, itself), Catch::Contains("into itself"));
  CHECK(all_rows(into) == rows);
}

TEST_CASE("cache: check_merge_sources refuses what merge would refuse, accepts the rest, writes nothing",
          "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db");
  const std::string b = dir.file("b.db");
  write_a(a);
  write_b(b);
  Database into = Database::open(a, OpenMode::ReadWrite);
  const auto rows = all_rows(into);
  const std::vector<std::string> missing = {b, dir.file("missing.db")};
  CHECK_THROWS_AS(check_merge_sources(into, missing), NotFoundError);
  const std::vector<std::string> itself = {a};
  CHECK_THROWS_WITH(check_merge_sources(into, itself), Catch::Contains("into itself"));
  const std::vector<std::string> eleven(11, b);
  CHECK_THROWS_WITH(check_merge_sources(into, eleven), Catch::Contains("at most 10 databases"));
  const std::vector<std::string> good = {b};
  CHECK_NOTHROW(check_merge_sources(into, good));
  CHECK(all_rows(into) == rows);
}

TEST_CASE("cache: diff_winners tells identical, time, kernel and one-sided differences", "[cache]") {
  const GpuKey gpu = h200().key;
  auto entry = [&](const Problem& problem, const std::string& kernel, double ms) {
    WinnerEntry e{gpu, problem, {}};
    e.winner.kernel_name = kernel;
    e.winner.median_ms = ms;
    return e;
  };
  const Problem p1{"nn", 1, 1, 1}, p2{"nn", 2, 2, 2}, p3{"nn", 3, 3, 3}, p4{"nn", 4, 4, 4},
      p5{"nn", 5, 5, 5};
  const std::vector<WinnerEntry> a = {entry(p1, "k1", 1.0), entry(p2, "k1", 2.0),
                                      entry(p3, "k1", 1.0), entry(p4, "k1", 1.0)};
  const std::vector<WinnerEntry> b = {entry(p1, "k1", 1.0), entry(p2, "k1", 1.5),
                                      entry(p3, "k2", 0.5), entry(p5, "k1", 1.0)};
  const auto differences = diff_winners(a, b);
  REQUIRE(differences.size() == 5);
  CHECK(differences[0].kind == DiffKind::Identical);
  CHECK(differences[1].kind == DiffKind::TimeChanged);
  CHECK(*differences[1].time_change() == Approx(-0.25));
  CHECK(differences[2].kind == DiffKind::KernelChanged);
  CHECK(differences[2].b->kernel_name == "k2");
  CHECK(differences[3].kind == DiffKind::OnlyInA);
  CHECK_FALSE(differences[3].time_change());
  CHECK(differences[4].kind == DiffKind::OnlyInB);
  CHECK(differences[4].problem == p5);
  CHECK(to_string(DiffKind::KernelChanged) == "kernel changed");
}
