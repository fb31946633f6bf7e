# tunedb: lists, shows, exports, compares and merges tuning databases (read-only except merge),
# and writes the HTML report.
add_executable(tunedb ${CMAKE_CURRENT_LIST_DIR}/tunedb.cpp)
# gemmtune_runtime for `binaries`: the families' dynamic shared memory, ptxas reports, this build's
# cubin key and arch names (it needs no GPU).
# gemmtune_dispatch_internals for export-kernels: the manifest and which kernels the runtime may select.
target_link_libraries(tunedb PRIVATE gemmtune_dispatch_internals gemmtune_store gemmtune_cache gemmtune_report gemmtune_runtime gemmtune_tool_support
                      CLI11::CLI11 spdlog::spdlog nlohmann_json::nlohmann_json)
install(TARGETS tunedb)  # into bin/
