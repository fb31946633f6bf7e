// The legality of a skinny configuration, for skinny.cuh's static_asserts and the host's check
// alike (family_rules.h says how), and the sizes both derive from it. Rules read NT KG MT KC U
// SPLITK PREFETCH, ALIGN, THREADS and SMEM_BYTES.
#pragma once

#include "family_rules.h"
#include "splitk_workspace.h"

namespace gemmtune {

// Sizes in 64 bits, so that the host can work them out for any parameters before its rules
// refuse them.
GEMMTUNE_HOST_DEVICE constexpr long long skinny_threads(int NT, int KG) { return 1LL * NT * KG; }

// A's chunk (KC rows of MT) and, later, the KG partial sums of MT x 4 NT outputs share it.
GEMMTUNE_HOST_DEVICE constexpr long long skinny_smem_bytes(int NT, int KG, int MT, int KC) {
  return 4 * (1LL * KC * MT > 4LL * KG * MT * NT ? 1LL * KC * MT : 4LL * KG * MT * NT);
}

}  // namespace gemmtune

#define GEMMTUNE_SKINNY_RULES(RULE, FAMILY)                                             \
  RULE(FAMILY, NT >= 1 && KG >= 1 && THREADS % 32 == 0 && THREADS <= 1024,              \
       "NT * KG threads must be a multiple of 32 and at most 1024")                     \
  RULE(FAMILY, MT >= 1 && MT <= 32, "MT must be 1..32")                                 \
  RULE(FAMILY, ALIGN == 1 || ALIGN == 2 || ALIGN == 4, "ALIGN must be 1, 2 or 4")       \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")            \
  RULE(FAMILY, splitk_slices_legal(SPLITK), "SPLITK above 16 must be a multiple of 16") \
  RULE(FAMILY, PREFETCH == 1 || PREFETCH == 2, "PREFETCH must be 1 or 2")
