// --format table|csv|json, the one option by which tools that print results (tune's report,
// tunedb list) let a script read them: a table for people, CSV for spreadsheets, JSON for
// programs.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace gemmtune {

enum class ResultFormat { Table, Csv, Json };

// Adds --format to `command`, default table; `what` ends the help text ("the final table").
CLI::Option* add_format_option(CLI::App& command, ResultFormat& format, const std::string& what);

}  // namespace gemmtune
