#include "tuning_source.hpp"

#include <fstream>
#include <iterator>
#include <set>

#include "binary_store.hpp"
#include "dispatch_error.hpp"
#include "kernel_name.hpp"

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

TuningSource load_manifest_tuning(const std::filesystem::path& dir, const cache::GpuKey& gpu, const std::string& arch,
                                  bool allow_untuned) {
  KernelManifest manifest;
  try {
    manifest = read_manifest(dir);
  } catch (const ManifestError& error) {
    throw DispatchError(error.kind() == ManifestError::Kind::NotFound ? Status::DatabaseNotFound : Status::DatabaseError,
                        error.what());
  }
  const std::string where = dir.string();
  if (manifest.arch != arch) {
    throw DispatchError(Status::UntunedGpu, where + " holds cubins for " + manifest.arch + ", exported for " +
                                                describe_gpu(manifest.gpu) + "; this GPU, " + describe_gpu(gpu) +
                                                ", runs " + arch + " (an export never compiles: export for this GPU)");
  }
  TuningSource source;
  source.manifest_dir = dir;
  for (ManifestKernel& kernel : manifest.kernels) source.manifest_kernels.emplace(kernel.name, std::move(kernel));
  std::vector<cache::WinnerEntry> winners;
  for (const ManifestProblem& problem : manifest.problems) winners.push_back({manifest.gpu, problem.problem, problem.winner});
  source.table = TuningTable(winners, gpu);
  if (manifest.gpu != gpu) {
    const std::string why = where + " was exported for " + describe_gpu(manifest.gpu) + ", not " + describe_gpu(gpu);
    if (!allow_untuned) {
      throw DispatchError(Status::UntunedGpu, why + ". Export for this GPU, or set RuntimeOptions::allow_untuned to "
                                                    "run on the export's default kernels");
    }
    source.description = why + ": the export's default kernels only";
    return source;
  }
  source.description = std::to_string(source.table.size()) + " tuned problems and " +
                       std::to_string(source.manifest_kernels.size()) + " cubins from the export " + where;
  return source;
}

CubinLookup cubin_lookup(const TuningSource& source, const std::string& arch) {
  if (source.manifest_dir) {
    return [&source](const KernelConfig& config) -> std::optional<StoredCubin> {
      const auto found = source.manifest_kernels.find(kernel_name(config));
      if (found == source.manifest_kernels.end()) return std::nullopt;
      const std::filesystem::path file = *source.manifest_dir / found->second.cubin_file;
      std::ifstream in(file, std::ios::binary);
      std::vector<char> cubin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!in.good() && !in.eof()) throw std::runtime_error(file.string() + ": cannot be read");
      if (cubin.size() != found->second.cubin_bytes) {
        throw std::runtime_error(file.string() + ": " + std::to_string(cubin.size()) + " bytes, the manifest says " +
                                 std::to_string(found->second.cubin_bytes));
      }
      return StoredCubin{std::move(cubin), found->second.lowered_name};
    };
  }
  if (source.database) {
    return [&source, arch](const KernelConfig& config) -> std::optional<StoredCubin> {
      // The key the tuner stores its cubins under.
      std::optional<cache::Binary> binary = source.database->find_binary(binary_key(config, arch));
      if (!binary) return std::nullopt;
      return StoredCubin{std::move(binary->cubin), std::move(binary->lowered_name)};
    };
  }
  return {};
}

CubinCheck cubin_check(const TuningSource& source, const std::string& arch) {
  if (source.manifest_dir) {
    return [&source](const KernelConfig& config) { return source.manifest_kernels.count(kernel_name(config)) > 0; };
  }
  if (source.database) {
    return [&source, arch](const KernelConfig& config) {
      return source.database->has_binary(binary_key(config, arch));
    };
  }
  return {};
}

std::string compile_refusal(const TuningSource& source) {
  if (!source.manifest_dir) return {};
  return "not in the export " + source.manifest_dir->string() +
         " (an export is served without NVRTC: export again from a database whose winners include it)";
}

}  // namespace gemmtune::dispatch
