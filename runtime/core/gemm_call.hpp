// Checks on one GEMM call (shape, pointers, leading dimensions), made on the host before anything
// is launched, and how it reads in messages.
#pragma once

#include <optional>
#include <string>

#include "gemm_params.h"

namespace gemmtune {

// Why the call is invalid (M, N or K < 1, a null pointer, a leading dimension below its minimum
// for the layout), or nullopt.
std::optional<std::string> validate_call(const GemmParams& params, Layout layout);

// The widest access (in floats: 4, 2 or 1) that every pointer and leading dimension allows.
int call_alignment(const GemmParams& params);

// "nn 1000x999x777" for messages.
std::string describe_call(const GemmParams& params, Layout layout);

}  // namespace gemmtune
