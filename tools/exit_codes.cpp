#include "exit_codes.hpp"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

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
  // CLI11 runs validators and checks required options and subcommands before it looks for
  // arguments it does not know, so `tune --shpaes x` would read "--shapes is required". By then
  // it has set those arguments aside: name them instead, the mistake the user has to fix.
  const bool help = error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success);
  if (!help && !dynamic_cast<const CLI::ExtrasError*>(&error) && !app.get_allow_extras()) {
    if (std::vector<std::string> extras = app.remaining(true); !extras.empty()) {
      return exit_for_parse_error(app, CLI::ExtrasError(app.get_name(), std::move(extras)));
    }
  }
  return app.exit(error) == 0 ? kExitDone : kExitBadInput;
}

int parse_and_run(CLI::App& app, int argc, char** argv, std::string_view tool, const LogOptions& log_options,
                  const std::function<int()>& body) {
  app.name(std::string(tool));  // else CLI11 names the tool argv[0], the path it was run by, in "Usage: ..."
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return exit_for_parse_error(app, error);
  }
  start_logging(tool, log_options);
  try {
    return body();
  } catch (const BadInput& error) {
    spdlog::error("{}", error.what());
    return kExitBadInput;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitFailure;
  }
}

}  // namespace gemmtune
