#include "exit_codes.hpp"

namespace gemmtune {

std::string exit_codes_help(std::string_view bad_input, std::string_view failure) {
  const std::string first = "Exit codes: 0 done, 2 bad input (" + std::string(bad_input) + "),";
  const std::string second = "3 failure while running (" + std::string(failure) + ").";
  constexpr std::size_t kHelpWidth = 100;  // CLI11 prints descriptions as they are, unwrapped
  return first + (first.size() + 1 + second.size() > kHelpWidth ? "\n" : " ") + second;
}

void prefix_parse_errors(CLI::App& app, std::string tool) {
  app.failure_message([tool = std::move(tool)](const CLI::App* failed, const CLI::Error& error) {
    return tool + ": " + CLI::FailureMessage::simple(failed, error);
  });
}

int exit_for_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  return app.exit(error) == 0 ? kExitDone : kExitBadInput;
}

}  // namespace gemmtune
