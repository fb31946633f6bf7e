// --shapes FILE, where "-" is standard input: read through /dev/stdin, so that the shapes file's
// own checks (its size limit, binary content) apply to a pipe as to a file, and its messages name
// it "/dev/stdin:LINE: ...".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "error.hpp"
#include "problem.hpp"

namespace gemmtune {

inline std::filesystem::path shapes_file_path(const std::string& argument) {
  return argument == "-" ? std::filesystem::path("/dev/stdin") : std::filesystem::path(argument);
}

// The grammar reads batched problems, but this build measures plain GEMMs only: a batched one
// would be timed as a batch of 1 and stored under the batch's key. Throws InputError.
template <typename ProblemRange>
void refuse_batched_problems(const ProblemRange& problems) {
  for (const Problem& problem : problems) {
    if (problem.batch != 1) {
      throw InputError(to_string(problem) + ": batched problems cannot be measured by this build yet");
    }
  }
}

}  // namespace gemmtune
