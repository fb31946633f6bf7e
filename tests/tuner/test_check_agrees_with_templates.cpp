// Each family's host check() must refuse exactly the configurations its template's static_asserts
// refuse. compile_kernel asks check() first, so the refused ones are compiled here directly with
// NVRTC, from the same embedded sources and name expression compile_kernel uses.
//
// The configurations: the product of the search values plus values outside them (chosen so that
// every static_assert fires for some), over the family's alignments plus one it does not take,
// for layout nn. Compiling all of it would take too long for CI, so a deterministic sample is
// compiled: a few configurations per reason check() gives, and a spread of the accepted ones.
#include <nvrtc.h>

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>

#include "kernel_family.hpp"
#include "kernel_sources.hpp"

using namespace gemmtune;

namespace {

constexpr std::size_t kRefusedPerReason = 12;
constexpr std::size_t kAcceptedOnGrid = 24;
constexpr std::size_t kAcceptedOffGrid = 12;

// One nvrtcProgram, destroyed with the object.
class Program {
 public:
  Program(const std::string& source, const std::string& name) {
    std::vector<const char*> texts, names;
    for (const EmbeddedFile& file : embedded_kernel_files()) {
      names.push_back(file.name.data());  // NUL-terminated by the embedding
      texts.push_back(file.text.data());
    }
    const nvrtcResult created = nvrtcCreateProgram(&program_, source.c_str(), name.c_str(),
                                                   static_cast<int>(texts.size()), texts.data(), names.data());
    if (created != NVRTC_SUCCESS) throw std::runtime_error(std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(created));
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program() { nvrtcDestroyProgram(&program_); }

  nvrtcProgram get() const { return program_; }

  std::string log() const {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    nvrtcGetProgramLog(program_, text.data());
    return text;
  }

 private:
  nvrtcProgram program_ = nullptr;
};

struct CompileOutcome {
  bool compiled = false;
  std::string log;
};

// What compile_kernel does, minus the check() that would stop a refused configuration.
CompileOutcome compile_unchecked(const KernelFamily& family, const KernelConfig& config) {
  Program program("#include \"" + std::string(family.source_file()) + "\"\n", kernel_name(config) + ".cu");
  const std::string instantiation = family.instantiation(config);
  REQUIRE(nvrtcAddNameExpression(program.get(), instantiation.c_str()) == NVRTC_SUCCESS);
  const char* options[] = {"-std=c++17", "--gpu-architecture=sm_90"};
  const nvrtcResult result = nvrtcCompileProgram(program.get(), 2, options);
  return {result == NVRTC_SUCCESS, program.log()};
}

// The messages of every static_assert in a template file.
std::set<std::string> static_assert_messages(std::string_view source) {
  static const std::regex kAssert(R"re(static_assert\([^;]*?,\s*"([^"]*)"\s*\)\s*;)re");
  std::set<std::string> messages;
  const std::string text(source);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kAssert); it != std::sregex_iterator(); ++it) {
    messages.insert((*it)[1].str());
  }
  return messages;
}

// n items spread evenly over `items` (all of them when there are no more than n).
std::vector<KernelConfig> sample_evenly(const std::vector<KernelConfig>& items, std::size_t n) {
  if (items.size() <= n) return items;
  std::vector<KernelConfig> sample;
  for (std::size_t i = 0; i < n; ++i) sample.push_back(items[i * items.size() / n]);
  return sample;
}

bool on_search_grid(const KernelFamily& family, const KernelConfig& config) {
  for (std::size_t i = 0; i < config.params.size(); ++i) {
    const std::vector<int>& values = family.params()[i].search_values;
    if (std::find(values.begin(), values.end(), config.params[i].second) == values.end()) return false;
  }
  const std::vector<int> aligns = family.alignments();
  return std::find(aligns.begin(), aligns.end(), config.align) != aligns.end();
}

// Every combination of the search values extended by `extra_values`, over the family's
// alignments plus `extra_aligns`, alignment outermost.
std::vector<KernelConfig> extended_product(const KernelFamily& family,
                                           const std::map<std::string, std::vector<int>>& extra_values,
                                           const std::vector<int>& extra_aligns) {
  std::vector<std::vector<int>> lists;
  for (const ParamSpec& spec : family.params()) {
    std::set<int> values(spec.search_values.begin(), spec.search_values.end());
    if (auto extra = extra_values.find(spec.name); extra != extra_values.end()) values.insert(extra->second.begin(), extra->second.end());
    lists.emplace_back(values.begin(), values.end());
  }
  std::vector<int> aligns = family.alignments();
  aligns.insert(aligns.end(), extra_aligns.begin(), extra_aligns.end());
  std::vector<KernelConfig> product;
  for (int align : aligns) {
    KernelConfig config = family.default_config(Layout::NN, align);
    const std::function<void(std::size_t)> fill = [&](std::size_t param) {
      if (param == lists.size()) {
        product.push_back(config);
        return;
      }
      for (int value : lists[param]) {
        config.params[param].second = value;
        fill(param + 1);
      }
    };
    fill(0);
  }
  return product;
}

void check_agreement(std::string_view family_name, const std::map<std::string, std::vector<int>>& extra_values,
                     const std::vector<int>& extra_aligns) {
  const KernelFamily& family = find_family(family_name);
  std::map<std::string, std::vector<KernelConfig>> refused_by_reason;
  std::vector<KernelConfig> accepted_on_grid, accepted_off_grid;
  for (const KernelConfig& config : extended_product(family, extra_values, extra_aligns)) {
    if (std::optional<std::string> reason = family.check(config)) {
      refused_by_reason[*reason].push_back(config);
    } else {
      (on_search_grid(family, config) ? accepted_on_grid : accepted_off_grid).push_back(config);
    }
  }
  REQUIRE_FALSE(accepted_on_grid.empty());

  std::vector<std::string> disagreements;
  std::set<std::string> fired;  // static_assert messages seen in the logs
  std::size_t compiled = 0;
  for (const auto& [reason, configs] : refused_by_reason) {
    for (const KernelConfig& config : sample_evenly(configs, kRefusedPerReason)) {
      const CompileOutcome outcome = compile_unchecked(family, config);
      ++compiled;
      if (outcome.compiled || outcome.log.find("static assertion failed") == std::string::npos) {
        disagreements.push_back(kernel_name(config) + ": check() refuses (" + reason + ") but NVRTC " +
                                (outcome.compiled ? "compiles it" : "fails without a static assertion:\n" + outcome.log));
      }
      static const std::regex kFired(R"re(static assertion failed with "([^"]*)")re");
      for (auto it = std::sregex_iterator(outcome.log.begin(), outcome.log.end(), kFired); it != std::sregex_iterator(); ++it) {
        fired.insert((*it)[1].str());
      }
    }
  }
  for (const std::vector<KernelConfig>* accepted : {&accepted_on_grid, &accepted_off_grid}) {
    for (const KernelConfig& config :
         sample_evenly(*accepted, accepted == &accepted_on_grid ? kAcceptedOnGrid : kAcceptedOffGrid)) {
      const CompileOutcome outcome = compile_unchecked(family, config);
      ++compiled;
      if (!outcome.compiled) {
        disagreements.push_back(kernel_name(config) + ": check() accepts but NVRTC fails:\n" + outcome.log);
      }
    }
  }

  std::string report;
  for (const std::string& line : disagreements) report += line + "\n";
  INFO(compiled << " compiled; disagreements:\n" << report);
  CHECK(disagreements.empty());

  // The sample must reach every rule of the template, or agreement on it was not tested.
  for (const std::string& message : static_assert_messages(embedded_kernel_file(family.source_file()))) {
    INFO("static_assert never fired: \"" << message << "\"");
    CHECK(fired.count(message) == 1);
  }
}

}  // namespace

TEST_CASE("check() agrees with the template's static_asserts: naive", "[nvrtc]") {
  check_agreement("naive", {{"TILE", {1, 3, 33, 64}}}, {2});
}

TEST_CASE("check() agrees with the template's static_asserts: coalesced", "[nvrtc]") {
  check_agreement("coalesced", {{"TILE", {1, 3, 33, 64}}}, {2});
}

TEST_CASE("check() agrees with the template's static_asserts: smem", "[nvrtc]") {
  check_agreement("smem", {{"TILE", {1, 3, 33, 64}}}, {4});
}

TEST_CASE("check() agrees with the template's static_asserts: reg1d", "[nvrtc]") {
  check_agreement("reg1d", {{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {1, 2, 64}}, {"TM", {3, 64}}}, {2});
}

TEST_CASE("check() agrees with the template's static_asserts: reg2d", "[nvrtc]") {
  check_agreement("reg2d", {{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {1, 64}}, {"TM", {1, 3, 16}}, {"TN", {1, 3, 16}}},
                  {4});
}

TEST_CASE("check() agrees with the template's static_asserts: vectorized", "[nvrtc]") {
  check_agreement("vectorized",
                  {{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {2, 6, 64}}, {"TM", {2, 6, 16}}, {"TN", {2, 6, 16}}},
                  {3});
}
