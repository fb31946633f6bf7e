// The tuner's spill limit: candidates that spill a few bytes are measured, more are recorded as
// `spills` without a measurement (tuner/spill_limit.hpp).
#include <catch2/catch.hpp>

#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"
#include "spill_limit.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

TEST_CASE("spill limit: a few spilled bytes are measured, more are not", "[tuner]") {
  // tf32x3 128x128x32 with 64 x 64 warp tiles on sm_90: 24 bytes of spill stores, 32 of loads,
  // a 24-byte stack frame.
  CHECK_FALSE(spills_too_much(24, 32));
  CHECK_FALSE(spills_too_much(std::size_t{24}));
  CHECK_FALSE(spills_too_much(0, 0));
  CHECK_FALSE(spills_too_much(-1, -1));  // ptxas said nothing: the loaded kernel's check decides
  CHECK_FALSE(spills_too_much(kMeasuredSpillBytes, kMeasuredSpillBytes));
  CHECK(spills_too_much(kMeasuredSpillBytes + 1, 0));
  CHECK(spills_too_much(0, 212));
  CHECK(spills_too_much(std::size_t{kMeasuredSpillBytes + 1}));
}

TEST_CASE("spill limit: a configuration the tuner now measures spills no more than the limit", "[nvrtc]") {
  // The configuration the limit was chosen for, compiled here: if a change of the template or of
  // NVRTC makes it spill past the limit, the tuner would skip it again, and this says so.
  const KernelConfig config = parse_kernel_name("gemmtune_sgemm_tf32x3_nn_bm128_bn128_bk32_wm64_wn64_stages3_splitk1_align4");
  const CompiledKernel compiled = compile_kernel(config, "sm_90");
  INFO(to_string(compiled.resources));
  if (compiled.log.empty()) return;  // no ptxas report in this process (see test_compile.cpp)
  CHECK_FALSE(spills_too_much(compiled.resources.spill_store_bytes, compiled.resources.spill_load_bytes));
}
