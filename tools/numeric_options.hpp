// CLI11 checks of the tools' numeric options, with messages that say what is wanted and what was
// given: "--target-ms: must be a number > 0 (got '-1')", where CLI::PositiveNumber said "Value -1
// not in range 0.000000 to 1797693134862315708145..." (the bound printed with all 309 digits).
#pragma once

#include <CLI/CLI.hpp>

namespace gemmtune {

// A finite number, e.g. --alpha.
CLI::Validator finite_number();
// A finite number > 0, e.g. --target-ms.
CLI::Validator positive_number();
// A whole number from `least` to `most`, e.g. --jobs (1 to INT_MAX) or --mib (1 to 65536).
CLI::Validator whole_number(long long least, long long most);

}  // namespace gemmtune
