// What the host knows about a kernel family (one template in kernel_templates/), as one unit: its
// tunable parameters, its legality (the rule list of its kernel_templates/<name>_rules.h, which
// the template's static_asserts expand too), the calls it serves, its launch shape, workspace
// and kernel arguments, what the cost model needs to know of it, and the archs it runs on. A
// family is a subclass in runtime/families/<name>_family.cpp, listed in family_registry.cpp.
#pragma once

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "device.hpp"
#include "gemm_params.h"
#include "kernel_config.hpp"
#include "operand_staging.hpp"
#include "precision.hpp"
#include "problem.hpp"

namespace gemmtune {

struct ParamSpec {
  std::string name;                // template parameter name, e.g. "BM"
  int default_value;               // the family's default configuration
  std::vector<int> search_values;  // the values the tuner tries
  // A parameter added after kernel names were stored: names leave it out at its default value, so
  // that every name written before it existed still parses, as the kernel it always named.
  bool named_off_default_only = false;
};

// Every template parameter lies in 1..kMaxParamValue (KernelFamily::check refuses the rest).
inline constexpr int kMaxParamValue = 16384;

// Blocks of `b` needed to cover `a` (a >= 0, b > 0), as a grid dimension.
inline unsigned ceil_div(int a, int b) { return static_cast<unsigned>((a + b - 1) / b); }

struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
  std::size_t dynamic_smem_bytes;
};

// A kernel of a configuration's own cubin that runs before it on every call, on the operands the
// configuration reads (after any staged copies): WATCH 2 of tmawgmma and tf32x3 scans A and B for tiny values
// (kernel_templates/tiny_scan.cuh) into its workspace.
struct Prepass {
  const char* kernel = nullptr;     // its extern "C" symbol in the cubin
  LaunchShape shape{};
  long long workspace_offset = 0;   // floats into the workspace where it writes
  double floats_read = 0;           // what it reads from memory, for the cost model
};

// The prepass of a 3xTF32 configuration with WATCH 2 (tmawgmma, tf32x3): the tiny-value scan of
// tiny_scan.cuh, a block a flag (at most 2^20 blocks: it strides past), writing a call's flags
// from `flags_offset` floats into the workspace; it reads A and B once.
Prepass tiny_scan_prepass(const Problem& problem, long long flags_offset);

// The argument block of one launch, as the kernel takes it (one parameter, passed by value):
// GemmParams for most families; a family whose kernel takes more (GemmParams and TMA
// descriptors, say) fills it with its own struct in build_arguments.
struct KernelArguments {
  static constexpr std::size_t kCapacity = 1024;  // bytes; CUDA passes up to 4 KB of parameters
  alignas(128) unsigned char bytes[kCapacity];    // 128: a CUtensorMap's alignment in cuda.h
  std::size_t size = 0;

  template <class T>
  void set(const T& value) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kCapacity && alignof(T) <= 128,
                  "a kernel's arguments are a plain struct of at most kCapacity bytes");
    std::memcpy(bytes, &value, sizeof(T));
    size = sizeof(T);
  }
};

// What the cost model (cost_model.hpp) knows of a configuration: the family's measured
// standing and the tile structure its terms are made of.
struct CostTraits {
  // The fraction of cuBLAS the family's default configuration reached on 4096^3 (the model pins
  // the default to it), and the family's arithmetic ceiling in units of the FP32 FMA peak (1 for
  // FFMA families; more for tensor-core ones).
  double measured_fraction = 0;
  double peak_factor = 1.0;
  bool tiles_in_smem = false;  // stages A and B tiles in shared memory
  bool vector_access = false;  // global loads as wide as the call's alignment allows
  // Floats the kernel's loads of A and B are aligned to, where not the call's ALIGN (operands read
  // from aligned copies: warptile COPY 2); 0: the call's.
  int operand_align = 0;
  // The block tile BM x BN x BK a block computes; the TM x TN accumulators a thread keeps (and TM
  // + TN fragment registers), and registers beyond them; pipeline stages; slices of K.
  int bm = 1, bn = 1, bk = 8;
  int tm = 1, tn = 1;
  int extra_registers = 0;
  int stages = 1;
  int split_k = 1;
};

// What a persistent kernel's busiest block does, for the cost model: its work units (a unit is a
// tile's k range divided by the split-K slices of CostTraits) and the units of the whole grid.
struct PersistentWork {
  double busiest_block_units;
  double units;
};

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;

  // --- What it is
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

  // --- Where it runs and which calls it serves
  // The arch NVRTC compiles this family for on a GPU of arch `device_arch` ("sm_90"), or nullopt
  // when the family cannot run there: wgmma needs Hopper and is compiled for "sm_90a", whose
  // instructions no other GPU has. Every other family compiles for the device's own arch.
  virtual std::optional<std::string> compile_arch(const std::string& device_arch) const { return device_arch; }
  // ALIGN values the template accepts, largest first: a call less aligned than the smallest gets
  // another family.
  virtual std::vector<int> alignments() const { return {1}; }
  // The layouts the template serves; the search space, dispatch and gemmbench pass the family by
  // for the others, and check() refuses them.
  virtual bool supports_layout(Layout /*layout*/) const { return true; }
  // How far a product a * b the kernel computes may be from the exact one, in units of
  // 2^-24 |a b|, beyond the rounding of FP32 accumulation: 0 for FFMA (the product is exact
  // before its one rounding), more for a family that splits its operands (tf32x3). Tests and the
  // check against FP64 widen their bound by as much.
  virtual int product_error_units() const { return 0; }
  // The precision class of the family's arithmetic (precision.hpp): strict for FFMA, fp32 for
  // 3xTF32, tf32 for single-pass TF32. The tuner and the runtime serve a caller only kernels its
  // class admits.
  virtual Precision precision() const { return Precision::Strict; }

  // --- Legality
  // Why this configuration cannot be instantiated, or nullopt when it can: the parameters are
  // the family's, each in 1..kMaxParamValue, the alignment and layout are served, and then the
  // family's rules (check_params), the same list the template's static_asserts expand.
  std::optional<std::string> check(const KernelConfig& config) const;

  // Why this configuration cannot serve a batched call (p.batch > 1, or `pointer_arrays`: A, B and
  // C given as arrays of pointers), or nullopt when it can: its kernel then takes its entry with
  // batch_entry() (common.cuh) from the grid dimension launch_shape() gives the batch. The
  // default: the family serves plain calls only, and can_implement refuses it the others.
  virtual std::optional<std::string> batch_refusal(const KernelConfig& config, bool pointer_arrays) const;
  // Why this configuration, which batch_refusal() admits, cannot serve the strides of this strided
  // batched call (p.batch > 1, no pointer arrays); nullopt when it can. The default: any strides.
  virtual std::optional<std::string> stride_refusal(const KernelConfig& /*config*/, const GemmParams& /*p*/) const {
    return std::nullopt;
  }

  // --- Launch (on a configuration check() accepts)
  // Dynamic shared memory a block takes, whatever the problem.
  virtual std::size_t dynamic_smem_bytes(const KernelConfig& /*config*/) const { return 0; }
  // Grid, block and dynamic shared memory for `problem` (its batch included, where
  // batch_refusal() admits one) on `device`.
  virtual LaunchShape launch_shape(const KernelConfig& config, const Problem& problem, const DeviceTraits& device) const = 0;
  // Scratch the kernel needs in GemmParams::workspace, in floats (split-K partial sums and
  // per-tile arrival counters).
  virtual std::size_t workspace_floats(const KernelConfig& /*config*/, const Problem& /*problem*/,
                                       const DeviceTraits& /*device*/) const {
    return 0;
  }
  // The first floats of that workspace, its arrival counters, which must be zero when the kernel
  // starts; it leaves them at zero again. The rest (partial sums, staged copies) it writes before
  // it reads. A buffer shared by several kernels or shapes is therefore zeroed only where the next
  // launch's counters reach past the last one's (jit/workspace.hpp).
  virtual std::size_t workspace_counter_floats(const KernelConfig& /*config*/, const Problem& /*problem*/,
                                               const DeviceTraits& /*device*/) const {
    return 0;
  }
  // Where the configuration reads A and B from aligned copies in its workspace rather than where
  // the call has them (core/operand_staging.hpp): how a family whose loads need 16-byte rows
  // (TMA) serves less aligned calls. nullopt, the default: the kernel reads the call's operands.
  // workspace_floats() counts the copies (it is the layout's end).
  virtual std::optional<StagedOperandLayout> operand_staging(const KernelConfig& /*config*/, const Problem& /*problem*/,
                                                             const DeviceTraits& /*device*/) const {
    return std::nullopt;
  }
  // The kernel to launch before this configuration on `problem`, if any (Prepass). nullopt, the
  // default: none. workspace_floats() counts what it writes.
  virtual std::optional<Prepass> prepass(const KernelConfig& /*config*/, const Problem& /*problem*/,
                                         const DeviceTraits& /*device*/) const {
    return std::nullopt;
  }
  // The prepass's argument block for one call, `params` as the configuration's kernel gets them.
  // Called for every launch, from any thread: it must not build strings or lock.
  virtual void build_prepass_arguments(const KernelConfig& /*config*/, const GemmParams& /*params*/,
                                       const Prepass& /*prepass*/, KernelArguments& /*out*/) const {}
  // The kernel's argument block for one call: GemmParams as given, unless the family's kernel
  // takes more. Called for every launch, from any thread: it must not build strings or lock.
  virtual void build_arguments(const KernelConfig& /*config*/, const GemmParams& params, KernelArguments& out) const {
    out.set(params);
  }

  // --- Search and cost model
  // Whether the tuner should measure this configuration on `problem` on a GPU with `sm_count` SMs:
  // false for configurations that are correct but cannot be competitive there (split-K when the
  // output tiles alone fill the GPU, a skinny kernel on a tall problem).
  virtual bool worth_searching(const KernelConfig& /*config*/, const Problem& /*problem*/, int /*sm_count*/) const {
    return true;
  }
  virtual CostTraits cost_traits(const KernelConfig& config) const = 0;
  // Parameter changes from the default that the tuner measures first on every problem, beside
  // the default: configurations measured to win on some GPU where the cost model does not rank
  // them first, so that a short search still finds them. Each is a list of (parameter, value).
  virtual std::vector<std::vector<std::pair<std::string, int>>> search_seeds() const { return {}; }
  // Parameter changes from the default for a kind of shape the default serves badly (one row, K
  // far deeper than M and N), each the measured winner of such a shape on some GPU. They are
  // defaults as much as default_config() is: an untuned call ranks them beside it by the cost
  // model for its own shape (dispatch/select_kernel.cpp), the ahead-of-time export ships them,
  // and the tuner measures them first, as it does the seeds.
  virtual std::vector<std::vector<std::pair<std::string, int>>> shape_defaults() const { return {}; }
  // For a persistent kernel (a grid of at most one block an SM, each block walking many tiles):
  // the work of its busiest block; nullopt, the default, for a kernel of one tile a block.
  virtual std::optional<PersistentWork> persistent_work(const KernelConfig& /*config*/, const Problem& /*problem*/,
                                                        const DeviceTraits& /*device*/) const {
    return std::nullopt;
  }

  KernelConfig default_config(Layout layout = Layout::NN, int align = 1) const;
  // default_config() first, then each of shape_defaults() that check() accepts for the layout
  // and alignment.
  std::vector<KernelConfig> default_configs(Layout layout, int align) const;
  // The template instantiation NVRTC compiles: "gemmtune::reg2d_sgemm<128, ..., gemmtune::Layout::NN, 1>".
  std::string instantiation(const KernelConfig& config) const;

 protected:
  // The family's own rules, applied once the parameters are known to be complete: its rules
  // list expanded with GEMMTUNE_HOST_RULE, over locals named as the template's parameters.
  virtual std::optional<std::string> check_params(const KernelConfig& config) const = 0;
};

}  // namespace gemmtune

// One rule of a family's list (kernel_templates/family_rules.h) on the host: the first broken
// rule's message, after the family's name, is check()'s answer.
#define GEMMTUNE_HOST_RULE(family, condition, message) \
  if (!(condition)) return std::optional<std::string>(std::string(family) + ": " + (message));
