#include "kernel_manifest.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace gemmtune::dispatch {
namespace {

using json = nlohmann::ordered_json;  // fields in the order written

json launch_json(const LaunchShape& shape) {
  return {{"grid", {shape.grid[0], shape.grid[1], shape.grid[2]}},
          {"block", {shape.block[0], shape.block[1], shape.block[2]}},
          {"dynamic_smem_bytes", shape.dynamic_smem_bytes}};
}

LaunchShape launch_from(const json& value) {
  LaunchShape shape{};
  for (int i = 0; i < 3; ++i) {
    shape.grid[i] = value.at("grid").at(i).get<unsigned>();
    shape.block[i] = value.at("block").at(i).get<unsigned>();
  }
  shape.dynamic_smem_bytes = value.at("dynamic_smem_bytes").get<std::size_t>();
  return shape;
}

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

std::optional<double> optional_number(const json& value) {
  return value.is_null() ? std::nullopt : std::optional(value.get<double>());
}

KernelManifest parse(const json& root) {
  if (root.at("format").get<std::string>() != kManifestFormat) {
    throw std::invalid_argument("format is not '" + std::string(kManifestFormat) + "'");
  }
  if (const int version = root.at("version").get<int>(); version != kManifestVersion) {
    throw std::invalid_argument("version " + std::to_string(version) + ", this build reads version " +
                                std::to_string(kManifestVersion));
  }
  KernelManifest manifest;
  const json& gpu = root.at("gpu");
  manifest.gpu = {gpu.at("name").get<std::string>(), gpu.at("cc_major").get<int>(), gpu.at("cc_minor").get<int>(),
                  gpu.at("sm_count").get<int>()};
  manifest.arch = root.at("arch").get<std::string>();
  manifest.nvrtc_version = root.at("nvrtc_version").get<std::string>();
  manifest.exported_from = root.at("exported_from").get<std::string>();
  manifest.exported_at = root.at("exported_at").get<std::string>();
  for (const json& entry : root.at("problems")) {
    ManifestProblem problem;
    problem.problem = {entry.at("layout").get<std::string>(), entry.at("m").get<std::int64_t>(),
                       entry.at("n").get<std::int64_t>(), entry.at("k").get<std::int64_t>(),
                       entry.value("batch", std::int64_t{1})};  // manifests written before batches have none
    cache::Winner& winner = problem.winner;
    winner.kernel_name = entry.at("kernel").get<std::string>();
    winner.median_ms = entry.at("ms").get<double>();
    winner.tflops = entry.at("tflops").get<double>();
    winner.cublas_ms = optional_number(entry.at("cublas_ms"));
    winner.cublas_tflops = optional_number(entry.at("cublas_tflops"));
    winner.measured_at = entry.at("measured_at").get<std::string>();
    winner.precision = entry.at("precision").get<std::string>();
    winner.kernel_precision = entry.at("kernel_precision").get<std::string>();
    winner.fp64_error = optional_number(entry.at("fp64_error"));
    problem.launch = launch_from(entry.at("launch"));
    problem.workspace_bytes = entry.at("workspace_bytes").get<std::size_t>();
    manifest.problems.push_back(std::move(problem));
  }
  for (const json& entry : root.at("kernels")) {
    manifest.kernels.push_back({entry.at("name").get<std::string>(), entry.at("lowered_name").get<std::string>(),
                                entry.at("cubin").get<std::string>(), entry.at("bytes").get<std::uint64_t>(),
                                entry.at("registers").get<int>(), entry.at("spill_bytes").get<int>()});
  }
  return manifest;
}

// A cubin path inside the folder: relative, without "..", so a manifest cannot point elsewhere.
bool inside(const std::string& relative) {
  const std::filesystem::path path(relative);
  if (path.empty() || path.is_absolute()) return false;
  for (const auto& part : path) {
    if (part == "..") return false;
  }
  return true;
}

}  // namespace

std::string manifest_json(const KernelManifest& manifest) {
  auto problems = json::array();
  for (const ManifestProblem& entry : manifest.problems) {
    const cache::Winner& winner = entry.winner;
    problems.push_back({{"problem", cache::to_string(entry.problem)},
                        {"layout", entry.problem.layout},
                        {"m", entry.problem.m},
                        {"n", entry.problem.n},
                        {"k", entry.problem.k},
                        {"batch", entry.problem.batch},
                        {"kernel", winner.kernel_name},
                        {"ms", winner.median_ms},
                        {"tflops", winner.tflops},
                        {"cublas_ms", or_null(winner.cublas_ms)},
                        {"cublas_tflops", or_null(winner.cublas_tflops)},
                        {"measured_at", winner.measured_at},
                        {"precision", winner.precision},
                        {"kernel_precision", winner.kernel_precision},
                        {"fp64_error", or_null(winner.fp64_error)},
                        {"launch", launch_json(entry.launch)},
                        {"workspace_bytes", entry.workspace_bytes}});
  }
  auto kernels = json::array();
  for (const ManifestKernel& kernel : manifest.kernels) {
    kernels.push_back({{"name", kernel.name},
                       {"lowered_name", kernel.lowered_name},
                       {"cubin", kernel.cubin_file},
                       {"bytes", kernel.cubin_bytes},
                       {"registers", kernel.registers},
                       {"spill_bytes", kernel.spill_bytes}});
  }
  const json root = {{"format", kManifestFormat},
                     {"version", kManifestVersion},
                     {"gpu", {{"name", manifest.gpu.name},
                              {"cc_major", manifest.gpu.cc_major},
                              {"cc_minor", manifest.gpu.cc_minor},
                              {"sm_count", manifest.gpu.sm_count}}},
                     {"arch", manifest.arch},
                     {"nvrtc_version", manifest.nvrtc_version},
                     {"exported_from", manifest.exported_from},
                     {"exported_at", manifest.exported_at},
                     {"problems", problems},
                     {"kernels", kernels}};
  return root.dump(2) + "\n";
}

KernelManifest read_manifest(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / kManifestFile;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw ManifestError(ManifestError::Kind::NotFound,
                        file.string() + ": no such manifest (tunedb export-kernels --out " + dir.string() + " writes one)");
  }
  std::stringstream text;
  text << in.rdbuf();
  KernelManifest manifest;
  try {
    manifest = parse(json::parse(text.str()));
  } catch (const std::exception& error) {  // json's parse, type and out_of_range errors; ours
    throw ManifestError(ManifestError::Kind::Invalid, file.string() + ": not a gemmtune kernel manifest: " + error.what());
  }
  for (const ManifestKernel& kernel : manifest.kernels) {
    if (!inside(kernel.cubin_file)) {
      throw ManifestError(ManifestError::Kind::Invalid,
                          file.string() + ": " + kernel.name + ": cubin path '" + kernel.cubin_file + "' is not inside the folder");
    }
    std::error_code error;
    const auto size = std::filesystem::file_size(dir / kernel.cubin_file, error);
    if (error || size != kernel.cubin_bytes) {
      throw ManifestError(ManifestError::Kind::Invalid,
                          file.string() + ": " + kernel.name + ": " + (dir / kernel.cubin_file).string() +
                              (error ? " is missing" : " has " + std::to_string(size) + " bytes, the manifest says " +
                                                           std::to_string(kernel.cubin_bytes)));
    }
  }
  return manifest;
}

}  // namespace gemmtune::dispatch
