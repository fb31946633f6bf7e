// Measurements (kept as history) and the winner update that lands with its measurement.
#include <stdexcept>

#include "row_readers.hpp"
#include "sqlite_transaction.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {
namespace {

void validate(const Measurement& measurement, bool wants_winner) {
  const bool ok = measurement.status == Status::Ok;
  if (ok != measurement.timing.has_value()) {
    throw std::invalid_argument(std::string("measurement with status '") +
                                std::string(to_string(measurement.status)) +
                                (ok ? "' needs a timing" : "' cannot have a timing"));
  }
  if (wants_winner && !ok) {
    throw std::invalid_argument(std::string("a '") + std::string(to_string(measurement.status)) +
                                "' measurement cannot become a winner");
  }
}

// Leaderboard order: ok measurements fastest first, then failures, newest first.
constexpr std::string_view kMeasurementQuery =
    "SELECT measurement_id, gpu, cc_major, cc_minor, sm_count, layout, m, n, k, batch,"
    " kernel_name, family, params_json, status, median_ms, min_ms, max_ms, p10_ms, p90_ms,"
    " tflops, rank, repetitions, sm_clock_mhz, max_rel_error, error_text, measured_at, tuner_run,"
    " precision, fp64_error, device_index"
    " FROM v_measurements WHERE (?1 IS NULL OR gpu_id = ?1) AND (?2 IS NULL OR problem_id = ?2)"
    " ORDER BY gpu_id, problem_id, rank IS NULL, rank, measured_at DESC, measurement_id";

std::vector<MeasurementRow> query_measurements(const Connection& connection,
                                               std::optional<std::int64_t> gpu_id,
                                               std::optional<std::int64_t> problem_id) {
  Statement row = connection.prepare(kMeasurementQuery);
  row.bind_all(gpu_id, problem_id);
  std::vector<MeasurementRow> rows;
  while (row.step()) {
    rows.push_back({.id = row.column<std::int64_t>(0),
                    .gpu = read_gpu_key(row, 1),
                    .problem = read_problem(row, 5),
                    .kernel_name = row.column<std::string>(10),
                    .family = row.column<std::string>(11),
                    .precision = row.column<std::string>(27),
                    .params_json = row.column<std::string>(12),
                    .status = parse_status(row.column<std::string>(13)),
                    .timing = read_timing(row, 14),
                    .tflops = row.column<std::optional<double>>(19),
                    .rank = row.column<std::optional<int>>(20),
                    .repetitions = row.column<int>(21),
                    .sm_clock_mhz = row.column<std::optional<int>>(22),
                    .max_rel_error = row.column<std::optional<double>>(23),
                    .fp64_error = row.column<std::optional<double>>(28),
                    .error_text = row.column<std::string>(24),
                    .measured_at = row.column<std::string>(25),
                    .tuner_run = row.column<std::string>(26),
                    .device_index = row.column<std::optional<int>>(29)});
  }
  return rows;
}

// Makes measurement `id` (an ok one) the winner of its (GPU, problem) for update.precision:
// always under Replace, else when it is faster than the stored winner.
void offer_winner(const Connection& connection, std::int64_t id, const WinnerUpdate& update) {
  require_precision_name(update.precision);
  Statement upsert = connection.prepare(
      "INSERT INTO winners (gpu_id, problem_id, precision, config_id, median_ms, tflops, cublas_ms,"
      " cublas_tflops, fp64_error, measured_at)"
      " SELECT m.gpu_id, m.problem_id, ?2, m.config_id, m.median_ms,"
      " 2.0 * p.m * p.n * p.k * p.batch / (m.median_ms * 1e9), ?3, 2.0 * p.m * p.n * p.k * p.batch / (?3 * 1e9),"
      " m.fp64_error,"
      " m.measured_at FROM measurements m JOIN problems p ON p.id = m.problem_id WHERE m.id = ?1"
      " ON CONFLICT (gpu_id, problem_id, precision) DO UPDATE SET config_id = excluded.config_id,"
      " median_ms = excluded.median_ms, tflops = excluded.tflops,"
      " cublas_ms = excluded.cublas_ms, cublas_tflops = excluded.cublas_tflops,"
      " fp64_error = excluded.fp64_error, measured_at = excluded.measured_at"
      " WHERE ?4 OR excluded.median_ms < winners.median_ms");
  upsert.bind_all(id, update.precision, update.cublas_ms, update.policy == WinnerPolicy::Replace ? 1 : 0);
  upsert.run();
}

}  // namespace

std::int64_t Database::record_measurement(const Measurement& measurement,
                                          const std::optional<WinnerUpdate>& winner) {
  validate(measurement, winner.has_value());
  const std::string measured_at =
      measurement.measured_at.empty() ? now_utc_iso8601() : measurement.measured_at;
  const auto& timing = measurement.timing;
  auto time = [&](double Timing::*field) {
    return timing ? std::optional<double>((*timing).*field) : std::nullopt;
  };

  Transaction transaction(connection_);
  Statement insert = connection_.prepare(
      "INSERT INTO measurements (gpu_id, problem_id, config_id, status, median_ms, min_ms,"
      " max_ms, p10_ms, p90_ms, repetitions, sm_clock_mhz, max_rel_error, error_text,"
      " measured_at, tuner_run, fp64_error, device_index)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) RETURNING id");
  insert.bind_all(measurement.gpu_id, measurement.problem_id, measurement.config_id,
                  to_string(measurement.status), time(&Timing::median_ms),
                  time(&Timing::min_ms), time(&Timing::max_ms), time(&Timing::p10_ms),
                  time(&Timing::p90_ms), measurement.repetitions, measurement.sm_clock_mhz,
                  measurement.max_rel_error, measurement.error_text, measured_at,
                  measurement.tuner_run, measurement.fp64_error, measurement.device_index);
  const auto id = insert.single_value<std::int64_t>();

  if (winner) offer_winner(connection_, id, *winner);
  transaction.commit();
  return id;
}

bool Database::offer_stored_winner(std::int64_t gpu_id, std::int64_t problem_id,
                                   const std::vector<std::string>& kernel_precisions, const WinnerUpdate& update) {
  std::string classes;
  for (const std::string& name : kernel_precisions) {
    require_precision_name(name);  // so it may be written into the query as it is
    classes += (classes.empty() ? "'" : ", '") + name + "'";
  }
  if (classes.empty()) return false;
  Transaction transaction(connection_);
  Statement fastest = connection_.prepare(
      "SELECT m.id FROM measurements m JOIN configs c ON c.id = m.config_id"
      " WHERE m.gpu_id = ?1 AND m.problem_id = ?2 AND m.status = 'ok' AND c.precision IN (" + classes + ")"
      " ORDER BY m.median_ms, m.id LIMIT 1");
  fastest.bind_all(gpu_id, problem_id);
  if (!fastest.step()) return false;
  offer_winner(connection_, fastest.column<std::int64_t>(0), update);
  transaction.commit();
  return true;
}

std::set<std::string> Database::measured_kernels(std::int64_t gpu_id,
                                                 std::int64_t problem_id) const {
  Statement row = connection_.prepare(
      "SELECT DISTINCT c.kernel_name FROM measurements m JOIN configs c ON c.id = m.config_id"
      " WHERE m.gpu_id = ?1 AND m.problem_id = ?2");
  row.bind_all(gpu_id, problem_id);
  std::set<std::string> names;
  while (row.step()) names.insert(row.column<std::string>(0));
  return names;
}

std::vector<MeasurementRow> Database::measurements_for(std::int64_t gpu_id,
                                                       std::int64_t problem_id) const {
  return query_measurements(connection_, gpu_id, problem_id);
}

std::vector<MeasurementRow> Database::all_measurements() const {
  return query_measurements(connection_, std::nullopt, std::nullopt);
}

}  // namespace gemmtune::cache
