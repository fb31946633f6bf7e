// The shapes file `tune --shapes` reads: one problem a line, in the grammar of parse_problem
// (problem.hpp), which every command line shares.
//
//   # comment lines, blank lines and trailing comments are ignored
//   4096 4096 4096          M N K, layout nn
//   1024 4096 512  tn       M N K layout (nn, nt, tn, tt; any case)
//   4096x4096x4096 nt       MxNxK [layout]
//   nn:256x256x8192         the form tools print (to_string(Problem))
//   128 128 128 nn b64      an optional last field bBATCH: a batch of 64 products (strided
//   nn:128x128x128:b64      batched); the form tools print for a batch other than 1
//
// LF or CRLF line ends; a UTF-8 byte-order mark is skipped. The whole file is validated before
// anything is returned, so that a bad line stops a run before any GPU work.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "problem.hpp"

namespace gemmtune::tuner {

// "FILE:LINE: what is wrong" for a bad line, "FILE: what is wrong" for the file as a whole
// (missing, a directory, unreadable, no problems in it).
class ShapesFileError : public InputError {
 public:
  ShapesFileError(std::string_view file, int line, const std::string& reason);

  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }  // 1-based; 0 when about the whole file
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  int line_;
  std::string reason_;
};

// A problem and the line it came from, so later errors can point at it. It is a Problem (the
// layout, sizes and batch); slicing it to one is intended.
struct ProblemSpec : Problem {
  int line = 0;

  bool operator==(const ProblemSpec&) const = default;
};

// A line that repeats an earlier problem; it is skipped.
struct DuplicateProblem {
  Problem problem;
  int line = 0;
  int first_line = 0;  // where the problem was first listed

  bool operator==(const DuplicateProblem&) const = default;
};

struct ShapesFile {
  std::vector<ProblemSpec> problems;          // in file order, each problem once
  std::vector<DuplicateProblem> duplicates;  // also logged as warnings through spdlog
};

// Files larger than this are refused unread: no list of shapes is that long, and it keeps a
// mistaken path (a device, a huge binary) from being read whole.
inline constexpr std::size_t kMaxShapesFileBytes = 16u << 20;

// Throws ShapesFileError.
ShapesFile parse_shapes_file(const std::filesystem::path& path);
// The same for text already in memory; `file_label` names it in messages.
ShapesFile parse_shapes_text(std::string_view text, std::string_view file_label);

}  // namespace gemmtune::tuner
