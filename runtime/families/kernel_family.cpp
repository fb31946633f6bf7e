#include "kernel_family.hpp"

#include <algorithm>
#include <stdexcept>

#include "seed_families.hpp"
#include "tuned_families.hpp"

namespace gemmtune {
namespace {

std::vector<const KernelFamily*>& registry() {
  static std::vector<const KernelFamily*> families = [] {
    std::vector<const KernelFamily*> all = seed_families();
    for (const KernelFamily* family : tuned_families()) all.push_back(family);
    return all;
  }();
  return families;
}

}  // namespace

std::optional<std::string> KernelFamily::check(const KernelConfig& config) const {
  const std::string who = std::string(name()) + ": ";
  if (config.family != name()) {
    return who + "configuration belongs to family '" + config.family + "'";
  }
  const std::vector<ParamSpec>& specs = params();
  if (config.params.size() != specs.size()) {
    return who + "expected " + std::to_string(specs.size()) + " parameters, got " +
           std::to_string(config.params.size());
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (config.params[i].first != specs[i].name) {
      return who + "parameter " + std::to_string(i + 1) + " must be " + specs[i].name + ", not " +
             config.params[i].first;
    }
    // The bound keeps the families' legality arithmetic (products of a few parameters, in int)
    // far from overflow for any name, including names read from a database or a command line.
    if (config.params[i].second < 1 || config.params[i].second > kMaxParamValue) {
      return who + specs[i].name + " must be 1.." + std::to_string(kMaxParamValue) + ", not " +
             std::to_string(config.params[i].second);
    }
  }
  const std::vector<int> aligns = alignments();
  if (std::find(aligns.begin(), aligns.end(), config.align) == aligns.end()) {
    std::string allowed;
    for (int align : aligns) allowed += (allowed.empty() ? "" : ", ") + std::to_string(align);
    return who + "ALIGN must be one of " + allowed + ", not " + std::to_string(config.align);
  }
  return check_params(config);
}

KernelConfig KernelFamily::default_config(Layout layout, int align) const {
  KernelConfig config;
  config.family = std::string(name());
  config.layout = layout;
  config.align = align;
  for (const ParamSpec& spec : params()) config.params.emplace_back(spec.name, spec.default_value);
  return config;
}

std::string KernelFamily::instantiation(const KernelConfig& config) const {
  std::string text(kernel_template());
  text += '<';
  for (const auto& [param, value] : config.params) text += std::to_string(value) + ", ";
  static constexpr const char* kLayoutEnumerators[] = {"NN", "NT", "TN", "TT"};
  text += std::string("gemmtune::Layout::") + kLayoutEnumerators[static_cast<int>(config.layout)];
  text += ", " + std::to_string(config.align) + '>';
  return text;
}

std::size_t splitk_workspace_floats(long long tiles, int splitk, int M, int N) {
  if (splitk == 1) return 0;
  const long long groups = (splitk + kSplitkGroup - 1) / kSplitkGroup;
  const long long counters = tiles * groups + (groups > 1 ? tiles : 0);
  return static_cast<std::size_t>((counters + 3) / 4 * 4 + static_cast<long long>(splitk) * M * N);
}

std::optional<std::string> check_splitk(int splitk) {
  if (splitk > kSplitkGroup && splitk % kSplitkGroup != 0) {
    return "SPLITK above " + std::to_string(kSplitkGroup) + " must be a multiple of " + std::to_string(kSplitkGroup);
  }
  return std::nullopt;
}

const std::vector<const KernelFamily*>& all_families() { return registry(); }

void register_family(const KernelFamily& family) {
  const std::string_view name = family.name();
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string_view::npos) {
    throw std::invalid_argument("cannot register kernel family '" + std::string(name) +
                                "': a family name is lower-case letters and digits (it is a field of kernel names)");
  }
  for (const KernelFamily* known : registry()) {
    if (known->name() == name) {
      throw std::invalid_argument("cannot register kernel family '" + std::string(name) + "': the name is taken");
    }
  }
  registry().push_back(&family);
}

const KernelFamily& find_family(std::string_view name) {
  std::string known;
  for (const KernelFamily* family : all_families()) {
    if (family->name() == name) return *family;
    known += (known.empty() ? "" : ", ") + std::string(family->name());
  }
  throw std::invalid_argument("unknown kernel family '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace gemmtune
