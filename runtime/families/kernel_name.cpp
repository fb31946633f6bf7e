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

// Whether the name leaves out this parameter's value (ParamSpec::named_off_default_only).
bool left_out_of_name(const std::vector<ParamSpec>& specs, std::size_t index, int value) {
  return index < specs.size() && specs[index].named_off_default_only && value == specs[index].default_value;
}

}  // namespace

std::string kernel_name(const KernelConfig& config) {
  std::string name(kNamePrefix);
  name += config.family;
  name += '_';
  name += layout_name(config.layout);
  const std::vector<ParamSpec>* specs = nullptr;
  if (const KernelFamily* family = find_family_or_null(config.family)) specs = &family->params();
  for (std::size_t i = 0; i < config.params.size(); ++i) {
    const auto& [param, value] = config.params[i];
    if (specs && left_out_of_name(*specs, i, value)) continue;
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
  std::size_t optional = 0;
  for (const ParamSpec& spec : specs) optional += spec.named_off_default_only ? 1 : 0;
  if (fields.size() > specs.size() + 3 || fields.size() + optional < specs.size() + 3) {
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
  // Fields between the layout and the alignment, one a parameter in order; one left out of the
  // name (named_off_default_only) is its default, and naming it at its default is not canonical.
  std::size_t field = 2;
  const std::size_t align_field = fields.size() - 1;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string tag = lower(specs[i].name);
    const bool present = field < align_field && fields[field].substr(0, tag.size()) == tag;
    if (!present && specs[i].named_off_default_only) {
      config.params.emplace_back(specs[i].name, specs[i].default_value);
      continue;
    }
    if (field >= align_field) {
      throw std::invalid_argument("kernel name '" + std::string(name) + "': no field for parameter '" + tag + "'");
    }
    const int value = parse_field(fields[field++], tag, name);
    if (left_out_of_name(specs, i, value)) {
      throw std::invalid_argument("kernel name '" + std::string(name) + "': '" + tag + std::to_string(value) +
                                  "' is the default, which names leave out");
    }
    config.params.emplace_back(specs[i].name, value);
  }
  if (field != align_field) {
    throw std::invalid_argument("kernel name '" + std::string(name) + "': unexpected field '" +
                                std::string(fields[field]) + "' where 'align<n>' belongs");
  }
  config.align = parse_field(fields.back(), "align", name);
  return config;
}

}  // namespace gemmtune
