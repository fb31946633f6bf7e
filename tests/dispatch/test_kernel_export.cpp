// The ahead-of-time export on the CPU: a database filled by hand (a winner, fake cubins stored
// under this build's keys for every kernel the runtime may select) exported, the manifest read
// back, and opened as a Runtime's tuning source: its table, its cubins, its refusals.
#include <catch2/catch.hpp>

#include <fstream>

#include "binary_store.hpp"
#include "dispatch_error.hpp"
#include "dispatch_test_support.hpp"
#include "kernel_export.hpp"
#include "kernel_manifest.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"
#include "select_kernel.hpp"
#include "tuning_source.hpp"

namespace gemmtune::dispatch {
namespace {

using namespace test;
namespace fs = std::filesystem;

const cache::Problem kProblem{"nt", 256, 128, 512};
KernelConfig winner_config() { return config_of("vectorized", Layout::NT, 4); }

// Stands for a cubin: bytes that say whose they are.
std::vector<char> fake_cubin(const std::string& name) {
  const std::string text = "cubin of " + name;
  return {text.begin(), text.end()};
}

// A database with one winner for the fake GPU and, under this build's key for sm_90, a fake
// cubin for every configuration the runtime may select: the export compiles nothing.
struct ExportableDatabase {
  cache::test::TempDir dir;
  std::string path = dir.file("tuned.db");
  ExportableDatabase() {
    cache::Database db = cache::Database::open(path, cache::OpenMode::ReadWrite);
    add_winner(db, fake_gpu(), kProblem, winner_config(), 0.25, 0.5);
    add_winner(db, other_gpu(), kProblem, winner_config(), 0.5, 0.5);
    for (const KernelConfig& config : selectable_configs(TuningTable(db.all_winners(), fake_gpu()), "sm_90")) {
      cache::Binary binary;
      binary.key = binary_key(config, "sm_90");
      binary.lowered_name = "_Z" + kernel_name(config);
      binary.cubin = fake_cubin(kernel_name(config));
      binary.registers = 42;
      db.store_binary(binary);
    }
  }
};

std::pair<Status, std::string> manifest_failure(const fs::path& dir, const cache::GpuKey& gpu, const std::string& arch,
                                                bool allow_untuned) {
  try {
    load_manifest_tuning(dir, gpu, arch, allow_untuned);
  } catch (const DispatchError& error) {
    return {error.status(), error.what()};
  }
  return {Status::Success, ""};
}

}  // namespace

TEST_CASE("dispatch: selectable_configs holds each winner with its narrower alignments and every default",
          "[dispatch]") {
  cache::test::TempDir dir;
  cache::Database db = cache::Database::open(dir.file("t.db"), cache::OpenMode::ReadWrite);
  add_winner(db, fake_gpu(), kProblem, winner_config());
  std::vector<std::string> names;
  for (const KernelConfig& config : selectable_configs(TuningTable(db.all_winners(), fake_gpu()), "sm_90")) {
    names.push_back(kernel_name(config));
  }
  const std::string winner = kernel_name(winner_config());
  for (int align : {4, 2, 1}) {
    KernelConfig narrower = winner_config();
    narrower.align = align;
    CHECK(std::count(names.begin(), names.end(), kernel_name(narrower)) == 1);
  }
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    CHECK(std::count(names.begin(), names.end(), kernel_name(find_family("reg2d").default_config(layout, 1))) == 1);
    CHECK(std::count(names.begin(), names.end(), kernel_name(find_family("vectorized").default_config(layout, 1))) == 1);
  }
  CHECK(std::is_sorted(names.begin(), names.end()));
}

TEST_CASE("dispatch: export-kernels writes the winners' cubins and a manifest that reads back", "[dispatch]") {
  const ExportableDatabase database;
  const cache::Database db = cache::Database::open(database.path, cache::OpenMode::ReadOnly);
  const fs::path out = database.dir.file("kernels");
  const ExportSummary summary = export_kernels(db, fake_gpu(), out);
  CHECK(summary.problems == 1);
  CHECK(summary.compiled == 0);
  CHECK(summary.from_database == summary.kernels);
  CHECK(summary.kernels >= 3 + 4 + 4);  // the winner's three alignments, reg2d's and vectorized's defaults

  const KernelManifest manifest = read_manifest(out);
  CHECK(manifest.gpu == fake_gpu());
  CHECK(manifest.arch == "sm_90");
  CHECK(manifest.nvrtc_version == nvrtc_version());
  CHECK(manifest.exported_from == database.path);
  REQUIRE(manifest.problems.size() == 1);  // the other GPU's winner is not exported
  const ManifestProblem& problem = manifest.problems[0];
  CHECK(problem.problem == kProblem);
  CHECK(problem.winner.kernel_name == kernel_name(winner_config()));
  CHECK(problem.winner.median_ms == 0.25);
  CHECK(problem.winner.cublas_ms == 0.5);
  const KernelFamily& family = find_family("vectorized");
  const Problem shape{Layout::NT, 256, 128, 512};
  const LaunchShape expected = family.launch_shape(winner_config(), shape, {7, 90});
  CHECK(problem.launch.grid[0] == expected.grid[0]);
  CHECK(problem.launch.grid[1] == expected.grid[1]);
  CHECK(problem.launch.block[0] == expected.block[0]);
  CHECK(problem.launch.dynamic_smem_bytes == expected.dynamic_smem_bytes);
  CHECK(problem.workspace_bytes == 0);
  REQUIRE(manifest.kernels.size() == summary.kernels);
  for (const ManifestKernel& kernel : manifest.kernels) {
    std::ifstream in(out / kernel.cubin_file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes == fake_cubin(kernel.name));
    CHECK(kernel.lowered_name == "_Z" + kernel.name);
    CHECK(kernel.registers == 42);
  }

  // Opened as a Runtime's source: the winner in the table, the cubins found, nothing compiled.
  const TuningSource source = load_manifest_tuning(out, fake_gpu(), "sm_90", false);
  CHECK(source.table.size() == 1);
  CHECK_FALSE(source.database);
  CHECK_THAT(source.description, Catch::Contains("1 tuned problems and") && Catch::Contains("from the export"));
  const CubinLookup lookup = cubin_lookup(source, "sm_90");
  const std::optional<StoredCubin> found = lookup(winner_config());
  REQUIRE(found);
  CHECK(found->cubin == fake_cubin(kernel_name(winner_config())));
  // Not a winner, nor any family's default (those are all exported): not there.
  const KernelConfig not_exported = config_of("warptile", Layout::NN, 4, {{"BM", 64}});
  CHECK_FALSE(lookup(not_exported));
  CHECK_FALSE(cubin_check(source, "sm_90")(not_exported));
  CHECK(cubin_check(source, "sm_90")(winner_config()));
  CHECK_THAT(compile_refusal(source), Catch::Contains("not in the export"));

  // A second export replaces the first whole, and leaves nothing beside it.
  export_kernels(db, fake_gpu(), out);
  for (const auto& entry : fs::directory_iterator(database.dir.path())) {
    CHECK_THAT(entry.path().filename().string(), !Catch::Contains(".tmp-"));
  }
  CHECK(read_manifest(out).kernels.size() == summary.kernels);
}

TEST_CASE("dispatch: an export is refused for another GPU or arch, and when missing or damaged", "[dispatch]") {
  const ExportableDatabase database;
  const cache::Database db = cache::Database::open(database.path, cache::OpenMode::ReadOnly);
  const fs::path out = database.dir.file("kernels");
  export_kernels(db, fake_gpu(), out);

  auto [status, message] = manifest_failure(out, other_gpu(), "sm_90", false);
  CHECK(status == Status::UntunedGpu);
  CHECK_THAT(message, Catch::Contains("was exported for Fake GPU 9000"));
  const TuningSource untuned = load_manifest_tuning(out, other_gpu(), "sm_90", true);
  CHECK(untuned.table.size() == 0);
  CHECK_THAT(untuned.description, Catch::Contains("default kernels only"));
  std::tie(status, message) = manifest_failure(out, fake_gpu(), "sm_80", true);
  CHECK(status == Status::UntunedGpu);
  CHECK_THAT(message, Catch::Contains("holds cubins for sm_90") && Catch::Contains("runs sm_80"));

  CHECK(manifest_failure(database.dir.file("nothing"), fake_gpu(), "sm_90", false).first == Status::DatabaseNotFound);
  // A cubin cut short, then a manifest that is not one.
  const KernelManifest manifest = read_manifest(out);
  cache::test::write_bytes((out / manifest.kernels[0].cubin_file).string(), "short");
  std::tie(status, message) = manifest_failure(out, fake_gpu(), "sm_90", false);
  CHECK(status == Status::DatabaseError);
  CHECK_THAT(message, Catch::Contains("has 5 bytes, the manifest says"));
  cache::test::write_bytes((out / kManifestFile).string(), "{\"format\": \"gemmtune-kernels\", \"version\": 2}");
  std::tie(status, message) = manifest_failure(out, fake_gpu(), "sm_90", false);
  CHECK(status == Status::DatabaseError);
  CHECK_THAT(message, Catch::Contains("not a gemmtune kernel manifest: version 2, this build reads version 1"));
}

TEST_CASE("dispatch: export-kernels never replaces a folder that is not an export", "[dispatch]") {
  const ExportableDatabase database;
  const cache::Database db = cache::Database::open(database.path, cache::OpenMode::ReadOnly);
  const fs::path out = database.dir.file("mine");
  fs::create_directory(out);
  cache::test::write_bytes((out / "notes.txt").string(), "keep me");
  CHECK_THROWS_WITH(export_kernels(db, fake_gpu(), out), Catch::Contains("a folder that is not an export"));
  CHECK(fs::exists(out / "notes.txt"));
  CHECK_FALSE(fs::exists(out / kManifestFile));
}

}  // namespace gemmtune::dispatch
