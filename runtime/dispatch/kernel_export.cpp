#include "kernel_export.hpp"

#include <stdlib.h>

#include <fstream>
#include <stdexcept>

#include "binary_store.hpp"
#include "family_registry.hpp"
#include "kernel_manifest.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"
#include "problem_rows.hpp"
#include "select_kernel.hpp"
#include "tuning_table.hpp"

namespace gemmtune::dispatch {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

// A new folder beside `target` (".NAME.tmp-XXXXXX"), removed on destruction unless released.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const fs::path& target) {
    std::string pattern = (target.parent_path() / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw InputError(target.string() + ": cannot create a folder beside it to write the export in");
    }
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const fs::path& path() const { return path_; }
  void release() { path_.clear(); }

 private:
  fs::path path_;
};

// What may be replaced: nothing there, an empty folder, or an earlier export.
void check_replaceable(const fs::path& out_dir) {
  std::error_code error;
  const fs::file_status status = fs::status(out_dir, error);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status)) throw InputError(out_dir.string() + ": exists and is not a folder");
  if (!fs::is_empty(out_dir) && !fs::exists(out_dir / kManifestFile)) {
    throw InputError(out_dir.string() + ": a folder that is not an export (no " + kManifestFile +
                     "); not replacing it: name a new or empty folder");
  }
}

// Moves the finished export into place; an earlier export there goes only once the new one is in.
void move_into_place(TemporaryFolder& written, const fs::path& out_dir) {
  if (fs::exists(out_dir)) {
    TemporaryFolder old(out_dir);  // a free name beside it
    fs::remove(old.path());
    fs::rename(out_dir, old.path());
    fs::rename(written.path(), out_dir);
  } else {
    fs::rename(written.path(), out_dir);
  }
  written.release();
}

}  // namespace

ExportSummary export_kernels(const cache::Database& db, const cache::GpuKey& gpu, const fs::path& out_dir) {
  check_replaceable(out_dir);
  const DeviceTraits device{gpu.sm_count, gpu.cc_major * 10 + gpu.cc_minor};
  const std::string arch = "sm_" + std::to_string(device.arch);
  KernelManifest manifest;
  manifest.gpu = gpu;
  manifest.arch = arch;
  manifest.nvrtc_version = nvrtc_version();
  manifest.exported_from = db.path();
  manifest.exported_at = cache::now_utc_iso8601();

  ExportSummary summary;
  const TuningTable table(db.all_winners(), gpu);
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (const TunedProblem& tuned : table.of_layout(layout)) {
      if (!tuned.config) {
        ++summary.unusable_problems;
        continue;
      }
      const KernelFamily& family = find_family(tuned.config->family);
      manifest.problems.push_back({to_row(tuned.problem), tuned.winner,
                                   family.launch_shape(*tuned.config, tuned.problem, device),
                                   family.workspace_floats(*tuned.config, tuned.problem, device) * sizeof(float)});
    }
  }
  summary.problems = manifest.problems.size();

  TemporaryFolder written(out_dir);
  fs::create_directory(written.path() / "cubins");
  for (const KernelConfig& config : selectable_configs(table, arch)) {
    const std::string name = kernel_name(config);
    ManifestKernel kernel{name, "", "cubins/" + name + ".cubin", 0, 0, 0};
    std::vector<char> cubin;
    if (std::optional<cache::Binary> stored = db.find_binary(binary_key(config, arch))) {
      kernel.lowered_name = stored->lowered_name;
      kernel.registers = stored->registers;
      kernel.spill_bytes = stored->spill_bytes;
      cubin = std::move(stored->cubin);
      ++summary.from_database;
    } else {
      CompiledKernel compiled = compile_kernel(config, arch);
      kernel.lowered_name = compiled.lowered_name;
      kernel.registers = compiled.resources.registers;
      kernel.spill_bytes = std::max(compiled.resources.spill_store_bytes, 0);
      cubin = std::move(compiled.cubin);
      ++summary.compiled;
    }
    kernel.cubin_bytes = cubin.size();
    write_file(written.path() / kernel.cubin_file, cubin.data(), cubin.size());
    manifest.kernels.push_back(std::move(kernel));
  }
  summary.kernels = manifest.kernels.size();
  const std::string text = manifest_json(manifest);
  write_file(written.path() / kManifestFile, text.data(), text.size());
  move_into_place(written, out_dir);
  return summary;
}

}  // namespace gemmtune::dispatch
