# bandwidth_probe: the read and copy bandwidth a plain kernel reaches, timed as gemmbench times a
# GEMM; the ceiling for bandwidth-bound problems. A developer's benchmark, not installed.
add_executable(bandwidth_probe bandwidth_probe.cpp)
target_link_libraries(bandwidth_probe PRIVATE gemmtune_runtime gemmtune_tool_support CLI11::CLI11 spdlog::spdlog)
