#include "shapes_file.hpp"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>

namespace gemmtune::tuner {
namespace {

constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

std::string errno_message(int code) { return std::generic_category().message(code); }

std::string hex_byte(unsigned char byte) {
  char text[5];
  std::snprintf(text, sizeof text, "0x%02X", byte);
  return text;
}

// Refuses bytes no text editor writes: a file with them is binary or mangled, and reporting that
// beats reporting "M must be a positive integer" about garbage.
void check_is_text(std::string_view line) {
  for (const char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == 0) {
      throw std::invalid_argument("contains a NUL byte: this looks like a binary file, not a shapes file");
    }
    if (byte == '\r') {
      throw std::invalid_argument("carriage return inside a line (only LF and CRLF line ends are accepted)");
    }
    if ((byte < 0x20 && byte != '\t') || byte == 0x7F) {
      throw std::invalid_argument("contains the control character " + hex_byte(byte) +
                                  ": this looks like a binary file, not a shapes file");
    }
  }
}

// The problem on one line (comment and line end already removed), or nullopt for a blank line.
// Throws ProblemSyntaxError saying what is wrong.
std::optional<Problem> parse_line(std::string_view content) {
  if (content.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
  return parse_problem(content);
}

std::string read_whole_file(const std::filesystem::path& path, std::string_view label) {
  const auto fail = [&](const std::string& reason) { return ShapesFileError(label, 0, reason); };
  std::error_code status_error;
  const std::filesystem::file_status status = std::filesystem::status(path, status_error);
  if (!std::filesystem::exists(status)) {
    if (status.type() == std::filesystem::file_type::not_found) throw fail("no such file");
    throw fail("cannot access: " + status_error.message());
  }
  if (std::filesystem::is_directory(status)) throw fail("is a directory, not a shapes file");

  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw fail("cannot open: " + errno_message(errno));
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= kMaxShapesFileBytes) {
    const std::size_t count = std::fread(buffer, 1, sizeof buffer, file.get());
    text.append(buffer, count);
    if (count < sizeof buffer) break;
  }
  if (std::ferror(file.get())) throw fail("cannot read: " + errno_message(errno));
  if (text.size() > kMaxShapesFileBytes) {
    throw fail("larger than " + std::to_string(kMaxShapesFileBytes >> 20) + " MiB: not a shapes file");
  }
  return text;
}

}  // namespace

ShapesFileError::ShapesFileError(std::string_view file, int line, const std::string& reason)
    : InputError(std::string(file) + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + reason),
      file_(file),
      line_(line),
      reason_(reason) {}

ShapesFile parse_shapes_text(std::string_view text, std::string_view file_label) {
  if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
  ShapesFile result;
  std::map<Problem, int> first_lines;
  int line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    ++line_number;
    const std::size_t newline = text.find('\n', start);
    std::string_view line = text.substr(start, newline - start);
    start = newline == std::string_view::npos ? text.size() : newline + 1;
    if (line.ends_with('\r')) line.remove_suffix(1);

    std::optional<Problem> problem;
    try {
      check_is_text(line);
      problem = parse_line(line.substr(0, line.find('#')));
    } catch (const ProblemSyntaxError& error) {
      throw ShapesFileError(file_label, line_number, error.reason());
    } catch (const std::invalid_argument& error) {
      throw ShapesFileError(file_label, line_number, error.what());
    }
    if (!problem) continue;
    const auto [first, inserted] = first_lines.emplace(*problem, line_number);
    if (inserted) {
      result.problems.push_back(ProblemSpec{*problem, line_number});
    } else {
      result.duplicates.push_back({*problem, line_number, first->second});
      spdlog::warn("{}:{}: {} repeats line {}; measured once", file_label, line_number,
                   to_string(*problem), first->second);
    }
  }
  if (result.problems.empty()) {
    throw ShapesFileError(file_label, 0, "no problems in it (empty, or only comments and blank lines)");
  }
  return result;
}

ShapesFile parse_shapes_file(const std::filesystem::path& path) {
  const std::string label = path.string();
  return parse_shapes_text(read_whole_file(path, label), label);
}

}  // namespace gemmtune::tuner
