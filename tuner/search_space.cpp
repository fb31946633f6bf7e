#include "search_space.hpp"

#include <algorithm>
#include <stdexcept>

#include "family_registry.hpp"

namespace gemmtune::tuner {
namespace {

std::vector<int> sorted_unique(std::vector<int> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

std::string list_text(const std::vector<int>& values) {
  std::string text;
  for (int value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

}  // namespace

std::vector<KernelConfig> enumerate_space(const KernelFamily& family, Layout layout, int align) {
  const std::vector<int> aligns = family.alignments();
  if (std::find(aligns.begin(), aligns.end(), align) == aligns.end()) {
    throw std::invalid_argument(std::string(family.name()) + " takes ALIGN " + list_text(aligns) +
                                ", not " + std::to_string(align));
  }
  const std::vector<ParamSpec>& specs = family.params();
  std::vector<KernelConfig> space;
  for (const ParamSpec& spec : specs) {
    if (spec.search_values.empty()) return space;  // one empty list: an empty product
  }
  KernelConfig config = family.default_config(layout, align);
  // An odometer over the search value lists, the last parameter turning fastest.
  std::vector<std::size_t> digit(specs.size(), 0);
  while (true) {
    for (std::size_t i = 0; i < specs.size(); ++i) config.params[i].second = specs[i].search_values[digit[i]];
    if (!family.check(config)) space.push_back(config);
    std::size_t i = specs.size();
    while (i > 0 && ++digit[i - 1] == specs[i - 1].search_values.size()) digit[--i] = 0;
    if (i == 0) return space;
  }
}

std::vector<KernelConfig> enumerate_all(Layout layout, int max_align,
                                        const std::vector<std::string>& family_names) {
  std::vector<const KernelFamily*> families;
  if (family_names.empty()) {
    families = all_families();
  } else {
    for (const std::string& name : family_names) {
      const KernelFamily* family = &find_family(name);
      if (std::find(families.begin(), families.end(), family) == families.end()) families.push_back(family);
    }
  }
  std::vector<KernelConfig> space;
  for (const KernelFamily* family : families) {
    for (int align : family->alignments()) {
      if (align > max_align) continue;
      std::vector<KernelConfig> part = enumerate_space(*family, layout, align);
      space.insert(space.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
    }
  }
  return space;
}

std::vector<KernelConfig> neighbours(const KernelConfig& config) {
  const KernelFamily& family = find_family(config.family);
  const std::vector<ParamSpec>& specs = family.params();
  std::vector<KernelConfig> found;
  for (std::size_t i = 0; i < specs.size() && i < config.params.size(); ++i) {
    const std::vector<int> values = sorted_unique(specs[i].search_values);
    const int current = config.params[i].second;
    // The current value need not be in the list (a seed from an older list): "one step" is then
    // the nearest listed value on each side.
    const auto above = std::upper_bound(values.begin(), values.end(), current);
    const auto below = std::lower_bound(values.begin(), values.end(), current);
    KernelConfig candidate = config;
    for (auto it = below; it != values.begin();) {
      candidate.params[i].second = *--it;
      if (!family.check(candidate)) {
        found.push_back(candidate);
        break;
      }
    }
    for (auto it = above; it != values.end(); ++it) {
      candidate.params[i].second = *it;
      if (!family.check(candidate)) {
        found.push_back(candidate);
        break;
      }
    }
  }
  return found;
}

}  // namespace gemmtune::tuner
