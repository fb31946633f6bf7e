#include "family_registry.hpp"

#include <stdexcept>
#include <string>

namespace gemmtune {

// The built-in families, each defined in its own <name>_family.cpp.
const KernelFamily& naive_family();
const KernelFamily& coalesced_family();
const KernelFamily& smem_family();
const KernelFamily& reg1d_family();
const KernelFamily& reg2d_family();
const KernelFamily& vectorized_family();
const KernelFamily& warptile_family();
const KernelFamily& tf32x3_family();
const KernelFamily& wgmma_family();
const KernelFamily& tmawgmma_family();
const KernelFamily& tmatf32_family();
const KernelFamily& skinny_family();

namespace {

std::vector<const KernelFamily*>& registry() {
  // The seed chapter's six steps in order, then the tuned workhorses: gemmbench numbers its rows
  // (v0, v1, ...) in this order.
  static std::vector<const KernelFamily*> families = {
      &naive_family(),    &coalesced_family(), &smem_family(),  &reg1d_family(),
      &reg2d_family(),    &vectorized_family(), &warptile_family(), &tf32x3_family(),
      &wgmma_family(),    &tmawgmma_family(), &tmatf32_family(), &skinny_family()};
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

const KernelFamily* find_family_or_null(std::string_view name) {
  for (const KernelFamily* family : all_families()) {
    if (family->name() == name) return family;
  }
  return nullptr;
}

const KernelFamily& find_family(std::string_view name) {
  if (const KernelFamily* family = find_family_or_null(name)) return *family;
  std::string known;
  for (const KernelFamily* family : all_families()) known += (known.empty() ? "" : ", ") + std::string(family->name());
  throw std::invalid_argument("unknown kernel family '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace gemmtune
