# tune: the autotuner's command line. Its body is a library, so that a test program can register
# a kernel family of its own and run the same command (tests/reliability: tune_with_faults).
add_library(gemmtune_tune_command STATIC tune_command.cpp tune_report.cpp progress_printer.cpp)
target_include_directories(gemmtune_tune_command PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(gemmtune_tune_command
  PUBLIC gemmtune_tuner_driver PRIVATE gemmtune_tool_support CLI11::CLI11 spdlog::spdlog nlohmann_json::nlohmann_json)
add_executable(tune tune.cpp)
target_link_libraries(tune PRIVATE gemmtune_tune_command)
install(TARGETS tune)  # into bin/
