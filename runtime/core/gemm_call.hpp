// Checks on one GEMM call (shape, pointers, leading dimensions), made on the host before anything
// is launched, and how it reads in messages.
#pragma once

#include <optional>
#include <string>

#include "gemm_params.h"
#include "problem.hpp"

namespace gemmtune {

// Why the call is invalid (M, N or K < 1, a batch outside 1..kMaxBatch, a null pointer, pointer
// arrays for some operands only, a leading dimension below its minimum for the layout, a
// negative stride of A or B, a stride of C that makes entries overlap), or nullopt.
std::optional<std::string> validate_call(const GemmParams& params, Layout layout);

// The widest access (in floats: 4, 2 or 1) that every pointer, leading dimension and batch stride
// allows; 1 for pointer arrays (their entries are not known on the host).
int call_alignment(const GemmParams& params);

// The problem a call computes: its layout, sizes and batch.
Problem problem_of(const GemmParams& params, Layout layout);

// "nn 1000x999x777" ("nn 128x128x128 batch 64") for messages.
std::string describe_call(const GemmParams& params, Layout layout);

}  // namespace gemmtune
