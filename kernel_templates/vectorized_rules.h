// The legality of a vectorized configuration, for vectorized.cuh's static_asserts and the host's
// check alike (family_rules.h says how). Rules read BM BN BK TM TN, ALIGN and THREADS
// (reg2d_threads: the thread tiles are reg2d's).
#pragma once

#include "family_rules.h"
#include "reg2d_rules.h"

#define GEMMTUNE_VECTORIZED_RULES(RULE, FAMILY)                                                    \
  RULE(FAMILY, TM % 4 == 0 && TN % 4 == 0 && TM > 0 && TN > 0, "TM and TN must be multiples of 4") \
  RULE(FAMILY, BM % TM == 0 && BN % TN == 0, "BM and BN must be multiples of TM and TN")           \
  RULE(FAMILY, BK % 4 == 0 && BK > 0, "BK must be a multiple of 4")                                \
  RULE(FAMILY, THREADS >= 32 && THREADS <= 1024, "(BM / TM) * (BN / TN) threads must be 32..1024") \
  RULE(FAMILY, (BM * BK / 4) % THREADS == 0,                                                       \
       "the A tile's 128-bit chunks (BM * BK / 4) must divide evenly over the threads")            \
  RULE(FAMILY, (BK * BN / 4) % THREADS == 0,                                                       \
       "the B tile's 128-bit chunks (BK * BN / 4) must divide evenly over the threads")            \
  RULE(FAMILY, 4LL * (BM * BK + BK * BN) <= 48 * 1024, "static shared memory must fit in 48 KB")   \
  RULE(FAMILY, ALIGN == 1 || ALIGN == 2 || ALIGN == 4, "ALIGN must be 1, 2 or 4")
