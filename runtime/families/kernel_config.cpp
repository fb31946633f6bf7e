#include "kernel_config.hpp"

#include <stdexcept>

namespace gemmtune {

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

}  // namespace gemmtune
