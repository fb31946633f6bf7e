// tunedb export-kernels: writes a database's winners for one GPU as an ahead-of-time export (a
// folder of cubins and manifest.json, kernel_manifest.hpp) that Runtime::open_manifest serves
// without SQLite or NVRTC. Each cubin is the database's where it holds one for this build, else
// compiled now (no GPU needed).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "tuning_db.hpp"

namespace gemmtune::dispatch {

struct ExportSummary {
  std::size_t problems = 0;           // tuned problems exported
  std::size_t unusable_problems = 0;  // winners this build cannot run (an unknown family): left out
  std::size_t kernels = 0;            // cubins written
  std::size_t from_database = 0;      // of them, the database's
  std::size_t compiled = 0;           // of them, compiled by this export
};

// Exports the winners of `gpu` in `db` (and every configuration the runtime may select for it:
// selectable_configs) into `out_dir`, which appears whole or not at all: it is written beside it
// and moved into place, replacing an earlier export there. Throws InputError for an out_dir that
// exists and is not a folder, or is a non-empty folder without a manifest (never replaced), and
// NvrtcError or std::runtime_error when a kernel cannot be compiled or a file written (out_dir is
// then as it was).
ExportSummary export_kernels(const cache::Database& db, const cache::GpuKey& gpu, const std::filesystem::path& out_dir);

}  // namespace gemmtune::dispatch
