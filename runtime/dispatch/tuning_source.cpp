#include "tuning_source.hpp"

#include <set>

#include "dispatch_error.hpp"

namespace gemmtune::dispatch {
namespace {

// "it has winners for NVIDIA A100-SXM4-80GB (sm_80, 108 SMs)" or "it has no winner at all".
std::string tuned_gpus(const std::vector<cache::WinnerEntry>& winners) {
  std::set<cache::GpuKey> gpus;
  for (const cache::WinnerEntry& entry : winners) gpus.insert(entry.gpu);
  if (gpus.empty()) return "it has no winner at all";
  std::string text = "it has winners for ";
  bool first = true;
  for (const cache::GpuKey& gpu : gpus) {
    text += (first ? "" : ", ") + describe_gpu(gpu);
    first = false;
  }
  return text;
}

std::optional<cache::Database> open_database(const std::string& db_path, bool allow_untuned) {
  const std::string fallback = "; RuntimeOptions::allow_untuned runs on default kernels instead";
  try {
    if (db_path.empty()) throw DispatchError(Status::DatabaseNotFound, "no database path given" + fallback);
    return cache::Database::open(db_path, cache::OpenMode::ReadOnly);
  } catch (const DispatchError&) {
    if (allow_untuned) return std::nullopt;
    throw;
  } catch (const cache::NotFoundError& error) {
    if (allow_untuned) return std::nullopt;
    throw DispatchError(Status::DatabaseNotFound, error.what() + fallback);
  } catch (const cache::Error& error) {
    throw DispatchError(Status::DatabaseError, error.what());
  }
}

}  // namespace

TuningSource load_tuning(const std::string& db_path, const cache::GpuKey& gpu, bool allow_untuned) {
  TuningSource source;
  source.database = open_database(db_path, allow_untuned);
  if (!source.database) {
    source.description = "no database: default kernels only";
    return source;
  }
  std::vector<cache::WinnerEntry> winners;
  try {
    winners = source.database->all_winners();
  } catch (const cache::Error& error) {
    throw DispatchError(Status::DatabaseError, error.what());
  }
  source.table = TuningTable(winners, gpu);
  if (source.table.size() == 0) {
    const std::string why = db_path + " has no tuned problem for " + describe_gpu(gpu) + "; " + tuned_gpus(winners);
    if (!allow_untuned) {
      throw DispatchError(Status::UntunedGpu, why + ". Tune this GPU, or set RuntimeOptions::allow_untuned to "
                                                    "run on default kernels");
    }
    source.description = why + ": default kernels only";
    return source;
  }
  source.description = std::to_string(source.table.size()) + " tuned problems from " + db_path;
  return source;
}

}  // namespace gemmtune::dispatch
