// tune: searches kernel configurations for each problem of a shapes file on one GPU and keeps
// every measurement and the winners in a SQLite database (see docs/schema.md).
#include "tune_command.hpp"

int main(int argc, char** argv) { return gemmtune::tune_main(argc, argv); }
