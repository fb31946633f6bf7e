#include "problem.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "text.hpp"

namespace gemmtune {
namespace {

constexpr const char* kForms =
    "a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]'";

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = text.find_first_not_of(" \t");
  while (start != std::string_view::npos) {
    const std::size_t end = text.find_first_of(" \t", start);
    fields.push_back(text.substr(start, end - start));
    start = text.find_first_not_of(" \t", end);
  }
  return fields;
}

std::vector<std::string_view> split_dimensions(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find_first_of("xX", start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// "4096x4096x4096" (or with 'X') -> {M, N, K}, each through parse_dimension.
std::array<int, 3> parse_dimensions(std::string_view text) {
  const std::vector<std::string_view> parts = split_dimensions(text);
  if (parts.size() != 3) {
    throw std::invalid_argument(quoted(text) + ": too " + (parts.size() > 3 ? "many" : "few") + " dimensions (" +
                                std::to_string(parts.size()) + "; MxNxK has 3)");
  }
  return {parse_dimension(parts[0], "M"), parse_dimension(parts[1], "N"), parse_dimension(parts[2], "K")};
}

std::string ordinal(std::size_t n) {
  static constexpr const char* kOrdinals[] = {"first", "second", "third", "fourth", "fifth"};
  return n < 5 ? kOrdinals[n] : "field " + std::to_string(n + 1);
}

void refuse_extra_field(const std::vector<std::string_view>& fields, std::size_t allowed) {
  if (fields.size() > allowed) {
    throw std::invalid_argument("unexpected " + ordinal(allowed) + " field " + quoted(fields[allowed]) + " (" + kForms +
                                ")");
  }
}

// A "0x..." first field is a hexadecimal number gone wrong, not "0 x ..." sizes: reading it as a
// number gives the clearer "M must be a positive integer, got '0x10'".
bool is_sizes_field(std::string_view field) {
  const bool hex_prefix = field.size() > 1 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X');
  return !hex_prefix && field.find_first_of("xX") != std::string_view::npos;
}

std::string matrix_too_large(const char* matrix, const char* product, std::int64_t elements) {
  return std::string(matrix) + " has " + product + " = " + std::to_string(elements) +
         " elements; the limit is 2^31 - 1 so that element indices fit in 32-bit ints";
}

// A batch field: 'b' or 'B' then the count ("b64"). No layout name starts with 'b', and no size
// field does, so the field is recognised by its first character alone.
bool is_batch_field(std::string_view field) { return !field.empty() && (field[0] == 'b' || field[0] == 'B'); }

int parse_batch_field(std::string_view field) { return parse_batch(field.substr(1)); }

// Parses a trailing batch field into `problem` and removes it from `fields`; refuses one that is
// not last.
void take_batch_field(std::vector<std::string_view>& fields, Problem& problem) {
  if (fields.size() > 1 && is_batch_field(fields.back())) {
    problem.batch = parse_batch_field(fields.back());
    fields.pop_back();
  }
  for (std::size_t i = 1; i < fields.size(); ++i) {
    if (is_batch_field(fields[i])) {
      throw std::invalid_argument("the batch " + quoted(fields[i]) + " must be the last field (" + kForms + ")");
    }
  }
}

// parse_problem's work; throws std::invalid_argument with the reason alone.
Problem parse_fields(std::string_view text, Layout default_layout) {
  std::vector<std::string_view> fields = split_fields(text);
  if (fields.empty()) throw std::invalid_argument(std::string("no problem given (") + kForms + ")");
  Problem problem;
  take_batch_field(fields, problem);
  std::array<int, 3> sizes{};
  if (fields[0].find(':') != std::string_view::npos) {
    refuse_extra_field(fields, 1);
    std::string_view head = fields[0];
    if (const std::size_t colon = head.rfind(':'); is_batch_field(head.substr(colon + 1))) {
      if (problem.batch != 1) throw std::invalid_argument("the batch is given twice");
      problem.batch = parse_batch_field(head.substr(colon + 1));
      head = head.substr(0, colon);
    }
    const std::size_t colon = head.find(':');
    problem.layout = colon == std::string_view::npos ? default_layout : parse_layout(head.substr(0, colon));
    sizes = parse_dimensions(head.substr(colon == std::string_view::npos ? 0 : colon + 1));
  } else if (is_sizes_field(fields[0])) {
    refuse_extra_field(fields, 2);
    sizes = parse_dimensions(fields[0]);
    problem.layout = fields.size() > 1 ? parse_layout(fields[1]) : default_layout;
  } else {
    static constexpr const char* kNames[] = {"M", "N", "K"};
    for (std::size_t i = 0; i < 3; ++i) {
      if (i >= fields.size()) throw std::invalid_argument(std::string("missing ") + kNames[i] + " (" + kForms + ")");
      sizes[i] = parse_dimension(fields[i], kNames[i]);
    }
    refuse_extra_field(fields, 4);
    problem.layout = fields.size() > 3 ? parse_layout(fields[3]) : default_layout;
  }
  problem.M = sizes[0];
  problem.N = sizes[1];
  problem.K = sizes[2];
  if (auto violation = problem_limit_violation(problem)) throw std::invalid_argument(*violation);
  return problem;
}

}  // namespace

std::string_view layout_name(Layout layout) {
  switch (layout) {
    case Layout::NN: return "nn";
    case Layout::NT: return "nt";
    case Layout::TN: return "tn";
    case Layout::TT: return "tt";
  }
  return "??";
}

Layout parse_layout(std::string_view text) {
  const std::string key = lower(text);
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    if (key == layout_name(layout)) return layout;
  }
  throw std::invalid_argument("unknown layout " + quoted(text) + " (expected nn, nt, tn or tt)");
}

double Problem::flops() const { return 2.0 * M * N * static_cast<double>(K) * batch; }

double Problem::min_bytes() const {
  return 4.0 * batch * (static_cast<double>(M) * K + static_cast<double>(K) * N + static_cast<double>(M) * N);
}

std::string to_string(const Problem& problem) {
  return std::string(layout_name(problem.layout)) + ':' + std::to_string(problem.M) + 'x' +
         std::to_string(problem.N) + 'x' + std::to_string(problem.K) +
         (problem.batch == 1 ? std::string() : ":b" + std::to_string(problem.batch));
}

ProblemSyntaxError::ProblemSyntaxError(std::string_view text, const std::string& reason)
    : std::invalid_argument("problem " + quoted(text) + ": " + reason), reason_(reason) {}

Problem parse_problem(std::string_view text, Layout default_layout) {
  try {
    return parse_fields(text, default_layout);
  } catch (const std::invalid_argument& error) {
    throw ProblemSyntaxError(text, error.what());
  }
}

namespace {

// `text` as a count in 1..`maximum` (described as `maximum_text`); the work of parse_dimension and
// parse_batch.
int parse_count(std::string_view text, std::string_view name, int maximum, const std::string& maximum_text) {
  const std::string not_positive = std::string(name) + " must be a positive integer, got " + quoted(text);
  // Digits only: from_chars alone would take a leading '-' and stop quietly at "12abc" or "1e3".
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    throw std::invalid_argument(not_positive);
  }
  std::int64_t value = 0;
  const std::from_chars_result parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec == std::errc::result_out_of_range || value > maximum) {
    throw std::invalid_argument(std::string(name) + " = " + shortened(text) + " is above the maximum " + maximum_text);
  }
  if (value == 0) throw std::invalid_argument(not_positive);
  return static_cast<int>(value);
}

}  // namespace

int parse_dimension(std::string_view text, std::string_view name) {
  return parse_count(text, name, kMaxDimension, std::to_string(kMaxDimension) + " (2^20)");
}

int parse_batch(std::string_view text) {
  return parse_count(text, "batch", kMaxBatch, std::to_string(kMaxBatch) + " (a grid dimension's limit)");
}

std::optional<std::string> problem_limit_violation(const Problem& problem) {
  for (const auto& [name, size] : {std::pair{"M", problem.M}, {"N", problem.N}, {"K", problem.K}}) {
    if (size < 1 || size > kMaxDimension) {
      return std::string(name) + " = " + std::to_string(size) + " is outside 1.." + std::to_string(kMaxDimension);
    }
  }
  if (problem.batch < 1 || problem.batch > kMaxBatch) {
    return "batch = " + std::to_string(problem.batch) + " is outside 1.." + std::to_string(kMaxBatch);
  }
  const std::int64_t m = problem.M, n = problem.N, k = problem.K;
  if (m * k > kMaxMatrixElements) return matrix_too_large("A", "M*K", m * k);
  if (k * n > kMaxMatrixElements) return matrix_too_large("B", "K*N", k * n);
  if (m * n > kMaxMatrixElements) return matrix_too_large("C", "M*N", m * n);
  return std::nullopt;
}

double log_distance(const Problem& a, const Problem& b) {
  if (a.layout != b.layout) return std::numeric_limits<double>::infinity();
  const auto term = [](int x, int y) {
    const double ratio = std::log2(static_cast<double>(x) / static_cast<double>(y));
    return ratio * ratio;
  };
  return std::sqrt(term(a.M, b.M) + term(a.N, b.N) + term(a.K, b.K) + term(a.batch, b.batch));
}

}  // namespace gemmtune
