// The kernel templates, embedded into the binaries at build time (cmake/EmbedFiles.cmake).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gemmtune {

struct EmbeddedFile {
  std::string_view name;  // path relative to kernel_templates/, e.g. "reg2d.cuh"
  std::string_view text;
};

// Every embedded file, sorted by name.
std::span<const EmbeddedFile> embedded_kernel_files();

// The text of one embedded file; throws std::out_of_range naming the file when it is absent.
std::string_view embedded_kernel_file(std::string_view name);

// A hex digest of every embedded file's name and text, then of the `extra` files' (a family's own
// source outside kernel_templates/): part of the key of a stored cubin, so a changed template
// never serves an old binary.
std::string kernel_sources_hash(std::span<const EmbeddedFile> extra = {});

}  // namespace gemmtune
