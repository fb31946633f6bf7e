// --shapes FILE, where "-" is standard input: read through /dev/stdin, so that the shapes file's
// own checks (its size limit, binary content) apply to a pipe as to a file, and its messages name
// it "/dev/stdin:LINE: ...".
#pragma once

#include <filesystem>
#include <string>

namespace gemmtune {

inline std::filesystem::path shapes_file_path(const std::string& argument) {
  return argument == "-" ? std::filesystem::path("/dev/stdin") : std::filesystem::path(argument);
}

}  // namespace gemmtune
