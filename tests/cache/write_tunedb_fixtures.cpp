// Writes the databases tunedb's ctest tests read: DIR/a.db, DIR/b.db, DIR/into.db (a copy of
// a.db, for merge), DIR/garbage.db (not a database), DIR/damaged.db (a.db with pages 5 to 7
// overwritten by random bytes), DIR/many.db (400 measurements), DIR/dry.db (cubins only, as a
// dry run leaves it), DIR/classes.db (a winner of each precision class) and DIR/v1.db (schema
// version 1), replacing earlier ones.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string_view>
#include <random>

#include "sample_databases.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace gemmtune::cache::test;
  const char* usage = "usage: %s DIR\nWrites %s, replacing earlier ones.\n";
  const std::string_view first = argc > 1 ? argv[1] : "";
  if (argc == 2 && (first == "--help" || first == "-h")) {
    std::printf(usage, "write_tunedb_fixtures", "a.db, b.db, into.db, garbage.db, damaged.db, many.db, dry.db, classes.db and v1.db in DIR, the databases tunedb's tests read");
    return 0;
  }
  if (argc != 2 || first.starts_with('-')) {  // never a folder named after a mistyped option
    std::fprintf(stderr, usage, "write_tunedb_fixtures", "a.db, b.db, into.db, garbage.db, damaged.db, many.db, dry.db, classes.db and v1.db in DIR, the databases tunedb's tests read");
    return 2;
  }
  try {
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    for (const char* name : {"a.db", "b.db", "into.db", "garbage.db", "damaged.db", "many.db", "dry.db", "classes.db", "v1.db"}) {
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(dir / (name + std::string(suffix)));
    }
    write_a((dir / "a.db").string());
    write_b((dir / "b.db").string());
    write_many((dir / "many.db").string());
    write_dry((dir / "dry.db").string());
    write_classes((dir / "classes.db").string());
    write_version1((dir / "v1.db").string());
    fs::copy_file(dir / "a.db", dir / "into.db");
    write_bytes((dir / "garbage.db").string(), "this is not a database, just some text\n");
    // b-tree pages of the schema's tables, past the header and the schema on page 1.
    std::string damaged = read_bytes((dir / "a.db").string());
    std::mt19937 random(5);
    for (std::size_t i = 4 * 4096; i < 7 * 4096 && i < damaged.size(); ++i) damaged[i] = static_cast<char>(random());
    write_bytes((dir / "damaged.db").string(), damaged);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "write_tunedb_fixtures: %s\n", error.what());
    return 1;
  }
}
