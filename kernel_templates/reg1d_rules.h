// The legality of a reg1d configuration, for reg1d.cuh's static_asserts and the host's check alike
// (family_rules.h says how). Rules read BM BN BK TM, ALIGN and THREADS.
#pragma once

#include "family_rules.h"

namespace gemmtune {

// In 64 bits, so that the host can work it out for any parameters before its rules refuse them.
GEMMTUNE_HOST_DEVICE constexpr long long reg1d_threads(int BM, int BN, int TM) { return 1LL * (BM / TM) * BN; }

}  // namespace gemmtune

#define GEMMTUNE_REG1D_RULES(RULE, FAMILY)                                                           \
  RULE(FAMILY, TM >= 1 && BM % TM == 0, "BM must be a multiple of TM")                               \
  RULE(FAMILY, THREADS >= 32 && THREADS <= 1024, "(BM / TM) * BN threads must be 32..1024")          \
  RULE(FAMILY, (BM * BK) % THREADS == 0, "the A tile (BM * BK) must divide evenly over the threads") \
  RULE(FAMILY, (BK * BN) % THREADS == 0, "the B tile (BK * BN) must divide evenly over the threads") \
  RULE(FAMILY, 4LL * (BM * BK + BK * BN) <= 48 * 1024, "static shared memory must fit in 48 KB")     \
  RULE(FAMILY, ALIGN == 1, "reads single floats; ALIGN must be 1")
