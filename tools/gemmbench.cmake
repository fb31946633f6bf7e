# gemmbench: every kernel family against cuBLAS, the seed chapter's table.
add_executable(gemmbench gemmbench.cpp)
target_link_libraries(gemmbench PRIVATE gemmtune_runtime gemmtune_dispatch_internals gemmtune_tuner_driver gemmtune_cache gemmtune_tool_support CLI11::CLI11 spdlog::spdlog)
install(TARGETS gemmbench)  # into bin/
