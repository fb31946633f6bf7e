// What the host knows about a kernel family (one template in kernel_templates/): its tunable
// parameters and their legal values, the legality rules that mirror the template's
// static_asserts, and how to launch it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_config.hpp"
#include "precision.hpp"

namespace gemmtune {

struct ParamSpec {
  std::string name;                // template parameter name, e.g. "BM"
  int default_value;               // the family's default configuration
  std::vector<int> search_values;  // the values the tuner tries
};

// Every template parameter lies in 1..kMaxParamValue (KernelFamily::check refuses the rest).
inline constexpr int kMaxParamValue = 16384;

// Blocks of `b` needed to cover `a` (a >= 0, b > 0), as a grid dimension.
inline unsigned ceil_div(int a, int b) { return static_cast<unsigned>((a + b - 1) / b); }

// Split-K (kernel_templates/splitk_epilogue.cuh), as the host sees it: the workspace in floats
// for `tiles` output tiles of an M x N problem cut into `splitk` slices (arrival counters, then
// the partial sums), and the template's rule on SPLITK (nullopt when it is legal).
constexpr int kSplitkGroup = 16;  // slices added by one block before the second level of the sum
std::size_t splitk_workspace_floats(long long tiles, int splitk, int M, int N);
std::optional<std::string> check_splitk(int splitk);

struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
  std::size_t dynamic_smem_bytes;
};

// The bytes of a kernel's one by-value argument for one launch: GemmParams for most families,
// GemmParams and two TMA tensor maps (128-byte aligned) for tmawgmma.
struct KernelArguments {
  alignas(128) unsigned char bytes[512];
};

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;

  virtual std::string_view name() const = 0;        // "reg2d"; no '_' (it is a name field)
  virtual std::string_view summary() const = 0;     // the key change, for tables and docs
  virtual std::string_view source_file() const = 0; // "reg2d.cuh"; NVRTC compiles #include "<it>"
  // The text of source_file() when it is not one of the embedded kernel_templates/ files (a
  // family a test program registers); it may include those. Empty for the built-in families.
  virtual std::string_view source_text() const { return {}; }
  virtual std::string_view kernel_template() const = 0;  // "gemmtune::reg2d_sgemm"
  virtual const std::vector<ParamSpec>& params() const = 0;
  // Whether `tune` searches this family unless told otherwise (the seed chapter's first steps
  // are baselines that never win).
  virtual bool tuned_by_default() const { return true; }
  // Whether the tuner should measure this configuration on an M x N x K problem on a GPU with
  // `sm_count` SMs: false for configurations that are correct but cannot be competitive there
  // (split-K when the output tiles alone fill the GPU, a skinny kernel on a tall problem).
  virtual bool worth_searching(const KernelConfig& /*config*/, int /*M*/, int /*N*/, int /*K*/, int /*sm_count*/) const {
    return true;
  }
  // ALIGN values the template accepts, largest first.
  virtual std::vector<int> alignments() const { return {1}; }
  // How far a product a * b the kernel computes may be from the exact one, in units of
  // 2^-24 |a b|, beyond the rounding of FP32 accumulation: 0 for FFMA (the product is exact
  // before its one rounding), more for a family that splits its operands (tf32x3). Tests and the
  // check against FP64 widen their bound by as much.
  virtual int product_error_units() const { return 0; }
  // The precision class of the family's arithmetic (precision.hpp): strict for FFMA, fp32 for
  // 3xTF32, tf32 for single-pass TF32. The tuner and the runtime serve a caller only kernels its
  // class admits.
  virtual Precision precision() const { return Precision::Strict; }
  // The arch NVRTC compiles this family for on a GPU of arch `device_arch` ("sm_90"), or nullopt
  // when the family cannot run there: wgmma needs Hopper and is compiled for "sm_90a", whose
  // instructions no other GPU has. Every other family compiles for the device's own arch.
  virtual std::optional<std::string> compile_arch(const std::string& device_arch) const { return device_arch; }

  // Why this configuration cannot be instantiated, or nullopt when it can. Mirrors the
  // template's static_asserts, so a bad configuration is refused before it is compiled.
  std::optional<std::string> check(const KernelConfig& config) const;
  // Grid, block and dynamic shared memory for an M x N output.
  virtual LaunchShape launch_shape(const KernelConfig& config, int M, int N) const = 0;
  // Fills `out` with the kernel's argument for this call (by default the GemmParams themselves).
  virtual void kernel_arguments(const KernelConfig& config, const GemmParams& params, KernelArguments& out) const;
  // Scratch the kernel needs in GemmParams::workspace, in floats (split-K partial sums and
  // per-tile arrival counters). The caller zero-fills it once when it allocates it; kernels
  // leave the counters at zero again when they finish.
  virtual std::size_t workspace_floats(const KernelConfig& /*config*/, int /*M*/, int /*N*/) const { return 0; }

  KernelConfig default_config(Layout layout = Layout::NN, int align = 1) const;
  // The template instantiation NVRTC compiles: "gemmtune::reg2d_sgemm<128, ..., gemmtune::Layout::NN, 1>".
  std::string instantiation(const KernelConfig& config) const;

 protected:
  // The family's own rules, applied once the parameters are known to be complete.
  virtual std::optional<std::string> check_params(const KernelConfig& config) const = 0;
};

}  // namespace gemmtune
