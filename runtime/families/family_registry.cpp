#include "family_registry.hpp"

#include <stdexcept>
#include <string>

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
