// tuner::parse_shapes_text, what `tune --shapes` reads: any text either yields problems within
// the limits, each once, with the lines they came from, or is refused with a ShapesFileError
// whose message starts "FILE:LINE: " (or "FILE: " for the file as a whole). A parsed file
// round-trips through to_string, and CRLF line ends read as LF ones.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <set>
#include <string>

#include "fuzz_invariant.hpp"
#include "shapes_file.hpp"

using gemmtune::fuzz::require;
using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

constexpr std::string_view kLabel = "fuzz.txt";

int line_count(std::string_view text) {
  const auto newlines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

std::string with_crlf(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

void check_refusal(const ShapesFileError& error, std::string_view text) {
  require(error.file() == kLabel, "the error names the file", text);
  require(error.line() >= 0 && error.line() <= line_count(text), "the error's line is in the file", text);
  const std::string prefix =
      std::string(kLabel) + (error.line() > 0 ? ":" + std::to_string(error.line()) : std::string()) + ": ";
  require(std::string_view(error.what()).starts_with(prefix), "the message starts FILE:LINE: ", text);
  require(!error.reason().empty(), "the error says what is wrong", text);
}

void check_parsed(const ShapesFile& file, std::string_view text) {
  require(!file.problems.empty(), "a parsed file has problems", text);
  std::set<Problem> seen;
  int previous_line = 0;
  std::string canonical;
  for (const ProblemSpec& spec : file.problems) {
    require(spec.line > previous_line && spec.line <= line_count(text), "problems in file order", text);
    previous_line = spec.line;
    require(!problem_limit_violation(spec), "every problem is within the limits", text);
    require(seen.insert(spec).second, "each problem once", text);
    canonical += to_string(spec) + '\n';
  }
  for (const DuplicateProblem& duplicate : file.duplicates) {
    require(seen.count(duplicate.problem) == 1 && duplicate.first_line < duplicate.line,
            "a duplicate repeats an earlier problem", text);
  }
  const ShapesFile again = parse_shapes_text(canonical, kLabel);
  require(again.problems.size() == file.problems.size() && again.duplicates.empty(), "to_string round-trips", text);
  for (std::size_t i = 0; i < again.problems.size(); ++i) {
    require(static_cast<const Problem&>(again.problems[i]) == file.problems[i], "to_string round-trips", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // duplicate lines are logged as warnings
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text = gemmtune::fuzz::as_text(data, size);
  try {
    std::optional<ShapesFile> file;
    std::string refusal;
    try {
      file = parse_shapes_text(text, kLabel);
    } catch (const ShapesFileError& error) {
      check_refusal(error, text);
      refusal = error.what();
    }
    if (file) check_parsed(*file, text);
    if (text.find('\r') == std::string_view::npos) {
      // The same lines with CRLF ends: the same problems from the same lines, or the same refusal.
      std::optional<ShapesFile> crlf;
      std::string crlf_refusal;
      try {
        crlf = parse_shapes_text(with_crlf(text), kLabel);
      } catch (const ShapesFileError& error) {
        crlf_refusal = error.what();
      }
      require(crlf.has_value() == file.has_value() && crlf_refusal == refusal, "CRLF ends read as LF ends", text);
      if (file) {
        require(crlf->problems == file->problems && crlf->duplicates == file->duplicates, "CRLF ends read as LF ends",
                text);
      }
    }
  } catch (const std::exception& error) {
    gemmtune::fuzz::invariant_broken("an undocumented exception: " + std::string(error.what()), text);
  }
  return 0;
}
