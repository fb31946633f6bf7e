#include "row_readers.hpp"

namespace gemmtune::cache {

GpuKey read_gpu_key(const Statement& row, int first) {
  return {row.column<std::string>(first), row.column<int>(first + 1),
          row.column<int>(first + 2), row.column<int>(first + 3)};
}

Problem read_problem(const Statement& row, int first) {
  return {row.column<std::string>(first), row.column<std::int64_t>(first + 1),
          row.column<std::int64_t>(first + 2), row.column<std::int64_t>(first + 3),
          row.column<std::int64_t>(first + 4)};
}

Winner read_winner(const Statement& row, int first) {
  return {row.column<std::int64_t>(first),
          row.column<std::string>(first + 1),
          row.column<double>(first + 2),
          row.column<double>(first + 3),
          row.column<std::optional<double>>(first + 4),
          row.column<std::optional<double>>(first + 5),
          row.column<std::string>(first + 6),
          row.column<std::string>(first + 7),
          row.column<std::string>(first + 8),
          row.column<std::optional<double>>(first + 9)};
}

std::optional<Timing> read_timing(const Statement& row, int first) {
  if (row.is_null(first)) return std::nullopt;
  return Timing{row.column<double>(first), row.column<double>(first + 1),
                row.column<double>(first + 2), row.column<double>(first + 3),
                row.column<double>(first + 4)};
}

}  // namespace gemmtune::cache
