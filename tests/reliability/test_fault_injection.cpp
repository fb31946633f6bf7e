// The hook that lets a program carry a kernel family of its own (register_family, a family's own
// source text) and the tests' faulty family through it, without a GPU: the registry knows it, NVRTC
// compiles it, its cubins are keyed by its own source, and tune_with_faults compiles it as tune
// compiles any family, while the shipped tune does not know it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "database_probe.hpp"
#include "family_registry.hpp"
#include "faulty_family.hpp"
#include "kernel_config.hpp"
#include "kernel_name.hpp"
#include "kernel_sources.hpp"
#include "nvrtc_compiler.hpp"
#include "tune_process.hpp"

using namespace gemmtune;
using namespace gemmtune::reliability;
using testing::faulty_family;

namespace {

// Registers the faulty family in this test process once (test cases may share the process).
void register_faulty_once() {
  static const bool registered = [] {
    register_family(faulty_family());
    return true;
  }();
  (void)registered;
}

// A family that only has a name, to try names on the registry.
class NamedOnly final : public KernelFamily {
 public:
  explicit NamedOnly(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return "a name only"; }
  std::string_view source_file() const override { return "none.cuh"; }
  std::string_view kernel_template() const override { return "none"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  LaunchShape launch_shape(const KernelConfig&, const Problem&, const DeviceTraits&) const override {
    return {{1, 1, 1}, {1, 1, 1}, 0};
  }
  CostTraits cost_traits(const KernelConfig&) const override { return {}; }

 protected:
  std::optional<std::string> check_params(const KernelConfig&) const override { return std::nullopt; }

 private:
  std::string name_;
  std::vector<ParamSpec> params_;
};

}  // namespace

TEST_CASE("register_family: a registered family is found by name, in kernel names and by the compiler",
          "[reliability]") {
  register_faulty_once();
  REQUIRE(&find_family("faulty") == &faulty_family());
  const std::vector<const KernelFamily*>& families = all_families();
  CHECK(families.back() == &faulty_family());
  CHECK(std::count(families.begin(), families.end(), &faulty_family()) == 1);
  CHECK(families.front() == &find_family("naive"));  // the built-in ones stay first

  const KernelConfig config = parse_kernel_name("gemmtune_sgemm_faulty_tn_mode3_align1");
  CHECK(config.get("MODE") == static_cast<int>(testing::FaultMode::EndlessLoop));
  CHECK(kernel_name(faulty_family().default_config()) == "gemmtune_sgemm_faulty_nn_mode5_align1");

  // NVRTC compiles it from its own text, which includes the embedded common.cuh.
  const CompiledKernel compiled = compile_kernel(config, "sm_90");
  CHECK_FALSE(compiled.cubin.empty());
  CHECK(compiled.instantiation == "gemmtune::faulty_sgemm<3, gemmtune::Layout::TN, 1>");
  CHECK(compiled.lowered_name.find("faulty_sgemm") != std::string::npos);

  KernelConfig refused = config;
  refused.set("MODE", 6);
  CHECK_THROWS_WITH(compile_kernel(refused, "sm_90"), Catch::Contains("faulty: MODE must be 1..5"));
}

TEST_CASE("register_family refuses a taken name and a name that cannot be a kernel-name field", "[reliability]") {
  register_faulty_once();
  CHECK_THROWS_WITH(register_family(faulty_family()), Catch::Contains("'faulty': the name is taken"));
  static const NamedOnly reg2d("reg2d"), underscore("my_family"), upper("Faulty"), empty("");
  CHECK_THROWS_WITH(register_family(reg2d), Catch::Contains("'reg2d': the name is taken"));
  for (const KernelFamily* bad : {&underscore, &upper, &empty}) {
    CHECK_THROWS_WITH(register_family(*bad), Catch::Contains("lower-case letters and digits"));
  }
  CHECK_THROWS_WITH(find_family("my_family"), Catch::Contains("unknown kernel family"));
}

TEST_CASE("a family's own source text is part of its cubins' key; the built-in families' key is unchanged",
          "[reliability]") {
  CHECK(source_hash(find_family("reg2d")) == kernel_sources_hash());
  CHECK(source_hash(find_family("warptile")) == kernel_sources_hash());
  const std::string faulty_hash = source_hash(faulty_family());
  CHECK(faulty_hash != kernel_sources_hash());
  const EmbeddedFile changed{"faulty.cuh", std::string(faulty_family().source_text()) + "\n// changed\n"};
  CHECK(kernel_sources_hash({&changed, 1}) != faulty_hash);
}

TEST_CASE("reliability: tune_with_faults --dry-run compiles the faulty family for sm_90 and stores it under its own key",
          "[reliability]") {
  ScratchDir dir;
  write_bytes(dir.file("shapes.txt"), "64 64 64\n37 45 29 tn\n");
  const std::string db = dir.file("faulty.db");
  const std::vector<std::string> args{"--dry-run", "--arch", "sm_90", "--shapes", dir.file("shapes.txt"),
                                      "--db", db, "--families", "faulty", "--strategy", "exhaustive", "--jobs", "2"};
  const TuneResult first = run_tune(args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(600),
                                    Program::TuneWithFaults);
  INFO(first.describe());
  REQUIRE(first.exit_code == 0);
  const std::optional<DryRunCounts> counts = dry_run_counts(first.out);
  REQUIRE(counts);
  CHECK(counts->compiled == 10);  // five modes, two layouts
  CHECK(counts->reused == 0);
  {
    const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
    CHECK(probe.integrity_check() == "ok");
    const auto rows = probe.query("SELECT kernel_name, source_hash FROM binaries ORDER BY kernel_name");
    REQUIRE(rows.size() == 10);
    CHECK(rows.front()[0] == "gemmtune_sgemm_faulty_nn_mode1_align1");
    for (const auto& row : rows) CHECK(row[1] == source_hash(faulty_family()));
  }

  const TuneResult again = run_tune(args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(600),
                                    Program::TuneWithFaults);
  INFO(again.describe());
  REQUIRE(again.exit_code == 0);
  const std::optional<DryRunCounts> reused = dry_run_counts(again.out);
  REQUIRE(reused);
  CHECK(reused->compiled == 0);
  CHECK(reused->reused == 10);

  // The shipped tune has no such family.
  const TuneResult shipped = run_tune(args, dir.path());
  CHECK(shipped.exit_code == 2);
  CHECK_THAT(shipped.err, Catch::Contains("unknown kernel family 'faulty'"));
}
