#include "result_format.hpp"

namespace gemmtune {

CLI::Option* add_format_option(CLI::App& command, ResultFormat& format, const std::string& what) {
  auto set = [&format](const std::string& name) {
    format = name == "csv" ? ResultFormat::Csv : name == "json" ? ResultFormat::Json : ResultFormat::Table;
  };
  return command.add_option_function<std::string>("--format", set, "table (default), csv or json: how to write " + what)
      ->check(CLI::IsMember({"table", "csv", "json"}));
}

}  // namespace gemmtune
