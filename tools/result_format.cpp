#include "result_format.hpp"

#include <charconv>

namespace gemmtune {

CLI::Option* add_format_option(CLI::App& command, ResultFormat& format, const std::string& what) {
  auto set = [&format](const std::string& name) {
    format = name == "csv" ? ResultFormat::Csv : name == "json" ? ResultFormat::Json : ResultFormat::Table;
  };
  return command.add_option_function<std::string>("--format", set, "table (default), csv or json: how to write " + what)
      ->check(CLI::IsMember({"table", "csv", "json"}));
}

std::string csv_number(std::optional<double> value) {
  if (!value) return "";
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, *value);
  return std::string(text, result.ptr);
}

}  // namespace gemmtune
