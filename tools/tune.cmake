# tune: the autotuner's command line.
add_executable(tune tune.cpp)
target_link_libraries(tune PRIVATE gemmtune_tuner_driver gemmtune_tool_support CLI11::CLI11 spdlog::spdlog)
install(TARGETS tune)  # into bin/
