#include "arch_name.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace gemmtune {
namespace {

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool strip_prefix(std::string& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.erase(0, prefix.size());
  return true;
}

}  // namespace

std::string canonical_arch(std::string_view text) {
  std::string arch;
  for (unsigned char c : text) {
    if (!std::isspace(c)) arch += static_cast<char>(std::tolower(c));
  }
  const bool named = strip_prefix(arch, "sm_") || strip_prefix(arch, "sm") || strip_prefix(arch, "compute_") ||
                     strip_prefix(arch, "compute");
  // The arch-specific ("a") and family ("f") variants run on the same GPU as the base arch.
  if (named && !arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.pop_back();
  std::string number;
  if (const std::size_t dot = arch.find('.'); !named && dot != std::string::npos) {
    // A compute capability: major.minor, as nvidia-smi --query-gpu=compute_cap prints it.
    const std::string major = arch.substr(0, dot), minor = arch.substr(dot + 1);
    if (all_digits(major) && major.size() <= 2 && all_digits(minor) && minor.size() == 1) number = major + minor;
  } else if (all_digits(arch) && arch.size() >= 2 && arch.size() <= 3) {
    number = arch;
  }
  if (number.empty() || number.front() == '0') {
    throw std::invalid_argument("'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "...": "") +
                                "' is not a GPU arch: write it as sm_90 (also accepted: sm_90a, compute_90, the "
                                "compute capability 9.0, or 90)");
  }
  return "sm_" + number;
}

}  // namespace gemmtune
