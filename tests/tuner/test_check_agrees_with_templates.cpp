// Each family's host check() and its template's static_asserts expand one rule list
// (kernel_templates/<name>_rules.h, see family_rules.h), so they agree by construction; what is
// tested here is that the construction holds: that the template does expand the list, with the
// same derived sizes (threads, shared memory) as the host, and that nothing else in the
// template refuses what check() accepts. check() is bypassed: configurations are compiled
// directly with NVRTC, from the same embedded sources and name expressions compile_kernel uses.
//
// The configurations: the product of the search values plus values outside them (chosen so that
// every rule is broken by some), over the family's alignments plus one it does not take, for
// layout nn (and the layouts a family's rules depend on). static_asserts are decided by NVRTC's
// front end, so the agreement is tested with front-end-only compiles (-fdevice-syntax-only), many
// configurations to a program:
// - every configuration check() accepts must instantiate without error;
// - every refused configuration next to an accepted one (one parameter one value away: where a
//   rule too strict or too lax would show), and a spread of each refusal reason, must fail with
//   a static assertion, and with check()'s own words where check() names a rule of the list;
// - every rule of the list must fire for some configuration, or it was not tested.
// A spread of the accepted configurations is also compiled for sm_90 all the way to a cubin.
// One test case a registered family; a new family names its extra values in kExtras.
#include <nvrtc.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "kernel_sources.hpp"
#include "support/family_test_cases.hpp"

using namespace gemmtune;

namespace {

constexpr std::size_t kRefusedPerReason = 12;
constexpr std::size_t kAcceptedToCubin = 16;
// Configurations a front-end-only program: accepted ones produce no errors, so many fit; refused
// ones produce several each, and NVRTC stops after 100 errors (a batch that reaches the limit is
// split and compiled again).
constexpr std::size_t kAcceptedBatch = 200;
constexpr std::size_t kRefusedBatch = 8;

// One nvrtcProgram, destroyed with the object.
class Program {
 public:
  explicit Program(const std::string& source) {
    std::vector<const char*> texts, names;
    for (const EmbeddedFile& file : embedded_kernel_files()) {
      names.push_back(file.name.data());  // NUL-terminated by the embedding
      texts.push_back(file.text.data());
    }
    const nvrtcResult created = nvrtcCreateProgram(&program_, source.c_str(), "check_agreement.cu",
                                                   static_cast<int>(texts.size()), texts.data(), names.data());
    if (created != NVRTC_SUCCESS) {
      throw std::runtime_error(std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(created));
    }
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program() { nvrtcDestroyProgram(&program_); }

  void add_name_expression(const std::string& expression) {
    const nvrtcResult added = nvrtcAddNameExpression(program_, expression.c_str());
    if (added != NVRTC_SUCCESS) {
      throw std::runtime_error("nvrtcAddNameExpression(" + expression + "): " + nvrtcGetErrorString(added));
    }
  }

  // Whether it compiled.
  bool compile(const std::vector<const char*>& options) {
    return nvrtcCompileProgram(program_, static_cast<int>(options.size()), options.data()) == NVRTC_SUCCESS;
  }

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

// Instantiates every configuration in one program; what compile_kernel does, minus the check()
// that would stop a refused configuration (and, with front_end_only, minus code generation).
CompileOutcome compile_unchecked(const KernelFamily& family, const std::vector<KernelConfig>& configs,
                                 bool front_end_only) {
  Program program("#include \"" + std::string(family.source_file()) + "\"\n");
  for (const KernelConfig& config : configs) program.add_name_expression(family.instantiation(config));
  // The family's arch on a Hopper GPU (sm_90a for wgmma).
  const std::string arch = "--gpu-architecture=" + family.compile_arch("sm_90").value_or("sm_90");
  std::vector<const char*> options = {"-std=c++17", arch.c_str()};
  if (front_end_only) options.push_back("-fdevice-syntax-only");
  const bool compiled = program.compile(options);
  return {compiled, program.log()};
}

// How NVRTC names the instantiation in its diagnostics: "BM=8, BN=16, ..., L=gemmtune::Layout::NN,
// ALIGN=1", the text between "[with " and "]".
std::string diagnostic_arguments(const KernelConfig& config) {
  std::string text;
  for (const auto& [name, value] : config.params) text += name + "=" + std::to_string(value) + ", ";
  std::string layout(layout_name(config.layout));
  for (char& c : layout) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text + "L=gemmtune::Layout::" + layout + ", ALIGN=" + std::to_string(config.align);
}

struct StaticAssertion {
  std::string message;
  std::string arguments;  // diagnostic_arguments of the instantiation it fired in
};

std::vector<StaticAssertion> static_assertions_in(const std::string& log) {
  static const std::regex kFired(R"re(static assertion failed with "([^"]*)"[\s\S]*?\[with ([^\]]*)\])re");
  std::vector<StaticAssertion> found;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), kFired); it != std::sregex_iterator(); ++it) {
    found.push_back({(*it)[1].str(), (*it)[2].str()});
  }
  return found;
}

// The messages of the rule list in the rules header a template includes (kernel_templates/
// <name>_rules.h), as check() words them: "FAMILY: message".
std::set<std::string> rule_messages(const KernelFamily& family) {
  static const std::regex kInclude(R"re(#include "([a-z0-9_]+_rules\.h)")re");
  static const std::regex kRule(R"re(RULE\(FAMILY,[^"]*"([^"]*)"\))re");
  std::set<std::string> messages;
  const std::string source(embedded_kernel_file(family.source_file()));
  for (auto header = std::sregex_iterator(source.begin(), source.end(), kInclude); header != std::sregex_iterator();
       ++header) {
    const std::string rules(embedded_kernel_file((*header)[1].str()));
    for (auto it = std::sregex_iterator(rules.begin(), rules.end(), kRule); it != std::sregex_iterator(); ++it) {
      messages.insert(std::string(family.name()) + ": " + (*it)[1].str());
    }
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

std::vector<std::vector<KernelConfig>> batches_of(const std::vector<KernelConfig>& configs, std::size_t size) {
  std::vector<std::vector<KernelConfig>> batches;
  for (std::size_t start = 0; start < configs.size(); start += size) {
    batches.emplace_back(configs.begin() + static_cast<std::ptrdiff_t>(start),
                         configs.begin() + static_cast<std::ptrdiff_t>(std::min(configs.size(), start + size)));
  }
  return batches;
}

struct Product {
  std::vector<std::vector<int>> values;  // per parameter, sorted
  std::vector<int> aligns;
  std::vector<KernelConfig> configs;     // every combination, layout then alignment outermost
};

// The search values extended by `extra_values`, over the family's alignments plus `extra_aligns`.
// `narrowed` replaces a parameter's search values outright, for families whose full product
// would take too long to compile (every rule must still be reachable from what is left).
Product extended_product(const KernelFamily& family, const std::map<std::string, std::vector<int>>& extra_values,
                         const std::vector<int>& extra_aligns, const std::map<std::string, std::vector<int>>& narrowed,
                         const std::vector<Layout>& layouts) {
  Product product;
  for (const ParamSpec& spec : family.params()) {
    std::set<int> values(spec.search_values.begin(), spec.search_values.end());
    if (auto only = narrowed.find(spec.name); only != narrowed.end()) values = {only->second.begin(), only->second.end()};
    if (auto extra = extra_values.find(spec.name); extra != extra_values.end()) {
      values.insert(extra->second.begin(), extra->second.end());
    }
    product.values.emplace_back(values.begin(), values.end());
  }
  const std::set<int> aligns = [&] {
    std::set<int> all(extra_aligns.begin(), extra_aligns.end());
    for (int align : family.alignments()) all.insert(align);
    return all;
  }();
  product.aligns.assign(aligns.begin(), aligns.end());
  for (Layout layout : layouts) {
    for (int align : product.aligns) {
      KernelConfig config = family.default_config(layout, align);
      const std::function<void(std::size_t)> fill = [&](std::size_t param) {
        if (param == product.values.size()) {
          product.configs.push_back(config);
          return;
        }
        for (int value : product.values[param]) {
          config.params[param].second = value;
          fill(param + 1);
        }
      };
      fill(0);
    }
  }
  return product;
}

// The configurations one step away in the product: one parameter, or the alignment, moved to the
// next smaller or larger value of its list.
std::vector<KernelConfig> product_neighbours(const Product& product, const KernelConfig& config) {
  std::vector<KernelConfig> found;
  const auto step = [&](const std::vector<int>& list, int current, const std::function<void(int)>& emit) {
    const auto at = std::find(list.begin(), list.end(), current);
    if (at != list.begin()) emit(*(at - 1));
    if (at + 1 != list.end()) emit(*(at + 1));
  };
  for (std::size_t p = 0; p < config.params.size(); ++p) {
    step(product.values[p], config.params[p].second, [&](int value) {
      found.push_back(config);
      found.back().params[p].second = value;
    });
  }
  step(product.aligns, config.align, [&](int align) {
    found.push_back(config);
    found.back().align = align;
  });
  return found;
}

struct Verdicts {
  std::set<std::string> rules;  // the family's rule messages
  std::vector<std::string> disagreements;
  std::set<std::string> fired;  // static_assert messages seen
  std::size_t compiled = 0;
};

// Accepted configurations must instantiate without any error.
void expect_accepted(const KernelFamily& family, const std::vector<KernelConfig>& configs, Verdicts& verdicts) {
  for (const std::vector<KernelConfig>& batch : batches_of(configs, kAcceptedBatch)) {
    const CompileOutcome outcome = compile_unchecked(family, batch, true);
    verdicts.compiled += batch.size();
    if (outcome.compiled) continue;
    for (const KernelConfig& config : batch) {  // find which
      const CompileOutcome single = compile_unchecked(family, {config}, true);
      if (!single.compiled) {
        verdicts.disagreements.push_back(kernel_name(config) + ": check() accepts, NVRTC fails:\n" + single.log);
      }
    }
  }
}

// Refused configurations must each fail with a static assertion.
void expect_refused(const KernelFamily& family, const std::vector<KernelConfig>& configs, Verdicts& verdicts) {
  for (const std::vector<KernelConfig>& batch : batches_of(configs, kRefusedBatch)) {
    const CompileOutcome outcome = compile_unchecked(family, batch, true);
    if (outcome.log.find("Error limit reached") != std::string::npos && batch.size() > 1) {
      const std::size_t half = batch.size() / 2;
      expect_refused(family, {batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(half)}, verdicts);
      expect_refused(family, {batch.begin() + static_cast<std::ptrdiff_t>(half), batch.end()}, verdicts);
      continue;
    }
    verdicts.compiled += batch.size();
    std::map<std::string, std::set<std::string>> asserted;  // instantiation's arguments -> messages
    for (const StaticAssertion& assertion : static_assertions_in(outcome.log)) {
      verdicts.fired.insert(assertion.message);
      asserted[assertion.arguments].insert(assertion.message);
    }
    for (const KernelConfig& config : batch) {
      const std::string reason = *family.check(config);
      const auto fired = asserted.find(diagnostic_arguments(config));
      if (fired == asserted.end()) {
        verdicts.disagreements.push_back(kernel_name(config) + ": check() refuses (" + reason +
                                         ") but no static assertion fires for it");
      } else if (verdicts.rules.count(reason) && !fired->second.count(reason)) {
        verdicts.disagreements.push_back(kernel_name(config) + ": check() refuses with the rule '" + reason +
                                         "', which the template does not assert");
      }
    }
  }
}

// What a family's configurations are drawn from, beyond its search values (see extended_product).
struct Extras {
  std::map<std::string, std::vector<int>> values;
  std::vector<int> aligns;
  std::map<std::string, std::vector<int>> narrowed = {};
  std::vector<Layout> layouts = {Layout::NN};
};

// Values that break each family's rules. A family not listed is tried on its search values and
// an alignment of 3; the check that every rule fires says what to add here.
const std::map<std::string, Extras, std::less<>> kExtras = {
    {"naive", {{{"TILE", {1, 3, 33, 64}}}, {2}}},
    {"coalesced", {{{"TILE", {1, 3, 33, 64}}}, {2}}},
    {"smem", {{{"TILE", {1, 3, 33, 64}}}, {4}}},
    {"reg1d", {{{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {1, 2, 64}}, {"TM", {3, 64}}}, {2}}},
    {"reg2d", {{{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {1, 64}}, {"TM", {1, 3, 16}}, {"TN", {1, 3, 16}}}, {4}}},
    {"vectorized",
     {{{"BM", {8, 512}}, {"BN", {8, 512}}, {"BK", {2, 6, 64}}, {"TM", {2, 6, 16}}, {"TN", {2, 6, 16}}}, {3}}},
    // Thirteen parameters: the full product would take hours to compile, so each keeps the values that
    // reach every rule (lanes, thread tile size, warp and block divisibility, thread count, copies,
    // shared memory, stages, fragment buffers, FFMA order, operand copies, register cap; ORDER 2 stands for both
    // orders, whose code has no rule of its own). Which operand tiles go by cp.async, and so must divide evenly over
    // the threads, depends on the layout: nn has B's rule, tn A's and B's.
    {"warptile",
     {{{"BM", {96, 512}}, {"BK", {1, 64}}, {"WM", {24}}, {"TM", {6}}, {"STAGES", {1}}, {"SPLITK", {24}},
       {"FRAGBUF", {3}}, {"ORDER", {3}}, {"COPY", {3}}, {"REGS", {3}}},
      {3},
      {{"BM", {128}}, {"BN", {128, 256}}, {"BK", {8}}, {"WM", {16, 32}}, {"WN", {64, 128}}, {"TM", {8, 16}},
       {"TN", {8, 16}}, {"STAGES", {4}}, {"SPLITK", {1, 4}}, {"FRAGBUF", {1}}, {"ORDER", {2}}, {"COPY", {1, 2}}},
      {Layout::NN, Layout::TN}}},
    // Seven parameters: each keeps the values that reach every rule (MMA tile, warp and block
    // divisibility, BK, accumulators, thread count, stages, shared memory). The shared memory a
    // tile takes depends on whether it is K-contiguous, which nn and tt have the other way round.
    {"tf32x3",
     {{{"BM", {96}}, {"BK", {12}}, {"WM", {24, 128}}, {"WN", {12}}, {"STAGES", {1}}, {"SPLITK", {24}}, {"WATCH", {2, 3}}},
      {3},
      {{"BM", {128, 256}}, {"BN", {128, 256}}, {"BK", {32}}, {"WM", {32, 64}}, {"WN", {32, 64}}, {"STAGES", {4}},
       {"SPLITK", {1, 4}}},
      {Layout::NN, Layout::TT}}},
    // Five parameters; SPLITK narrowed to one split and none, and one value its rule refuses.
    // Shared memory depends on the layout as in tf32x3.
    {"wgmma",
     {{{"BM", {96, 320}}, {"BN", {96}}, {"BK", {12, 40}}, {"STAGES", {1}}, {"SPLITK", {24}}},
      {3},
      {{"SPLITK", {1, 4}}},
      {Layout::NN, Layout::TT}}},
    // Five parameters; STAGES narrowed to a small and a deep pipeline (6 overflows shared memory
    // at 128 x 128, more so for tn's transposed copy), SPLITK to none and one split. 192 and 256
    // break the rules of each side (registers: B's for nn, A's for tn; shared memory: the other);
    // CLUSTER 2 (not searched) breaks the schedule rule, and 3 is no cluster shape. PINGPONG 2 (not
    // searched) is legal with 64 rows on the register side only, 3 never. WATCH 2 is legal for
    // 3xTF32 only, 3 never. 16 is legal on the shared-memory side only, and not in tn read as
    // stored, nor with CLUSTER 2. CSPLIT 2 (not searched) is legal with split-K alone, 3 never.
    {"tmawgmma",
     {{{"BM", {16, 96, 192, 256}}, {"BN", {16, 96, 192, 256}}, {"STAGES", {1}}, {"SCHEDULE", {4}}, {"CLUSTER", {2, 3}},
       {"ACOPY", {3}}, {"PINGPONG", {2, 3}}, {"WATCH", {2, 3}}, {"CSPLIT", {2, 3}}},
      {3},
      {{"STAGES", {1, 3, 6}}, {"SPLITK", {1, 4}}},
      {Layout::NN, Layout::TN}}},
    {"tmatf32",
     {{{"BM", {16, 96, 192}}, {"BN", {16, 96, 192}}, {"STAGES", {1}}, {"SCHEDULE", {4}}, {"CLUSTER", {2, 3}},
       {"PINGPONG", {2, 3}}, {"WATCH", {2}}, {"CSPLIT", {2, 3}}},
      {3},
      {{"STAGES", {1, 3, 6}}, {"SPLITK", {1, 4}}},
      {Layout::NN, Layout::TN}}},
    {"skinny", {{{"NT", {3, 128}}, {"KG", {3}}, {"MT", {33}}, {"KC", {8192}}, {"SPLITK", {24}}, {"PREFETCH", {3}}}, {3}}},
};

void check_agreement(const KernelFamily& family) {
  const auto listed = kExtras.find(family.name());
  const Extras extras = listed != kExtras.end() ? listed->second : Extras{{}, {3}};
  const Product product = extended_product(family, extras.values, extras.aligns, extras.narrowed, extras.layouts);
  std::set<std::string> accepted_names;
  std::vector<KernelConfig> accepted;
  std::map<std::string, std::vector<KernelConfig>> refused_by_reason;
  for (const KernelConfig& config : product.configs) {
    if (std::optional<std::string> reason = family.check(config)) {
      refused_by_reason[*reason].push_back(config);
    } else {
      accepted.push_back(config);
      accepted_names.insert(kernel_name(config));
    }
  }
  REQUIRE_FALSE(accepted.empty());

  std::vector<KernelConfig> refused_to_compile;
  for (const auto& [reason, configs] : refused_by_reason) {
    const std::vector<KernelConfig> spread = sample_evenly(configs, kRefusedPerReason);
    const std::set<std::string> spread_names = [&] {
      std::set<std::string> names;
      for (const KernelConfig& config : spread) names.insert(kernel_name(config));
      return names;
    }();
    for (const KernelConfig& config : configs) {
      const std::vector<KernelConfig> around = product_neighbours(product, config);
      const bool on_border = std::any_of(around.begin(), around.end(), [&](const KernelConfig& neighbour) {
        return accepted_names.count(kernel_name(neighbour)) > 0;
      });
      if (on_border || spread_names.count(kernel_name(config))) refused_to_compile.push_back(config);
    }
  }

  Verdicts verdicts;
  verdicts.rules = rule_messages(family);
  REQUIRE_FALSE(verdicts.rules.empty());
  expect_accepted(family, accepted, verdicts);
  expect_refused(family, refused_to_compile, verdicts);
  for (const KernelConfig& config : sample_evenly(accepted, kAcceptedToCubin)) {
    const CompileOutcome outcome = compile_unchecked(family, {config}, false);
    if (!outcome.compiled) {
      verdicts.disagreements.push_back(kernel_name(config) + ": check() accepts, NVRTC fails generating sm_90 code:\n" +
                                       outcome.log);
    }
  }

  std::string report;
  for (const std::string& line : verdicts.disagreements) report += line + "\n";
  INFO(product.configs.size() << " configurations, " << accepted.size() << " accepted; compiled "
                              << verdicts.compiled << "; disagreements:\n" << report);
  CHECK(verdicts.disagreements.empty());

  for (const std::string& message : verdicts.rules) {
    INFO("rule never broken (add values to kExtras that break it): \"" << message << "\"");
    CHECK(verdicts.fired.count(message) == 1);
  }
}

// One test case a registered family.
const testing::FamilyTestCases agreement("check() agrees with the template's static_asserts", "[nvrtc]",
                                         check_agreement);

}  // namespace
