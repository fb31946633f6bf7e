// The compile records and the register rule, on 750 real dry-run compiles at sm_90 (NVRTC 13.0,
// every default family; tests/tuner/data/sm90-compile-outcomes.csv): half of each STAGES group
// recorded, the rule predicts the other half; it never predicts a spill for a configuration that
// compiled without one, and a configuration's own record settles it.
#include <catch2/catch.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "binary_store.hpp"
#include "compile_records.hpp"
#include "kernel_name.hpp"
#include "spill_limit.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

struct Row {
  std::string kernel;
  int registers, stores, loads;
  bool spills() const { return spills_too_much(stores, loads); }
};

std::vector<Row> recorded_outcomes() {
  std::ifstream in(GEMMTUNE_TESTS_DIR "/tuner/data/sm90-compile-outcomes.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() == 6);
    rows.push_back({cells[0], std::stoi(cells[3]), std::stoi(cells[4]), std::stoi(cells[5])});
  }
  return rows;
}

CompileOutcome outcome_of(const Row& row) {
  CompileOutcome outcome;
  outcome.config = parse_kernel_name(row.kernel);
  CompiledKernel compiled;
  compiled.kernel_name = row.kernel;
  compiled.arch = "sm_90";
  compiled.resources.registers = row.registers;
  compiled.resources.spill_store_bytes = row.stores;
  compiled.resources.spill_load_bytes = row.loads;
  compiled.resources.static_smem_bytes = 0;
  outcome.compiled = compiled;
  outcome.seconds = 1.0;
  return outcome;
}

// The configuration's name without its STAGES.
std::string tile_of(const std::string& kernel) {
  const std::size_t at = kernel.find("_stages");
  if (at == std::string::npos) return {};
  return kernel.substr(0, at) + kernel.substr(kernel.find('_', at + 1));
}

}  // namespace

TEST_CASE("compile records: the STAGES rule predicts half of each group from the other, never a false spill",
          "[tuner]") {
  const std::vector<Row> rows = recorded_outcomes();
  REQUIRE(rows.size() > 700);
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  CompileRecords records(db, "sm_90");
  // Record every other member of each STAGES group (and every configuration without STAGES).
  std::map<std::string, int> seen_in_group;
  std::vector<const Row*> held_out;
  for (const Row& row : rows) {
    const std::string tile = tile_of(row.kernel);
    if (!tile.empty() && seen_in_group[tile]++ % 2 == 1) {
      held_out.push_back(&row);
    } else {
      records.record(outcome_of(row));
    }
  }
  std::size_t spilling = 0, predicted = 0;
  for (const Row* row : held_out) {
    const std::optional<KnownCompileFailure> known = records.known_failure(parse_kernel_name(row->kernel));
    INFO(row->kernel);
    if (known) {
      CHECK(row->spills());  // never a configuration that compiled without spilling
      CHECK(known->status == cache::Status::Spills);
      CHECK_THAT(known->reason, Catch::Contains("predicted to spill"));
    }
    spilling += row->spills();
    predicted += known.has_value();
  }
  std::cout << "register rule: " << predicted << " of the " << spilling << " spilling configurations among "
            << held_out.size() << " held out predicted from their STAGES siblings" << std::endl;
  CHECK(spilling > 0);
  CHECK(predicted == spilling);  // in this data, a spilling tile spills at every depth
}

TEST_CASE("compile records: a recorded failure or spill is known, a clean compile is not, a dead worker says nothing",
          "[tuner]") {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  const Row spilled{"gemmtune_sgemm_tmatf32_nn_bm128_bn128_stages2_schedule2_splitk4_align4", 168, 140, 148};
  const Row clean{"gemmtune_sgemm_tmatf32_nn_bm128_bn128_stages2_schedule2_splitk2_align4", 168, 0, 0};
  {
    CompileRecords records(db, "sm_90");
    records.record(outcome_of(spilled));
    records.record(outcome_of(clean));
    CompileOutcome failed;
    failed.config = parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1");
    failed.error = "nvrtc: error: something\nmore log";
    records.record(failed);
    CompileOutcome died = failed;
    died.config = parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm64_bn128_bk8_tm8_tn8_align1");
    died.worker_died = true;
    records.record(died);
  }
  // A later run reads them back from the database.
  const CompileRecords later(db, "sm_90");
  CHECK(later.known_failure(parse_kernel_name(spilled.kernel))->status == cache::Status::Spills);
  CHECK_FALSE(later.known_failure(parse_kernel_name(clean.kernel)));
  const auto failed = later.known_failure(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1"));
  REQUIRE(failed);
  CHECK(failed->status == cache::Status::CompileError);
  CHECK_THAT(failed->reason, Catch::Contains("nvrtc: error: something") && !Catch::Contains("more log"));
  CHECK_FALSE(later.has_record(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm64_bn128_bk8_tm8_tn8_align1")));
  // Another arch's records say nothing of this one.
  CHECK_FALSE(CompileRecords(db, "sm_80").known_failure(parse_kernel_name(spilled.kernel)));
  CHECK(later.seconds_per_compile() == std::nullopt);  // 3 timed records: too few to say
}
