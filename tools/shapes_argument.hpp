// --shapes FILE, where "-" is standard input: read through /dev/stdin, so that the shapes file's
// own checks (its size limit, binary content) apply to a pipe as to a file, and its messages name
// it "/dev/stdin:LINE: ...". And the problems of the benchmarks' --shape and --shapes together.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "problem.hpp"
#include "shapes_file.hpp"

namespace gemmtune {

inline std::filesystem::path shapes_file_path(const std::string& argument) {
  return argument == "-" ? std::filesystem::path("/dev/stdin") : std::filesystem::path(argument);
}

// The problems of --shape texts (LAYOUT:MxNxK[:bBATCH], or MxNxK in `default_layout`) and of a
// --shapes file (none when `shapes_file` is empty), in that order. Throws BadInput for a bad text,
// layout or line, and when there is no problem at all.
inline std::vector<Problem> problems_from_arguments(const std::vector<std::string>& shapes,
                                                    const std::string& shapes_file, const std::string& default_layout) {
  std::vector<Problem> problems;
  try {
    const Layout layout = parse_layout(default_layout);
    for (const std::string& text : shapes) problems.push_back(parse_problem(text, layout));
    if (!shapes_file.empty()) {
      for (const tuner::ProblemSpec& spec : tuner::parse_shapes_file(shapes_file_path(shapes_file)).problems) {
        problems.push_back(spec);
      }
    }
  } catch (const tuner::ShapesFileError& error) {
    throw BadInput(error.what());
  } catch (const std::invalid_argument& error) {
    throw BadInput(error.what());
  }
  if (problems.empty()) throw BadInput("no problem given: use --shape MxNxK or --shapes FILE");
  return problems;
}

}  // namespace gemmtune
