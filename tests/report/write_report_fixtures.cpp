// Writes the databases the report's ctest tests read, replacing earlier ones:
// DIR/sample.db (sample_report_database.hpp) and DIR/empty.db (a gemmtune database with
// nothing measured). Also how docs/report-example.html is made (see docs/report.md).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "sample_report_database.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
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
