// One GEMM problem: the operand layout, the sizes M, N, K and the batch count. The one value type
// the tuner, the database boundary (cache/problem_rows.hpp), dispatch and the tools share, with
// the one grammar every command line and shapes file reads problems in. Its text form
// "nn:4096x4096x4096" ("nn:128x128x128:b64" for a batch of 64) is the key of tuned shapes in logs
// and in the database.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gemm_params.h"

namespace gemmtune {

std::string_view layout_name(Layout layout);  // "nn", "nt", "tn", "tt"
// Parses "nn"/"nt"/"tn"/"tt" (case-insensitive); throws std::invalid_argument otherwise.
Layout parse_layout(std::string_view text);

// Limits on what can be tuned. A dimension above 2^20 is no realistic single-GPU SGEMM; and every
// matrix (A: M x K, B: K x N, C: M x N) must have fewer than 2^31 elements so that any element
// index fits in a 32-bit int: kernels may then compute offsets with int arithmetic.
inline constexpr int kMaxDimension = 1 << 20;
inline constexpr std::int64_t kMaxMatrixElements = (std::int64_t{1} << 31) - 1;
// The batch goes on a grid dimension (y or z), whose limit is 65535.
inline constexpr int kMaxBatch = 65535;

struct Problem {
  Layout layout = Layout::NN;
  int M = 0;
  int N = 0;
  int K = 0;
  // How many independent M x N x K products of one call (strided or pointer-array batched); 1 for
  // a plain GEMM. Last, so that Problem{layout, M, N, K} is a batch of 1.
  int batch = 1;

  // 2 * M * N * K * batch (one multiply and one add an inner-product term); double: it passes
  // 2^53 only far beyond the limits above.
  double flops() const;
  // The least global traffic a kernel can have: A and B read once, C written once (beta == 0),
  // for every batch entry.
  double min_bytes() const;

  auto operator<=>(const Problem&) const = default;
};

// "nn:4096x4096x4096"; "nn:128x128x128:b64" for batch 64 (a batch of 1 is not written, so that
// plain problems read as they always have).
std::string to_string(const Problem& problem);

// A text that is not a problem. what() reads "problem 'TEXT': REASON" (TEXT cut to a readable
// length); reason() is REASON alone, for messages that say where the text came from instead
// ("shapes.txt:3: REASON").
class ProblemSyntaxError : public std::invalid_argument {
 public:
  ProblemSyntaxError(std::string_view text, const std::string& reason);
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string reason_;
};

// The one grammar of a problem, wherever one is read (command lines, shapes files, databases):
//   [layout:]MxNxK[:bBATCH]   e.g. "nn:4096x4096x4096", "4096X4096X4096", "nn:128x128x128:b64"
//   MxNxK [layout] [bBATCH]   e.g. "4096x4096x4096 tn", "128x128x128 nn b64"
//   M N K [layout] [bBATCH]   e.g. "4096 4096 4096 tn", "128 128 128 b64"
// Fields are separated by spaces or tabs, 'x' or 'X' separates sizes, the layout is any case,
// and a problem that names none has `default_layout`; one that names no batch has batch 1. Sizes
// are decimal digits in 1..kMaxDimension, the batch 'b' (or 'B') and decimal digits in
// 1..kMaxBatch, and no matrix may reach kMaxMatrixElements (problem_limit_violation). Throws
// ProblemSyntaxError naming the fault: the field, too many or too few dimensions, a size or
// batch too large with the limit.
Problem parse_problem(std::string_view text, Layout default_layout = Layout::NN);

// `text` as dimension `name` ("M", "N" or "K"): a decimal integer in 1..kMaxDimension. Throws
// std::invalid_argument such as "K must be a positive integer, got '-3'".
int parse_dimension(std::string_view text, std::string_view name);

// `text` as a batch count: decimal digits in 1..kMaxBatch (without the 'b' of the problem grammar).
// Throws std::invalid_argument such as "batch must be a positive integer, got 'x'".
int parse_batch(std::string_view text);

// Why the problem cannot be tuned (a size out of 1..kMaxDimension, a batch out of 1..kMaxBatch, a
// matrix of kMaxMatrixElements or more elements), or nullopt when it can.
std::optional<std::string> problem_limit_violation(const Problem& problem);

// Distance in log space: sqrt of the sum of squared log2 ratios of M, N, K and the batch, so that
// doubling one size (or the batch) is distance 1 whatever the scale; a winner for the same batch
// is then preferred to one for another batch of the same sizes. Problems of different layouts are infinitely far apart:
// a winner for one layout says nothing about another (warm start and nearest-neighbour dispatch
// both rely on this to never cross layouts).
double log_distance(const Problem& a, const Problem& b);

}  // namespace gemmtune
