#include "log_options.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>

namespace gemmtune {

void add_log_options(CLI::App& app, LogOptions& options) {
  CLI::Option* verbose = app.add_flag("-v,--verbose", options.verbose, "Debug logs: each step, on standard error");
  CLI::Option* quiet =
      app.add_flag("-q,--quiet", options.quiet, "Only warnings, errors and the results (no progress or info logs)");
  verbose->excludes(quiet);
}

void start_logging(std::string_view tool, const LogOptions& options) {
  // Thread-safe: tune --devices logs from a thread a GPU.
  spdlog::set_default_logger(spdlog::stderr_color_mt(std::string(tool)));
  spdlog::set_pattern("%n: %^%l%$: %v");
  spdlog::set_level(options.verbose ? spdlog::level::debug
                    : options.quiet ? spdlog::level::warn
                                    : spdlog::level::info);
}

}  // namespace gemmtune
