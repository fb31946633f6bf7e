// --format table|csv|json, the one option by which tools that print results (tune's report,
// tunedb list) let a script read them: a table for people, CSV for spreadsheets, JSON for
// programs.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace gemmtune {

enum class ResultFormat { Table, Csv, Json };

// Adds --format to `command`, default table; `what` ends the help text ("the final table").
CLI::Option* add_format_option(CLI::App& command, ResultFormat& format, const std::string& what);

// A CSV number: the shortest text that reads back as the same double; "" (an empty field) for none.
std::string csv_number(std::optional<double> value);

// A JSON number, or null for none.
template <class T>
nlohmann::ordered_json json_or_null(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace gemmtune
