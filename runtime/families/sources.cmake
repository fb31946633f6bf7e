# The families library's sources, for the library and the fuzzers (tests/fuzz/) alike: the
# framework (configurations, names, the registry) and one <name>_family.cpp a family. A new
# family's file is picked up here; family_registry.cpp lists it.
file(GLOB GEMMTUNE_FAMILIES_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
