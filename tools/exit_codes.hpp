// The exit codes every gemmtune tool shares, as each one's --help says: 0 done, 2 bad input
// (flags, files, databases, names: refused before any work), 3 a failure while running.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "error.hpp"
#include "log_options.hpp"

namespace gemmtune {

inline constexpr int kExitDone = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitFailure = 3;

// Input a tool cannot use (a file, a database, a name, a value); the tool exits kExitBadInput
// with the message. The libraries below throw it as InputError (runtime/core/error.hpp).
using BadInput = InputError;

// "Exit codes: 0 done, 2 bad input (BAD_INPUT), 3 failure while running (FAILURE)." for --help,
// on two lines where one would be long.
std::string exit_codes_help(std::string_view bad_input, std::string_view failure);

// Parse errors read "TOOL: what is wrong" instead of CLI11's bare message.
void prefix_parse_errors(CLI::App& app, std::string tool);

// Prints what CLI11 prints for a parse error (the help, or the error) and returns the exit code:
// kExitDone for --help, kExitBadInput for anything else (CLI11's own codes are 100 and up). An
// argument the command line does not know is the error reported, whatever else CLI11 met first.
int exit_for_parse_error(const CLI::App& app, const CLI::ParseError& error);

// The end of a tool's main(): names the app TOOL (for "Usage: TOOL ..."), parses the command line
// (--help or a parse error ends it there, with
// exit_for_parse_error's code), starts TOOL's logging as `log_options` say, then runs `body`. What
// `body` throws is logged as an error and becomes the exit code: BadInput kExitBadInput, any other
// exception kExitFailure. Otherwise `body`'s own return value is the exit code.
int parse_and_run(CLI::App& app, int argc, char** argv, std::string_view tool, const LogOptions& log_options,
                  const std::function<int()>& body);

}  // namespace gemmtune
