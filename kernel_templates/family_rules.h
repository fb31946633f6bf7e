// How a kernel family's legality is written once, for both compilers. A family's rules header
// (warptile_rules.h, ...) defines GEMMTUNE_<FAMILY>_RULES(RULE, FAMILY), a list of
// RULE(FAMILY, condition, "why it is refused") over the template's parameter names (BM, BN, ...,
// L for the layout, ALIGN) and the derived sizes the header gives functions for (THREADS,
// SMEM_BYTES). The kernel template expands the list with GEMMTUNE_STATIC_ASSERT_RULE and its
// family's name as a literal: one static_assert a rule, whose message ("warptile: BK must be a
// multiple of 4") is a literal, as static_assert needs. The host's check expands the same list
// with GEMMTUNE_HOST_RULE (runtime/families/kernel_family.hpp), in the same order: the first rule
// broken is why a configuration is refused, in the same words. One list: the two cannot disagree.
// Plain C++ and GEMMTUNE_HOST_DEVICE functions: NVRTC and the host compiler both read it.
#pragma once

#include "gemm_params.h"

#define GEMMTUNE_STATIC_ASSERT_RULE(family, condition, message) static_assert(condition, family ": " message);
