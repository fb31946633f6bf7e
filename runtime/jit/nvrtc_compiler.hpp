// Configuration + arch -> cubin, through NVRTC. The family's template is compiled from the
// embedded sources (and the family's own source text, for a family registered from outside
// kernel_templates/) and instantiated by name (nvrtcAddNameExpression / nvrtcGetLoweredName).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_config.hpp"
#include "kernel_name.hpp"

namespace gemmtune {

class KernelFamily;

// What ptxas reported for the kernel (parsed from the compile log; -1 where it said nothing).
struct ResourceUsage {
  int registers = -1;
  int static_smem_bytes = -1;
  int stack_frame_bytes = -1;
  int spill_store_bytes = -1;
  int spill_load_bytes = -1;
  bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

struct CompiledKernel {
  std::string kernel_name;    // kernel_name(config)
  std::string instantiation;  // the template instantiation that was compiled
  std::string lowered_name;   // the mangled symbol inside the cubin
  std::string arch;           // "sm_90"
  std::vector<char> cubin;
  std::string log;            // NVRTC's log, with ptxas's resource report
  ResourceUsage resources;
};

// Compiles one configuration for `arch` ("sm_80", "sm_90", ...). Throws std::invalid_argument for
// a configuration the family refuses or an arch NVRTC does not know, and NvrtcError (with the
// whole log and the instantiation) when compilation fails.
// `extra_options` are appended to the options (a developer's experiment, e.g. "--time=FILE"):
// a cubin compiled with any is not what the key of binary_key() names, and is never stored.
CompiledKernel compile_kernel(const KernelConfig& config, const std::string& arch,
                              const std::vector<std::string>& extra_options = {});

// Compiles `source` (which may include the embedded kernel templates) for `target` ("sm_90",
// "sm_90a") and returns the cubin with `name_expression` (a __global__ function or template
// instantiation in it) lowered. For developer tools that need a kernel that is not a GEMM
// family's; compile_kernel is this plus the family's checks. `program_name` names the program in
// NVRTC's messages. Throws std::invalid_argument for an arch NVRTC does not know and NvrtcError
// (with the log) when compilation fails.
CompiledKernel compile_source(const std::string& source, const std::string& program_name,
                              const std::string& name_expression, const std::string& target);

// A digest of every source text compile_kernel compiles `family`'s kernels from: the embedded
// templates, and the family's source_text() where it has one. Part of a stored cubin's key.
std::string source_hash(const KernelFamily& family);
// The options compile_kernel passes, besides the arch; part of a stored cubin's key.
std::string nvrtc_compile_options();
// "13.0"
std::string nvrtc_version();
// Archs this NVRTC can compile for, as "sm_XX".
std::vector<std::string> nvrtc_supported_archs();
// Throws std::invalid_argument listing the supported archs unless `arch` is one of them.
void require_supported_arch(const std::string& arch);

// With a driver present, NVRTC 13 answers a program it compiled before from the driver's
// compute cache, and then gives no ptxas report: registers, shared memory and spills would read
// unknown, and a spilling candidate would not be recorded as such. A program that needs the
// report of every compile (the tuner, kernelc, gemmbench) calls this first thing in main(), before
// any NVRTC call and before it forks workers: it turns the cache off for the process
// (CUDA_CACHE_DISABLE=1). The library never does so itself: a user's process keeps its cache,
// and dispatch, which compiles only on a miss, needs no report.
void keep_ptxas_reports();

// Reads ptxas's report ("Used 40 registers", "8 bytes spill stores", ...) of the GEMM kernel from
// a compile log. A cubin may hold helper kernels beside it (the staged copies, the tiny-value
// scan), each with a report of its own: the one read is the section of entry function `entry`
// (the lowered name) where given and present, else the first whose function is not a helper.
// ptxas leaves out "bytes smem" for a kernel without static shared memory: 0 when the report is
// there (registers known), -1 when there is none.
ResourceUsage parse_ptxas_report(const std::string& log, std::string_view entry = {});
// "40 registers, 8192 B static smem, 0 B stack, 0 B spill stores, 0 B spill loads"; a figure
// the report did not give reads "unknown" (NVRTC gives no log at all in some processes; where
// there is a report without "bytes smem", static shared memory is 0).
std::string to_string(const ResourceUsage& usage);

}  // namespace gemmtune
