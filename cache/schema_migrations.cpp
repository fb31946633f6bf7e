#include "schema_migrations.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "sqlite_connection.hpp"
#include "sqlite_statement.hpp"
#include "sqlite_transaction.hpp"

namespace gemmtune::cache {
namespace {

// Version 1: the initial schema. Times are milliseconds, TFLOPS are 2*M*N*K / time.
constexpr std::string_view kInitialSchema = R"sql(
CREATE TABLE gpus (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  cc_major INTEGER NOT NULL,
  cc_minor INTEGER NOT NULL,
  sm_count INTEGER NOT NULL CHECK (sm_count > 0),
  driver_version TEXT NOT NULL DEFAULT '',
  cuda_runtime_version TEXT NOT NULL DEFAULT '',
  nvrtc_version TEXT NOT NULL DEFAULT '',
  UNIQUE (name, cc_major, cc_minor, sm_count)
);
CREATE TABLE problems (
  id INTEGER PRIMARY KEY,
  layout TEXT NOT NULL CHECK (layout IN ('nn', 'nt', 'tn', 'tt')),
  m INTEGER NOT NULL CHECK (m > 0),
  n INTEGER NOT NULL CHECK (n > 0),
  k INTEGER NOT NULL CHECK (k > 0),
  UNIQUE (layout, m, n, k)
);
CREATE TABLE configs (
  id INTEGER PRIMARY KEY,
  kernel_name TEXT NOT NULL UNIQUE,
  family TEXT NOT NULL,
  params_json TEXT NOT NULL
    CHECK (json_valid(params_json) AND json_type(params_json) = 'object')
);
CREATE TABLE measurements (
  id INTEGER PRIMARY KEY,
  gpu_id INTEGER NOT NULL REFERENCES gpus (id),
  problem_id INTEGER NOT NULL REFERENCES problems (id),
  config_id INTEGER NOT NULL REFERENCES configs (id),
  status TEXT NOT NULL CHECK (status IN ('ok', 'compile_error', 'resource_limit', 'spills',
                                         'launch_failure', 'crash', 'timeout', 'wrong_result')),
  median_ms REAL,
  min_ms REAL,
  max_ms REAL,
  p10_ms REAL,
  p90_ms REAL,
  repetitions INTEGER NOT NULL DEFAULT 0,
  sm_clock_mhz INTEGER,
  max_rel_error REAL,
  error_text TEXT NOT NULL DEFAULT '',
  measured_at TEXT NOT NULL,
  tuner_run TEXT NOT NULL DEFAULT '',
  -- Times exist exactly for ok measurements.
  CHECK (CASE WHEN status = 'ok'
              THEN median_ms > 0 AND min_ms IS NOT NULL AND max_ms IS NOT NULL
                   AND p10_ms IS NOT NULL AND p90_ms IS NOT NULL
              ELSE COALESCE(median_ms, min_ms, max_ms, p10_ms, p90_ms) IS NULL END)
);
CREATE INDEX measurements_by_problem ON measurements (gpu_id, problem_id, config_id);
CREATE INDEX measurements_by_config ON measurements (config_id);
CREATE TABLE winners (
  gpu_id INTEGER NOT NULL REFERENCES gpus (id),
  problem_id INTEGER NOT NULL REFERENCES problems (id),
  config_id INTEGER NOT NULL REFERENCES configs (id),
  median_ms REAL NOT NULL CHECK (median_ms > 0),
  tflops REAL NOT NULL,
  cublas_ms REAL CHECK (cublas_ms > 0),
  cublas_tflops REAL,
  measured_at TEXT NOT NULL,
  PRIMARY KEY (gpu_id, problem_id)
);
CREATE TABLE binaries (
  kernel_name TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  compile_options TEXT NOT NULL,
  arch TEXT NOT NULL,
  nvrtc_version TEXT NOT NULL,
  lowered_name TEXT NOT NULL,
  cubin BLOB NOT NULL,
  registers INTEGER NOT NULL,
  spill_bytes INTEGER NOT NULL,
  compile_log TEXT NOT NULL DEFAULT '',
  compiled_at TEXT NOT NULL,
  PRIMARY KEY (kernel_name, source_hash, compile_options, arch, nvrtc_version)
);

CREATE VIEW v_winners AS
SELECT w.gpu_id, w.problem_id, g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, c.kernel_name, w.config_id,
       w.median_ms AS ms, w.tflops, w.cublas_ms, w.cublas_tflops,
       w.cublas_ms / w.median_ms AS speedup, w.measured_at
FROM winners w
JOIN gpus g ON g.id = w.gpu_id
JOIN problems p ON p.id = w.problem_id
JOIN configs c ON c.id = w.config_id;

CREATE VIEW v_measurements AS
SELECT m.id AS measurement_id, m.gpu_id, m.problem_id, m.config_id,
       g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, c.kernel_name, c.family, c.params_json,
       m.status, m.median_ms, m.min_ms, m.max_ms, m.p10_ms, m.p90_ms,
       2.0 * p.m * p.n * p.k / (m.median_ms * 1e9) AS tflops,
       CASE WHEN m.status = 'ok' THEN
         RANK() OVER (PARTITION BY m.gpu_id, m.problem_id, m.status = 'ok' ORDER BY m.median_ms)
       END AS rank,
       m.repetitions, m.sm_clock_mhz, m.max_rel_error, m.error_text, m.measured_at, m.tuner_run
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id;

CREATE VIEW v_failures AS
SELECT g.name AS gpu, p.layout, p.m, p.n, p.k, c.kernel_name, m.status, m.error_text,
       m.measured_at, m.tuner_run
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id
WHERE m.status <> 'ok';

CREATE VIEW v_progress AS
SELECT m.gpu_id, m.problem_id, g.name AS gpu, p.layout, p.m, p.n, p.k,
       COUNT(DISTINCT m.config_id) AS measured,
       COUNT(DISTINCT CASE WHEN m.status = 'ok' THEN m.config_id END) AS ok,
       COUNT(DISTINCT CASE WHEN m.status <> 'ok' THEN m.config_id END) AS failed,
       COUNT(*) AS measurements,
       MAX(m.measured_at) AS last_measured_at
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
GROUP BY m.gpu_id, m.problem_id;
)sql";

// Version 2: precision classes (docs/schema.md). A configuration carries its family's class
// (ADD COLUMN needs a default; every write names the class); a measurement its normwise error
// against an FP64 reference; winners are kept per (GPU, problem, precision tuned for), with the
// winner's error. Version-1 databases were tuned over every family at once, as the fp32 class
// is now (tmatf32 included, had a run tuned it): their classes come from the family names of
// that time, their errors are unknown (NULL). Of each old winner:
// - fp32 and strict: the old winner when the class admits its kernel, else the fastest ok
//   measurement of the (GPU, problem) that the class admits, with the old winner's cuBLAS time
//   (pedantic FP32 on the same inputs, the baseline of both classes);
// - tf32: the old winner only when it is a tf32 kernel, without a cuBLAS time (it was timed
//   against pedantic FP32, not against cuBLAS's TF32).
// The views that name the rebuilt table or new columns are made again.
constexpr std::string_view kPrecisionClasses = R"sql(
DROP VIEW v_winners;
DROP VIEW v_measurements;

ALTER TABLE configs ADD COLUMN precision TEXT NOT NULL DEFAULT 'strict'
  CHECK (precision IN ('strict', 'fp32', 'tf32'));
UPDATE configs SET precision = CASE family
  WHEN 'tf32x3' THEN 'fp32' WHEN 'wgmma' THEN 'fp32' WHEN 'tmawgmma' THEN 'fp32'
  WHEN 'tmatf32' THEN 'tf32' ELSE 'strict' END;

ALTER TABLE measurements ADD COLUMN fp64_error REAL;

CREATE TABLE winners_v2 (
  gpu_id INTEGER NOT NULL REFERENCES gpus (id),
  problem_id INTEGER NOT NULL REFERENCES problems (id),
  precision TEXT NOT NULL CHECK (precision IN ('strict', 'fp32', 'tf32')),
  config_id INTEGER NOT NULL REFERENCES configs (id),
  median_ms REAL NOT NULL CHECK (median_ms > 0),
  tflops REAL NOT NULL,
  cublas_ms REAL CHECK (cublas_ms > 0),
  cublas_tflops REAL,
  fp64_error REAL,
  measured_at TEXT NOT NULL,
  PRIMARY KEY (gpu_id, problem_id, precision)
);
WITH class_admits (precision, kernel_precision) AS (
  VALUES ('strict', 'strict'), ('fp32', 'strict'), ('fp32', 'fp32')
),
candidates AS (
  SELECT 0 AS priority, 0 AS measurement_id, gpu_id, problem_id, config_id, median_ms, measured_at
  FROM winners
  UNION ALL
  SELECT 1, id, gpu_id, problem_id, config_id, median_ms, measured_at
  FROM measurements WHERE status = 'ok'
),
ranked AS (
  SELECT w.gpu_id, w.problem_id, a.precision, x.config_id, x.median_ms, x.measured_at,
         w.cublas_ms, w.cublas_tflops,
         ROW_NUMBER() OVER (PARTITION BY w.gpu_id, w.problem_id, a.precision
                            ORDER BY x.priority, x.median_ms, x.measurement_id) AS place
  FROM winners w
  JOIN candidates x ON x.gpu_id = w.gpu_id AND x.problem_id = w.problem_id
  JOIN configs c ON c.id = x.config_id
  JOIN class_admits a ON a.kernel_precision = c.precision
)
INSERT INTO winners_v2 (gpu_id, problem_id, precision, config_id, median_ms, tflops, cublas_ms,
                        cublas_tflops, fp64_error, measured_at)
SELECT r.gpu_id, r.problem_id, r.precision, r.config_id, r.median_ms,
       2.0 * p.m * p.n * p.k / (r.median_ms * 1e9), r.cublas_ms, r.cublas_tflops, NULL,
       r.measured_at
FROM ranked r JOIN problems p ON p.id = r.problem_id
WHERE r.place = 1;
INSERT INTO winners_v2 (gpu_id, problem_id, precision, config_id, median_ms, tflops, cublas_ms,
                        cublas_tflops, fp64_error, measured_at)
SELECT w.gpu_id, w.problem_id, 'tf32', w.config_id, w.median_ms, w.tflops, NULL, NULL, NULL,
       w.measured_at
FROM winners w JOIN configs c ON c.id = w.config_id
WHERE c.precision = 'tf32';
DROP TABLE winners;
ALTER TABLE winners_v2 RENAME TO winners;

CREATE VIEW v_winners AS
SELECT w.gpu_id, w.problem_id, g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, w.precision, c.kernel_name, c.precision AS kernel_precision,
       w.config_id, w.median_ms AS ms, w.tflops, w.cublas_ms, w.cublas_tflops,
       w.cublas_ms / w.median_ms AS speedup, w.fp64_error, w.measured_at
FROM winners w
JOIN gpus g ON g.id = w.gpu_id
JOIN problems p ON p.id = w.problem_id
JOIN configs c ON c.id = w.config_id;

CREATE VIEW v_measurements AS
SELECT m.id AS measurement_id, m.gpu_id, m.problem_id, m.config_id,
       g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, c.kernel_name, c.family, c.precision, c.params_json,
       m.status, m.median_ms, m.min_ms, m.max_ms, m.p10_ms, m.p90_ms,
       2.0 * p.m * p.n * p.k / (m.median_ms * 1e9) AS tflops,
       CASE WHEN m.status = 'ok' THEN
         RANK() OVER (PARTITION BY m.gpu_id, m.problem_id, m.status = 'ok' ORDER BY m.median_ms)
       END AS rank,
       m.repetitions, m.sm_clock_mhz, m.max_rel_error, m.fp64_error, m.error_text,
       m.measured_at, m.tuner_run
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id;
)sql";

// Version 3: what compiling a configuration gave, once per cubin key (a property of the
// configuration, arch, sources and compiler, not of a problem): every later problem and run
// reuses it, and one known to fail or spill is not compiled again. Failures are kept too, which
// binaries (cubins only) cannot hold.
constexpr std::string_view kCompileOutcomes = R"sql(
CREATE TABLE compile_outcomes (
  kernel_name TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  compile_options TEXT NOT NULL,
  arch TEXT NOT NULL,
  nvrtc_version TEXT NOT NULL,
  compiled INTEGER NOT NULL CHECK (compiled IN (0, 1)),
  registers INTEGER NOT NULL DEFAULT -1,
  spill_store_bytes INTEGER NOT NULL DEFAULT -1,
  spill_load_bytes INTEGER NOT NULL DEFAULT -1,
  static_smem_bytes INTEGER NOT NULL DEFAULT -1,
  compile_seconds REAL CHECK (compile_seconds IS NULL OR compile_seconds >= 0),
  error_text TEXT NOT NULL DEFAULT '',
  compiled_at TEXT NOT NULL,
  PRIMARY KEY (kernel_name, source_hash, compile_options, arch, nvrtc_version)
);
)sql";

// Version 4: the batch is part of a problem (strided and pointer-array batched SGEMM: `batch`
// products of M x N x K in one call). Every existing problem is a batch of 1. SQLite cannot change
// a UNIQUE constraint in place, so problems is rebuilt with its rows and ids (measurements and
// winners refer to the ids; apply_migrations turns foreign keys off for this step, as SQLite's
// table-rebuild procedure asks, and checks them before committing). TFLOPS count the whole batch.
// The views that name problems are made again, with the batch.
constexpr std::string_view kBatchedProblems = R"sql(
DROP VIEW v_winners;
DROP VIEW v_measurements;
DROP VIEW v_failures;
DROP VIEW v_progress;

CREATE TABLE problems_v4 (
  id INTEGER PRIMARY KEY,
  layout TEXT NOT NULL CHECK (layout IN ('nn', 'nt', 'tn', 'tt')),
  m INTEGER NOT NULL CHECK (m > 0),
  n INTEGER NOT NULL CHECK (n > 0),
  k INTEGER NOT NULL CHECK (k > 0),
  batch INTEGER NOT NULL DEFAULT 1 CHECK (batch > 0),
  UNIQUE (layout, m, n, k, batch)
);
INSERT INTO problems_v4 (id, layout, m, n, k, batch) SELECT id, layout, m, n, k, 1 FROM problems;
DROP TABLE problems;
ALTER TABLE problems_v4 RENAME TO problems;

CREATE VIEW v_winners AS
SELECT w.gpu_id, w.problem_id, g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, p.batch, w.precision, c.kernel_name, c.precision AS kernel_precision,
       w.config_id, w.median_ms AS ms, w.tflops, w.cublas_ms, w.cublas_tflops,
       w.cublas_ms / w.median_ms AS speedup, w.fp64_error, w.measured_at
FROM winners w
JOIN gpus g ON g.id = w.gpu_id
JOIN problems p ON p.id = w.problem_id
JOIN configs c ON c.id = w.config_id;

CREATE VIEW v_measurements AS
SELECT m.id AS measurement_id, m.gpu_id, m.problem_id, m.config_id,
       g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, p.batch, c.kernel_name, c.family, c.precision, c.params_json,
       m.status, m.median_ms, m.min_ms, m.max_ms, m.p10_ms, m.p90_ms,
       2.0 * p.m * p.n * p.k * p.batch / (m.median_ms * 1e9) AS tflops,
       CASE WHEN m.status = 'ok' THEN
         RANK() OVER (PARTITION BY m.gpu_id, m.problem_id, m.status = 'ok' ORDER BY m.median_ms)
       END AS rank,
       m.repetitions, m.sm_clock_mhz, m.max_rel_error, m.fp64_error, m.error_text,
       m.measured_at, m.tuner_run
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id;

CREATE VIEW v_failures AS
SELECT g.name AS gpu, p.layout, p.m, p.n, p.k, p.batch, c.kernel_name, m.status, m.error_text,
       m.measured_at, m.tuner_run
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id
WHERE m.status <> 'ok';

CREATE VIEW v_progress AS
SELECT m.gpu_id, m.problem_id, g.name AS gpu, p.layout, p.m, p.n, p.k, p.batch,
       COUNT(DISTINCT m.config_id) AS measured,
       COUNT(DISTINCT CASE WHEN m.status = 'ok' THEN m.config_id END) AS ok,
       COUNT(DISTINCT CASE WHEN m.status <> 'ok' THEN m.config_id END) AS failed,
       COUNT(*) AS measurements,
       MAX(m.measured_at) AS last_measured_at
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
GROUP BY m.gpu_id, m.problem_id;
)sql";

// Version 5: the device a measurement ran on (its CUDA index), now that one run of `tune
// --devices` measures on several GPUs of a host at once. Nullable: earlier measurements keep NULL
// (not recorded). v_measurements is made again with the column.
constexpr std::string_view kMeasurementDevices = R"sql(
DROP VIEW v_measurements;

ALTER TABLE measurements ADD COLUMN device_index INTEGER CHECK (device_index IS NULL OR device_index >= 0);

CREATE VIEW v_measurements AS
SELECT m.id AS measurement_id, m.gpu_id, m.problem_id, m.config_id,
       g.name AS gpu, g.cc_major, g.cc_minor, g.sm_count,
       p.layout, p.m, p.n, p.k, p.batch, c.kernel_name, c.family, c.precision, c.params_json,
       m.status, m.median_ms, m.min_ms, m.max_ms, m.p10_ms, m.p90_ms,
       2.0 * p.m * p.n * p.k * p.batch / (m.median_ms * 1e9) AS tflops,
       CASE WHEN m.status = 'ok' THEN
         RANK() OVER (PARTITION BY m.gpu_id, m.problem_id, m.status = 'ok' ORDER BY m.median_ms)
       END AS rank,
       m.repetitions, m.sm_clock_mhz, m.max_rel_error, m.fp64_error, m.error_text,
       m.measured_at, m.tuner_run, m.device_index
FROM measurements m
JOIN gpus g ON g.id = m.gpu_id
JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id;
)sql";

constexpr Migration kMigrations[] = {
    {1, "initial schema", kInitialSchema},
    {2, "precision classes", kPrecisionClasses},
    {3, "compile outcomes", kCompileOutcomes},
    {4, "batched problems", kBatchedProblems, ForeignKeys::OffDuringStep},
    {5, "measurement devices", kMeasurementDevices},
};

// Turns foreign-key enforcement off for a step that rebuilds a table others refer to, and back
// to what it was after. The pragma is a no-op inside a transaction, so this wraps the step's.
class ForeignKeysOff {
 public:
  explicit ForeignKeysOff(const Connection& connection)
      : connection_(connection), was_on_(connection.prepare("PRAGMA foreign_keys").single_value<int>() != 0) {
    connection_.exec("PRAGMA foreign_keys = OFF");
  }
  ForeignKeysOff(const ForeignKeysOff&) = delete;
  ForeignKeysOff& operator=(const ForeignKeysOff&) = delete;
  ~ForeignKeysOff() {
    if (!was_on_) return;
    try {
      connection_.exec("PRAGMA foreign_keys = ON");
    } catch (...) {  // destructors never throw; the connection then stays without enforcement
    }
  }

 private:
  const Connection& connection_;
  bool was_on_;
};

// A step run with foreign keys off must still leave every reference whole.
void require_references_whole(const Connection& connection, const Migration& step) {
  if (connection.prepare("PRAGMA foreign_key_check").step()) {
    throw std::logic_error("schema migration '" + std::string(step.description) + "' left dangling references");
  }
}

}  // namespace

std::span<const Migration> schema_migrations() { return kMigrations; }

int latest_schema_version() { return schema_migrations().back().version; }

int read_user_version(const Connection& connection) {
  return connection.prepare("PRAGMA user_version").single_value<int>();
}

int apply_migrations(const Connection& connection, std::span<const Migration> steps) {
  int version = read_user_version(connection);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Migration& step = steps[i];
    if (step.version != static_cast<int>(i) + 1) {
      throw std::logic_error("schema migration '" + std::string(step.description) +
                             "' is numbered " + std::to_string(step.version) + ", expected " +
                             std::to_string(i + 1));
    }
    if (step.version <= version) continue;
    std::optional<ForeignKeysOff> foreign_keys_off;
    if (step.foreign_keys == ForeignKeys::OffDuringStep) foreign_keys_off.emplace(connection);
    Transaction transaction(connection);
    version = read_user_version(connection);
    if (step.version <= version) continue;  // applied by another connection meanwhile
    connection.exec(std::string(step.sql));
    if (foreign_keys_off) require_references_whole(connection, step);
    // PRAGMA takes no bound parameters; the version is a number this code owns.
    connection.exec("PRAGMA user_version = " + std::to_string(step.version));
    transaction.commit();
    version = step.version;
  }
  return version;
}

}  // namespace gemmtune::cache
