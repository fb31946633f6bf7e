// Bad input to tune: each gets a message that says what is wrong (and where, for a line of a
// shapes file), exit code 2 as documented, and leaves the database as it was (or uncreated).
#include <catch2/catch.hpp>
#include <sched.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <random>
#include <tuple>

#include "database_probe.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;
namespace fs = std::filesystem;

namespace {

constexpr int kBadInput = 2;

// A dry run of the smallest family: it needs no GPU, and a good input compiles in a second.
std::vector<std::string> dry_run_args(const std::string& shapes, const std::string& db) {
  return {"--dry-run",  "--arch", "sm_90",      "--shapes",   shapes, "--db", db,
          "--families", "naive",  "--strategy", "exhaustive", "-q"};
}

// A real database written by tune: three cubins, schema at the latest version, in WAL mode.
std::string tuned_database(const ScratchDir& dir) {
  const std::string shapes = dir.file("good.txt"), db = dir.file("good.db");
  write_bytes(shapes, "128 128 128\n");
  const TuneResult made = run_tune(dry_run_args(shapes, db), dir.path());
  INFO(made.describe());
  REQUIRE(made.exit_code == 0);
  REQUIRE_FALSE(fs::exists(db + "-wal"));  // a clean exit checkpoints the log into the file
  return db;
}

// tune refuses `db` with exit 2 and a message naming it and `reason`, and leaves it, and the
// folder around it, as they were.
void require_database_refused(const ScratchDir& dir, const std::string& db, const std::string& reason,
                              RunAs run_as = RunAs::CurrentUser) {
  const bool is_file = fs::is_regular_file(db);
  const std::string before = is_file ? read_bytes(db) : std::string();
  const TuneResult result = run_tune(dry_run_args(dir.file("good.txt"), db), dir.path(), run_as);
  INFO(result.describe());
  CHECK(result.exit_code == kBadInput);
  // The message comes first, with no blank line before it.
  CHECK(result.err.rfind("tune: " + db + ": ", 0) == 0);
  CHECK(result.err.find(reason) != std::string::npos);
  CHECK(result.out.find("cubins compiled") == std::string::npos);
  if (is_file) CHECK(read_bytes(db) == before);
  CHECK_FALSE(fs::exists(db + "-wal"));
  CHECK_FALSE(fs::exists(db + "-shm"));
}

}  // namespace

TEST_CASE("reliability: a bad shapes file stops tune with FILE:LINE: reason, exit 2 and no database",
          "[reliability]") {
  struct Case {
    const char* what;
    std::string text;
    int line;  // 0: the file as a whole
    const char* reason;
  };
  const std::vector<Case> cases{
      {"a missing field", "128 128\n", 1, "missing K"},
      {"words", "# M N K\nM N K\n", 2, "M must be a positive integer, got 'M'"},
      {"zero", "128 128 128\n0 64 64\n", 2, "M must be a positive integer, got '0'"},
      {"a negative size", "128 -64 128\n", 1, "N must be a positive integer, got '-64'"},
      {"a size above 2^20", "64 64 1048577\n", 1, "K = 1048577 is above the maximum"},
      {"M*N past 32-bit indexing", "128 128 128\n46341 46341 1 tn\n", 2, "C has M*N = 2147488281 elements"},
      {"M*K past 32-bit indexing", "1048576x4096x2048\n", 1, "A has M*K = 2147483648 elements"},
      {"trailing garbage after the layout", "128 128 128 nn fast\n", 1, "unexpected fifth field 'fast'"},
      {"trailing garbage on a size", "128 128 128;\n", 1, "K must be a positive integer, got '128;'"},
      {"an unknown layout", "128 128 128 nx\n", 1, "unknown layout 'nx'"},
      {"a hexadecimal size", "0x80 128 128\n", 1, "M must be a positive integer, got '0x80'"},
      {"a carriage return inside a line", "128 128\r128\n", 1, "carriage return inside a line"},
      {"a binary file", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0", 11), 1, "contains the control character 0x7F: this looks like a binary file"},
      {"a NUL byte", std::string("128 128 128\n64 64\0 64\n", 22), 2, "contains a NUL byte"},
      {"an empty file", "", 0, "no problems in it"},
      {"only comments and blank lines", "# nothing yet\n\n   \n", 0, "no problems in it"},
      {"a file over 16 MiB", std::string(17 << 20, '#'), 0, "larger than 16 MiB"},
  };
  ScratchDir dir;
  const std::string shapes = dir.file("shapes.txt"), db = dir.file("tuned.db");
  for (const Case& bad : cases) {
    write_bytes(shapes, bad.text);
    const TuneResult result = run_tune(dry_run_args(shapes, db), dir.path());
    INFO(bad.what << "\n" << result.describe());
    CHECK(result.exit_code == kBadInput);
    const std::string where = "tune: " + shapes + (bad.line ? ":" + std::to_string(bad.line) : std::string()) + ": ";
    CHECK(result.err.find(where + bad.reason) != std::string::npos);
    CHECK_FALSE(fs::exists(db));
  }
  const std::pair<std::string, const char*> paths[] = {{dir.file("missing.txt"), "no such file"},
                                                       {dir.path().string(), "is a directory"}};
  for (const auto& [path, reason] : paths) {
    const TuneResult result = run_tune(dry_run_args(path, db), dir.path());
    INFO(result.describe());
    CHECK(result.exit_code == kBadInput);
    CHECK(result.err.find("tune: " + path + ": " + reason) != std::string::npos);
    CHECK_FALSE(fs::exists(db));
  }
}

TEST_CASE("reliability: a shapes file with CRLF line ends tunes as with LF ends", "[reliability]") {
  ScratchDir dir;
  write_bytes(dir.file("lf.txt"), "# two problems\n128 128 128\n64 64 64 tn\n");
  write_bytes(dir.file("crlf.txt"), "# two problems\r\n128 128 128\r\n64 64 64 tn\r\n");
  const TuneResult lf = run_tune(dry_run_args(dir.file("lf.txt"), dir.file("lf.db")), dir.path());
  const TuneResult crlf = run_tune(dry_run_args(dir.file("crlf.txt"), dir.file("crlf.db")), dir.path());
  INFO(lf.describe() << "\n" << crlf.describe());
  REQUIRE(lf.exit_code == 0);
  REQUIRE(crlf.exit_code == 0);
  CHECK(dry_run_counts(crlf.out).value().compiled == dry_run_counts(lf.out).value().compiled);
  const std::set<std::string> crlf_names =
      DatabaseProbe(dir.file("crlf.db"), DatabaseProbe::Use::Inspect).binary_kernel_names();
  CHECK(crlf_names == DatabaseProbe(dir.file("lf.db"), DatabaseProbe::Use::Inspect).binary_kernel_names());
  // Both lines were read, each with its layout.
  for (const char* layout : {"_nn_", "_tn_"}) {
    CHECK(std::any_of(crlf_names.begin(), crlf_names.end(),
                      [&](const std::string& name) { return name.find(layout) != std::string::npos; }));
  }
}

TEST_CASE("reliability: bad flags are refused with exit 2, a message, and no database", "[reliability]") {
  ScratchDir dir;
  const std::string shapes = dir.file("good.txt"), db = dir.file("tuned.db");
  write_bytes(shapes, "128 128 128\n");
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = dry_run_args(shapes, db);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {with({"--jobs", "0"}), "--jobs: must be a whole number from 1 to 2147483647 (got '0')"},
      {with({"--jobs", "many"}), "--jobs: must be a whole number from 1 to 2147483647 (got 'many')"},
      {with({"--jobs", "99999999999"}), "--jobs: must be a whole number from 1 to 2147483647 (got '99999999999')"},
      {{"--dry-run", "--arch", "sm_12", "--shapes", shapes, "--db", db}, "cannot compile for arch 'sm_12'"},
      {with({"--frobnicate"}), "The following argument was not expected: --frobnicate"},
      // CLI11 checks required options before unknown ones; the unknown flag is still what is named.
      {{"--dry-run", "--arch", "sm_90", "--db", db, "--frobnicate"},
       "The following argument was not expected: --frobnicate"},
      {with({"--budget", "abc"}), "--budget: 'abc' is not a count (120) or a time (90s, 15m)"},
      {with({"--budget", "10h"}), "unknown unit 'h'"},
      {with({"--strategy", "fastest"}), "--strategy"},
      {with({"--timeout-floor", "0"}), "--timeout-floor: must be a number > 0 (got '0')"},
      {with({"--timeout-floor", "inf"}), "--timeout-floor: must be a number > 0 (got 'inf')"},
      {with({"--families", "naive,nope"}), "unknown kernel family 'nope'"},
      {{"--dry-run", "--arch", "sm_80", "--shapes", shapes, "--db", db, "--families", "wgmma"},
       "kernel family 'wgmma' does not run on sm_80 GPUs"},
      {with({"--precision", "fp16"}), "--precision: fp16 not in {strict,fp32,tf32}"},
      {{"--dry-run", "--arch", "sm_90", "--shapes", shapes, "--db", db, "--families", "reg2d,tf32x3", "--precision",
        "strict"},
       "kernel family 'tf32x3' is of the fp32 class, which --precision strict does not admit"},
      {{"--dry-run", "--arch", "sm_90", "--shapes", shapes, "--db", db, "--families", "tmatf32"},
       "kernel family 'tmatf32' is of the tf32 class, which --precision fp32 does not admit (--precision tf32 does)"},
      {{"--dry-run", "--shapes", shapes, "--db", db}, "--dry-run: needs --arch"},
      {{"--shapes", shapes, "--db", db}, "--gpu: is required (unless --dry-run)"},
      {{"--dry-run", "--arch", "sm_90", "--db", db}, "--shapes is required"},
  };
  for (const auto& [args, message] : cases) {
    const TuneResult result = run_tune(args, dir.path());
    INFO(result.describe());
    CHECK(result.exit_code == kBadInput);
    CHECK(result.err.find("tune: ") != std::string::npos);
    CHECK(result.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(db));
  }
}

TEST_CASE("reliability: --jobs above 4 compile processes a core is cut to that, with a warning", "[reliability]") {
  ScratchDir dir;
  const std::string shapes = dir.file("good.txt"), db = dir.file("tuned.db");
  write_bytes(shapes, "128 128 128\n");
  cpu_set_t set;
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  const int cores = CPU_COUNT(&set), cap = 4 * cores;
  // One above the cap (not 100000, which today's main would fork) shows the cut and what was used.
  std::vector<std::string> args = dry_run_args(shapes, db);
  args.insert(args.end(), {"--jobs", std::to_string(cap + 1)});
  const TuneResult result = run_tune(args, dir.path());
  INFO(result.describe());
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("tune: warning: --jobs " + std::to_string(cap + 1) + " is more than 4 compile processes a core (" +
                        std::to_string(cores) + " core(s) here): using " + std::to_string(cap)) != std::string::npos);
  CHECK(result.out.find("with " + std::to_string(cap) + " worker(s)") != std::string::npos);
  // At the cap itself nothing is said.
  args.back() = std::to_string(cap);
  const TuneResult at_cap = run_tune(args, dir.path());
  INFO(at_cap.describe());
  CHECK(at_cap.exit_code == 0);
  CHECK(at_cap.err.find("--jobs") == std::string::npos);
  CHECK(at_cap.out.find("with " + std::to_string(cap) + " worker(s)") != std::string::npos);
}

TEST_CASE("reliability: --arch sm_90a, compute_90, 9.0 and 90 store cubins under sm_90, as an H200 looks them up",
          "[reliability]") {
  ScratchDir dir;
  const std::string shapes = dir.file("good.txt");
  write_bytes(shapes, "128 128 128\n");
  const std::string reference_db = dir.file("sm_90.db");
  REQUIRE(run_tune(dry_run_args(shapes, reference_db), dir.path()).exit_code == 0);
  const std::set<std::string> expected = DatabaseProbe(reference_db, DatabaseProbe::Use::Inspect).binary_keys();
  REQUIRE(expected.size() == 3);
  for (const char* typed : {"sm_90a", "compute_90", "9.0", "90", "SM_90"}) {
    INFO(typed);
    const std::string db = dir.file(std::string(typed) + ".db");
    std::vector<std::string> args = dry_run_args(shapes, db);
    args[2] = typed;  // --arch's value
    const TuneResult result = run_tune(args, dir.path());
    INFO(result.describe());
    CHECK(result.exit_code == 0);
    CHECK(DatabaseProbe(db, DatabaseProbe::Use::Inspect).binary_keys() == expected);
  }
  const TuneResult refused = run_tune({"--dry-run", "--arch", "hopper", "--shapes", shapes, "--db", dir.file("no.db")},
                                      dir.path());
  INFO(refused.describe());
  CHECK(refused.exit_code == kBadInput);
  CHECK(refused.err.find("tune: --arch: 'hopper' is not a GPU arch: write it as sm_90") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.file("no.db")));
}

TEST_CASE("reliability: --gpu that matches no usable GPU exits 2 saying why, with no database", "[reliability]") {
  ScratchDir dir;
  const std::string shapes = dir.file("good.txt"), db = dir.file("tuned.db");
  write_bytes(shapes, "128 128 128\n");
  const TuneResult result = run_tune({"--gpu", "no-such-gpu", "--shapes", shapes, "--db", db}, dir.path());
  INFO(result.describe());
  CHECK(result.exit_code == kBadInput);
  // Without a GPU (CI) the CUDA runtime's reason; with one, the list of the visible GPUs.
  const bool no_device = result.err.find("tune: no usable CUDA device: cuda") != std::string::npos;
  const bool no_match = result.err.find("no visible GPU matches --gpu 'no-such-gpu' (visible: ") != std::string::npos;
  CHECK((no_device || no_match));
  CHECK_FALSE(fs::exists(db));
}

TEST_CASE("reliability: a database tune cannot use is refused with exit 2 and left byte for byte", "[reliability]") {
  ScratchDir dir;
  const std::string good = tuned_database(dir);
  const std::string good_bytes = read_bytes(good);
  std::mt19937 random(7u);
  std::string noise(8192, '\0');
  for (char& byte : noise) byte = static_cast<char>(random());
  // Pages 5 to 7 (b-trees of the schema's tables) overwritten by random bytes; the header and the
  // schema on page 1 still read.
  std::string damaged = good_bytes;
  REQUIRE(damaged.size() >= 7 * 4096);
  for (std::size_t i = 4 * 4096; i < 7 * 4096; ++i) damaged[i] = static_cast<char>(random());

  const std::vector<std::tuple<const char*, std::string, const char*>> files{
      {"text.db", "layout,m,n,k\nnn,128,128,128\n", "not an SQLite database"},
      {"short.db", "hello\n", "not an SQLite database"},
      {"noise.db", noise, "not an SQLite database"},
      {"half.db", good_bytes.substr(0, good_bytes.size() / 2), "truncated"},
      {"header.db", good_bytes.substr(0, 100), "truncated"},
      {"damaged.db", damaged, "the database is damaged (SQLite's quick_check: "},
  };
  for (const auto& [name, bytes, reason] : files) {
    write_bytes(dir.file(name), bytes);
    INFO(name);
    require_database_refused(dir, dir.file(name), reason);
  }
  {
    INFO("a newer schema version");
    const std::string db = dir.file("newer.db");
    write_bytes(db, good_bytes);
    DatabaseProbe(db, DatabaseProbe::Use::Edit).exec("PRAGMA user_version = 99");
    require_database_refused(dir, db, "schema version 99 is newer than this program's");
  }
  {
    INFO("another program's SQLite database");
    const std::string db = dir.file("invoices.db");
    DatabaseProbe(db, DatabaseProbe::Use::Edit)
        .exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5)");
    require_database_refused(dir, db, "not a gemmtune one");
  }
  {
    INFO("a directory");
    const std::string db = dir.file("folder.db");
    fs::create_directory(db);
    require_database_refused(dir, db, "is a directory, not a database file; name a file in it, e.g. " + db + "/tuned.db");
    CHECK(fs::is_empty(db));
  }
  {
    INFO("a device");
    require_database_refused(dir, "/dev/null", "is not a regular file (a device, a pipe or a socket)");
  }
  {
    INFO("a file in a folder that does not exist");
    const std::string folder = dir.file("no-such-folder");
    require_database_refused(dir, folder + "/tuned.db",
                             "the folder " + folder + " does not exist, so the database cannot be created in it");
    CHECK_FALSE(fs::exists(folder));
  }
  CHECK(read_bytes(good) == good_bytes);
}

TEST_CASE("reliability: a read-only database or folder is refused with exit 2 and left byte for byte",
          "[reliability]") {
  std::string why;
  const std::optional<RunAs> runner = unprivileged_runner(&why);
  if (!runner) {
    std::cout << "SKIPPED: " << why << std::endl;
    return;
  }
  ScratchDir dir;
  const std::string good = tuned_database(dir);
  using fs::perms;
  const perms read_only_file = perms::owner_read | perms::group_read | perms::others_read;
  const perms read_only_folder = read_only_file | perms::owner_exec | perms::group_exec | perms::others_exec;
  // {folder, its permissions, the database's permissions, the reason}
  const std::vector<std::tuple<const char*, perms, perms, const char*>> cases{
      {"writable-folder", perms::all, read_only_file, "the file is read-only"},
      {"read-only-folder", read_only_folder, read_only_file, "the file is read-only"},
      {"read-only-folder-writable-file", read_only_folder, perms::all & ~perms::owner_exec & ~perms::group_exec &
                                                               ~perms::others_exec,
       "the directory is read-only"},
  };
  for (const auto& [folder, folder_perms, file_perms, reason] : cases) {
    INFO(folder);
    const fs::path parent = dir.path() / folder;
    fs::create_directory(parent);
    const std::string db = (parent / "tuned.db").string();
    fs::copy_file(good, db);
    fs::permissions(db, file_perms);
    fs::permissions(parent, folder_perms);
    require_database_refused(dir, db, reason, *runner);
    const auto entries = std::distance(fs::directory_iterator(parent), fs::directory_iterator());
    CHECK(entries == 1);  // the database, and nothing created beside it
  }
  {
    INFO("a new database in a read-only folder");
    const fs::path parent = dir.path() / "read-only-empty-folder";
    fs::create_directory(parent);
    fs::permissions(parent, read_only_folder);
    const std::string db = (parent / "tuned.db").string();
    require_database_refused(dir, db, "the folder " + parent.string() + " is not writable, so the database cannot be created in it",
                             *runner);
    CHECK(fs::is_empty(parent));
  }
}
