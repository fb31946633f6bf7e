// Winners and per-problem summaries, read from the v_winners and v_progress views.
#include "row_readers.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {
namespace {

// Classes in their own order (strict, fp32, tf32), not the alphabet's.
constexpr std::string_view kClassOrder =
    "CASE w.precision WHEN 'strict' THEN 0 WHEN 'fp32' THEN 1 WHEN 'tf32' THEN 2 END";

}  // namespace

std::optional<Winner> Database::winner(std::int64_t gpu_id, std::int64_t problem_id, std::string_view precision) const {
  Statement row = connection_.prepare("SELECT " + std::string(kWinnerColumns) +
                                      " FROM v_winners WHERE gpu_id = ?1 AND problem_id = ?2 AND precision = ?3");
  row.bind_all(gpu_id, problem_id, precision);
  if (!row.step()) return std::nullopt;
  return read_winner(row, 0);
}

std::vector<WinnerEntry> Database::all_winners(std::string_view gpu_name_part) const {
  Statement row = connection_.prepare(
      "SELECT gpu, cc_major, cc_minor, sm_count, layout, m, n, k, batch, " + std::string(kWinnerColumns) +
      " FROM v_winners w WHERE instr(lower(gpu), lower(?1)) > 0"
      " ORDER BY gpu, gpu_id, layout, m, n, k, batch, " + std::string(kClassOrder));
  row.bind_all(gpu_name_part);
  std::vector<WinnerEntry> winners;
  while (row.step()) {
    winners.push_back({read_gpu_key(row, 0), read_problem(row, 4), read_winner(row, 9)});
  }
  return winners;
}

std::vector<ProblemSummary> Database::problem_summaries(std::string_view gpu_name_part) const {
  Statement row = connection_.prepare(
      // The winner's columns are named by v_winners alone among these tables.
      "SELECT g.name, g.cc_major, g.cc_minor, g.sm_count, p.layout, p.m, p.n, p.k, p.batch,"
      " COALESCE(pr.measured, 0), COALESCE(pr.ok, 0), COALESCE(pr.failed, 0), " + std::string(kWinnerColumns) +
      " FROM (SELECT gpu_id, problem_id FROM measurements"
      "       UNION SELECT gpu_id, problem_id FROM winners) AS pair"
      " JOIN gpus g ON g.id = pair.gpu_id"
      " JOIN problems p ON p.id = pair.problem_id"
      " LEFT JOIN v_progress pr ON pr.gpu_id = pair.gpu_id AND pr.problem_id = pair.problem_id"
      " LEFT JOIN v_winners w ON w.gpu_id = pair.gpu_id AND w.problem_id = pair.problem_id"
      " WHERE instr(lower(g.name), lower(?1)) > 0"
      " ORDER BY g.name, g.id, p.layout, p.m, p.n, p.k, p.batch, " + std::string(kClassOrder));
  row.bind_all(gpu_name_part);
  std::vector<ProblemSummary> summaries;
  while (row.step()) {
    summaries.push_back({read_gpu_key(row, 0), read_problem(row, 4),
                         row.column<std::int64_t>(9), row.column<std::int64_t>(10),
                         row.column<std::int64_t>(11),
                         row.is_null(12) ? std::nullopt : std::optional(read_winner(row, 12))});
  }
  return summaries;
}

}  // namespace gemmtune::cache
