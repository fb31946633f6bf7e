#include "kernel_family.hpp"

#include <algorithm>
#include <cstring>

#include "tiny_scan.h"

namespace gemmtune {

Prepass tiny_scan_prepass(const Problem& problem, long long flags_offset) {
  const long long flags = tiny_flags_of_call(problem.M, problem.N, problem.K, problem.batch);
  const unsigned blocks = static_cast<unsigned>(std::min<long long>(flags, 1 << 20));
  return Prepass{kTinyScanKernelName, {{blocks, 1, 1}, {kTinyScanThreads, 1, 1}, 0}, flags_offset,
                 (static_cast<double>(problem.M) + problem.N) * problem.K * std::max(1, problem.batch)};
}

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
  if (!supports_layout(config.layout)) return who + "layout " + std::string(layout_name(config.layout)) + " is not served";
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

std::vector<KernelConfig> KernelFamily::default_configs(Layout layout, int align) const {
  std::vector<KernelConfig> configs{default_config(layout, align)};
  for (const auto& changes : shape_defaults()) {
    KernelConfig config = default_config(layout, align);
    for (const auto& [param, value] : changes) config.set(param, value);
    if (!check(config)) configs.push_back(std::move(config));
  }
  return configs;
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

std::optional<std::string> KernelFamily::batch_refusal(const KernelConfig& /*config*/, bool /*pointer_arrays*/) const {
  return std::string(name()) + " serves plain (unbatched) calls only";
}

}  // namespace gemmtune
