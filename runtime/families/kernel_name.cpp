#include "kernel_name.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

#include "family_registry.hpp"
#include "text.hpp"

namespace gemmtune {
namespace {

constexpr std::string_view kNamePrefix = "gemmtune_sgemm_";

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
    throw std::invalid_argument("kernel name '" + std::string(name) + "': " + why);
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
    throw std::invalid_argument("kernel name '" + std::string(name) + "' does not start with '" +
                                std::string(kNamePrefix) + "'");
  }
  const std::vector<std::string_view> fields = split(name.substr(kNamePrefix.size()), '_');
  // family, layout, one field per parameter, align
  const KernelFamily& family = find_family(fields.front());
  const std::vector<ParamSpec>& specs = family.params();
  if (fields.size() != specs.size() + 3) {
    throw std::invalid_argument("kernel name '" + std::string(name) + "': family '" +
                                std::string(family.name()) + "' takes " +
                                std::to_string(specs.size()) + " parameters, the name has " +
                                std::to_string(static_cast<long>(fields.size()) - 3));
  }
  KernelConfig config;
  config.family = std::string(family.name());
  try {
    config.layout = parse_layout(fields[1]);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("kernel name '" + std::string(name) + "': " + error.what());
  }
  if (fields[1] != layout_name(config.layout)) {
    throw std::invalid_argument("kernel name '" + std::string(name) + "': layout must be lower case");
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    config.params.emplace_back(specs[i].name, parse_field(fields[i + 2], lower(specs[i].name), name));
  }
  config.align = parse_field(fields.back(), "align", name);
  return config;
}

}  // namespace gemmtune
