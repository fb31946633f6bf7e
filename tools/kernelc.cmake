# kernelc: compiles configurations by name and reports their resources; writes cubins for cuobjdump.
add_executable(kernelc kernelc.cpp)
target_link_libraries(kernelc PRIVATE gemmtune_runtime gemmtune_tool_support CLI11::CLI11 spdlog::spdlog)
install(TARGETS kernelc)  # into bin/
