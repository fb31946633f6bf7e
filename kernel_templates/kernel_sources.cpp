#include "kernel_sources.hpp"

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>

namespace gemmtune {

std::string_view embedded_kernel_file(std::string_view name) {
  for (const EmbeddedFile& file : embedded_kernel_files()) {
    if (file.name == name) return file.text;
  }
  throw std::out_of_range("no embedded kernel template named '" + std::string(name) + "'");
}

std::string kernel_sources_hash(std::span<const EmbeddedFile> extra) {
  // FNV-1a, 64 bit: not cryptographic, only a change detector.
  std::uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](std::string_view bytes) {
    for (unsigned char byte : bytes) {
      hash ^= byte;
      hash *= 1099511628211ull;
    }
    hash ^= 0xff;  // separator, so that ("ab","c") and ("a","bc") differ
    hash *= 1099511628211ull;
  };
  for (std::span<const EmbeddedFile> files : {embedded_kernel_files(), extra}) {
    for (const EmbeddedFile& file : files) {
      mix(file.name);
      mix(file.text);
    }
  }
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(hash));
  return digest;
}

}  // namespace gemmtune
