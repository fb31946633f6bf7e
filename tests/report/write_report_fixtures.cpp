// Writes the databases the report's ctest tests read, replacing earlier ones:
// DIR/sample.db (sample_report_database.hpp) and DIR/empty.db (a gemmtune database with
// nothing measured). Also how docs/report-example.html is made (see docs/report.md).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string_view>
#include <string>

#include "sample_report_database.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const char* usage = "usage: %s DIR\nWrites %s, replacing earlier ones.\n";
  const std::string_view first = argc > 1 ? argv[1] : "";
  if (argc == 2 && (first == "--help" || first == "-h")) {
    std::printf(usage, "write_report_fixtures", "DIR/sample.db and DIR/empty.db, the databases the report's tests read");
    return 0;
  }
  if (argc != 2 || first.starts_with('-')) {  // never a folder named after a mistyped option
    std::fprintf(stderr, usage, "write_report_fixtures", "DIR/sample.db and DIR/empty.db, the databases the report's tests read");
    return 2;
  }
  try {
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    for (const char* name : {"sample.db", "empty.db"}) {
      for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(dir / (name + std::string(suffix)));
    }
    using gemmtune::cache::Database;
    using gemmtune::cache::OpenMode;
    Database sample = Database::open((dir / "sample.db").string(), OpenMode::ReadWrite);
    gemmtune::report::test::fill_sample_report_database(sample);
    Database::open((dir / "empty.db").string(), OpenMode::ReadWrite);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "write_report_fixtures: %s\n", error.what());
    return 1;
  }
}
