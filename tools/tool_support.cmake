# Small pieces shared by the tools' main()s: text tables, build identity, exit codes, logging flags.
find_package(Git QUIET)
set(GEMMTUNE_GIT_COMMIT "unknown")
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE GEMMTUNE_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
add_library(gemmtune_tool_support STATIC text_table.cpp result_format.cpp build_info.cpp exit_codes.cpp log_options.cpp numeric_options.cpp output_file.cpp)
target_include_directories(gemmtune_tool_support PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(gemmtune_tool_support PUBLIC gemmtune_core CLI11::CLI11 spdlog::spdlog)
target_compile_definitions(gemmtune_tool_support PRIVATE GEMMTUNE_GIT_COMMIT="${GEMMTUNE_GIT_COMMIT}")
