// -v/--verbose and -q/--quiet, with the same meaning in every tool: debug logs, or only warnings,
// errors and the results. Logs go to standard error as "TOOL: LEVEL: message" (coloured on a
// terminal, plain when piped); results go to standard output.
#pragma once

#include <CLI/CLI.hpp>

#include <string_view>

namespace gemmtune {

struct LogOptions {
  bool verbose = false;  // debug and up
  bool quiet = false;    // warnings and errors only
};

// Adds -v/--verbose and -q/--quiet to `app`; they exclude each other.
void add_log_options(CLI::App& app, LogOptions& options);

// Makes the default spdlog logger TOOL's, on standard error, at the level `options` ask for.
void start_logging(std::string_view tool, const LogOptions& options);

}  // namespace gemmtune
