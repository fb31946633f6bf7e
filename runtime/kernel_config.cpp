#include "kernel_config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "echoed_text.hpp"
#include "kernel_family.hpp"

namespace gemmtune {
namespace {

constexpr std::string_view kNamePrefix = "gemmtune_sgemm_";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// "bm128" with expected tag "bm" -> 128; throws when the tag differs or the value is not a
// positive decimal without leading zeros (so that the name stays canonical).
int parse_field(std::string_view field, std::string_view tag, std::string_view name) {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("kernel name " + quoted(name) + ": " + why);
  };
  if (field.substr(0, tag.size()) != tag) {
    fail("expected field '" + std::string(tag) + "<value>', found '" + std::string(field) + "'");
  }
  const std::string_view digits = field.substr(tag.size());
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
      value <= 0 || digits.front() == '0') {
    fail("field '" + std::string(field) + "' needs a positive whole number after '" +
         std::string(tag) + "'");
  }
  return value;
}

}  // namespace

std::string_view layout_name(Layout layout) {
  switch (layout) {
    case Layout::NN: return "nn";
    case Layout::NT: return "nt";
    case Layout::TN: return "tn";
    case Layout::TT: return "tt";
  }
  return "??";
}

Layout parse_layout(std::string_view text) {
  const std::string key = lower(text);
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    if (key == layout_name(layout)) return layout;
  }
  throw std::invalid_argument("unknown layout " + quoted(text) + " (expected nn, nt, tn or tt)");
}

int KernelConfig::get(std::string_view param) const {
  for (const auto& [name, value] : params) {
    if (name == param) return value;
  }
  throw std::out_of_range("configuration of family '" + family + "' has no parameter '" +
                          std::string(param) + "'");
}

void KernelConfig::set(std::string_view param, int value) {
  for (auto& [name, current] : params) {
    if (name == param) {
      current = value;
      return;
    }
  }
  throw std::out_of_range("configuration of family '" + family + "' has no parameter '" +
                          std::string(param) + "'");
}

std::string kernel_name(const KernelConfig& config) {
  std::string name(kNamePrefix);
  name += config.family;
  name += '_';
  name += layout_name(config.layout);
  for (const auto& [param, value] : config.params) {
    name += '_' + lower(param) + std::to_string(value);
  }
  name += "_align" + std::to_string(config.align);
  return name;
}

KernelConfig parse_kernel_name(std::string_view name) {
  if (name.substr(0, kNamePrefix.size()) != kNamePrefix) {
    throw std::invalid_argument("kernel name " + quoted(name) + " does not start with '" +
                                std::string(kNamePrefix) + "'");
  }
  const std::vector<std::string_view> fields = split(name.substr(kNamePrefix.size()), '_');
  // family, layout, one field per parameter, align
  const KernelFamily& family = find_family(fields.front());
  const std::vector<ParamSpec>& specs = family.params();
  if (fields.size() != specs.size() + 3) {
    throw std::invalid_argument("kernel name " + quoted(name) + ": family '" +
                                std::string(family.name()) + "' takes " +
                                std::to_string(specs.size()) + " parameters, the name has " +
                                std::to_string(static_cast<long>(fields.size()) - 3));
  }
  KernelConfig config;
  config.family = std::string(family.name());
  try {
    config.layout = parse_layout(fields[1]);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("kernel name " + quoted(name) + ": " + error.what());
  }
  if (fields[1] != layout_name(config.layout)) {
    throw std::invalid_argument("kernel name " + quoted(name) + ": layout must be lower case");
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    config.params.emplace_back(specs[i].name, parse_field(fields[i + 2], lower(specs[i].name), name));
  }
  config.align = parse_field(fields.back(), "align", name);
  return config;
}

}  // namespace gemmtune
