// The ahead-of-time export of a tuning database: a folder with manifest.json and the winners'
// cubins (cubins/NAME.cubin), which Runtime::open_manifest serves calls from without SQLite or
// NVRTC. `tunedb export-kernels` writes it (kernel_export.hpp); this file is its format, read
// and written in one place. docs/api.md ("Ahead of time") describes the fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cache_records.hpp"
#include "error.hpp"
#include "kernel_family.hpp"

namespace gemmtune::dispatch {

inline constexpr const char* kManifestFile = "manifest.json";
inline constexpr const char* kManifestFormat = "gemmtune-kernels";
inline constexpr int kManifestVersion = 1;

// One cubin of the export: a configuration compiled for the manifest's arch by the build that
// exported it.
struct ManifestKernel {
  std::string name;          // kernel_name(config)
  std::string lowered_name;  // the symbol inside the cubin
  std::string cubin_file;    // relative to the folder: "cubins/NAME.cubin"
  std::uint64_t cubin_bytes = 0;
  int registers = 0;
  int spill_bytes = 0;
};

// One tuned problem: its winner, and the winner's launch on the problem itself (what a call of
// exactly this shape gets; other shapes are planned when called).
struct ManifestProblem {
  cache::Problem problem;
  cache::Winner winner;
  LaunchShape launch{};
  std::size_t workspace_bytes = 0;
};

struct KernelManifest {
  cache::GpuKey gpu;
  std::string arch;           // the cubins' arch, "sm_90"
  std::string nvrtc_version;  // of the build that compiled them
  std::string exported_from;  // the database's path
  std::string exported_at;    // UTC ISO-8601
  std::vector<ManifestProblem> problems;
  // Every configuration the runtime may select for this GPU: each winner at each alignment its
  // family narrows it to, and the default kernels of every layout.
  std::vector<ManifestKernel> kernels;
};

// A manifest that cannot be used: missing (NotFound) or not one of this format and version, or
// naming a cubin that is not there whole. The message starts with the file.
class ManifestError : public Error {
 public:
  enum class Kind { NotFound, Invalid };
  ManifestError(Kind kind, const std::string& message) : Error(message), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

std::string manifest_json(const KernelManifest& manifest);

// Reads DIR/manifest.json and checks that each cubin it names is a file of the size it gives.
// Throws ManifestError.
KernelManifest read_manifest(const std::filesystem::path& dir);

}  // namespace gemmtune::dispatch
