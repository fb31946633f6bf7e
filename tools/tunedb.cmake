# tunedb: lists, shows, exports, compares and merges tuning databases (read-only except merge).
add_executable(tunedb ${CMAKE_CURRENT_LIST_DIR}/tunedb.cpp)
target_link_libraries(tunedb PRIVATE gemmtune_cache CLI11::CLI11 spdlog::spdlog nlohmann_json::nlohmann_json)
