// The legality of a naive, coalesced or smem configuration (the seed chapter's first three steps:
// a TILE x TILE block, one output a thread), for the templates' static_asserts and the host's
// check alike (family_rules.h says how). Rules read TILE and ALIGN.
#pragma once

#include "family_rules.h"

#define GEMMTUNE_THREAD_PER_OUTPUT_RULES(RULE, FAMILY)                                  \
  RULE(FAMILY, TILE >= 1 && TILE * TILE <= 1024, "TILE * TILE threads must be 1..1024") \
  RULE(FAMILY, ALIGN == 1, "reads single floats; ALIGN must be 1")
