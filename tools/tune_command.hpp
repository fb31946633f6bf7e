// The `tune` command line as a function: tools/tune.cpp is only its main(), and a test program
// that registers a kernel family of its own first (tests/reliability/tune_with_faults.cpp) runs
// the very same program.
#pragma once

namespace gemmtune {

// Parses the arguments, tunes (or compiles, with --dry-run) and prints the report; returns the
// exit code: 0 done, 2 bad input, 3 failure while running.
int tune_main(int argc, char** argv);

}  // namespace gemmtune
