#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "text.hpp"
#include "shapes_file.hpp"

namespace fs = std::filesystem;
using gemmtune::Layout;
using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

ShapesFile parse(std::string_view text) { return parse_shapes_text(text, "shapes.txt"); }

// The message parse_shapes_text throws for `text`, or "" when it does not throw.
std::string error_of(std::string_view text) {
  try {
    parse(text);
  } catch (const ShapesFileError& error) {
    return error.what();
  }
  return "";
}

ProblemSpec spec(Layout layout, int m, int n, int k, int line) { return {{layout, m, n, k}, line}; }

// A fresh directory under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("gemmtune_shapes_" + std::to_string(::getpid()) + "_" +
                                                 std::to_string(counter_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::permissions(path_ / "unreadable.txt", fs::perms::owner_all, ignored);
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

}  // namespace

TEST_CASE("shapes file: M N K lines default to layout nn and keep their line numbers", "[shapes]") {
  const ShapesFile file = parse("4096 4096 4096\n\n  1024\t512   256  \n");
  CHECK(file.problems == std::vector{spec(Layout::NN, 4096, 4096, 4096, 1), spec(Layout::NN, 1024, 512, 256, 3)});
  CHECK(file.duplicates.empty());
}

TEST_CASE("shapes file: an optional fourth field is the layout, in any case", "[shapes]") {
  const ShapesFile file = parse("1 2 3 nn\n4 5 6 NT\n7 8 9 tN\n10 11 12 tt\n");
  CHECK(file.problems == std::vector{spec(Layout::NN, 1, 2, 3, 1), spec(Layout::NT, 4, 5, 6, 2),
                                     spec(Layout::TN, 7, 8, 9, 3), spec(Layout::TT, 10, 11, 12, 4)});
}

TEST_CASE("shapes file: MxNxK and layout:MxNxK are single fields", "[shapes]") {
  const ShapesFile file = parse("4096x2048x1024\n64X32x16 tn\nnt:8x16x32\n");
  CHECK(file.problems == std::vector{spec(Layout::NN, 4096, 2048, 1024, 1), spec(Layout::TN, 64, 32, 16, 2),
                                     spec(Layout::NT, 8, 16, 32, 3)});
}

TEST_CASE("shapes file: an optional last field bBATCH is the batch; batches of one shape are distinct", "[shapes]") {
  const ShapesFile file = parse("128 128 128 nn b64\n512 512 64 b32\n1024x1024x1024 tn b8\nnn:128x128x128:b64\n128 128 128\n");
  CHECK(file.problems == std::vector{ProblemSpec{{Layout::NN, 128, 128, 128, 64}, 1},
                                     ProblemSpec{{Layout::NN, 512, 512, 64, 32}, 2},
                                     ProblemSpec{{Layout::TN, 1024, 1024, 1024, 8}, 3},
                                     spec(Layout::NN, 128, 128, 128, 5)});
  CHECK(file.duplicates == std::vector{DuplicateProblem{{Layout::NN, 128, 128, 128, 64}, 4, 1}});
  CHECK(error_of("64 64 64 nn b0\n") == "shapes.txt:1: batch must be a positive integer, got '0'");
}

TEST_CASE("shapes file: comments, blank lines, CRLF and a byte-order mark are accepted", "[shapes]") {
  const ShapesFile file = parse(
      "\xEF\xBB\xBF# LLM shapes \xE2\x80\x94 r\xC3\xA9sum\xC3\xA9\r\n"
      "\r\n"
      "   \t  \r\n"
      "128 256 512 tt # trailing comment\r\n"
      "#1 1 1\r\n"
      "64 64 64#no space before the comment");
  CHECK(file.problems == std::vector{spec(Layout::TT, 128, 256, 512, 4), spec(Layout::NN, 64, 64, 64, 6)});
}

TEST_CASE("shapes file: a repeated problem is kept once and reported with both lines", "[shapes]") {
  const ShapesFile file = parse("64 64 64\n32 32 32 nt\n64x64x64 nn\n32 32 32\nnn:64x64x64\n");
  CHECK(file.problems == std::vector{spec(Layout::NN, 64, 64, 64, 1), spec(Layout::NT, 32, 32, 32, 2),
                                     spec(Layout::NN, 32, 32, 32, 4)});
  CHECK(file.duplicates == std::vector<DuplicateProblem>{{{Layout::NN, 64, 64, 64}, 3, 1},
                                                         {{Layout::NN, 64, 64, 64}, 5, 1}});
}

TEST_CASE("shapes file: the largest allowed problem is accepted", "[shapes]") {
  // 2^20 x 2047 x 1024: A has 2^31 - 2^20 elements, just under the limit.
  const ShapesFile file = parse("1048576 1024 2047\n");
  CHECK(file.problems == std::vector{spec(Layout::NN, 1048576, 1024, 2047, 1)});
}

TEST_CASE("shapes file: a missing field names the field and the line", "[shapes]") {
  CHECK(error_of("64 64 64\n64 64\n") ==
        "shapes.txt:2: missing K (a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]')");
  CHECK(error_of("\n\n64 # only M\n") ==
        "shapes.txt:3: missing N (a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]')");
  CHECK(error_of("64x64\n") == "shapes.txt:1: '64x64': too few dimensions (2; MxNxK has 3)");
  CHECK(error_of("64x64x64x64\n") == "shapes.txt:1: '64x64x64x64': too many dimensions (4; MxNxK has 3)");
}

TEST_CASE("shapes file: a field that is not a positive decimal integer is refused", "[shapes]") {
  CHECK(error_of("12abc 4 4\n") == "shapes.txt:1: M must be a positive integer, got '12abc'");
  CHECK(error_of("4 1e3 4\n") == "shapes.txt:1: N must be a positive integer, got '1e3'");
  CHECK(error_of("0x10 4 4\n") == "shapes.txt:1: M must be a positive integer, got '0x10'");
  CHECK(error_of("1 1 1\n2 2 2\n3 3 3\n4 4 4\n5 5 5\n6 6 6\n4 4 -3\n") ==
        "shapes.txt:7: K must be a positive integer, got '-3'");
  CHECK(error_of("4 4 +3\n") == "shapes.txt:1: K must be a positive integer, got '+3'");
  CHECK(error_of("4 4 3.0\n") == "shapes.txt:1: K must be a positive integer, got '3.0'");
  CHECK(error_of("4 0 4\n") == "shapes.txt:1: N must be a positive integer, got '0'");
  CHECK(error_of("4x4x000\n") == "shapes.txt:1: K must be a positive integer, got '000'");
  CHECK(error_of("4xx4\n") == "shapes.txt:1: N must be a positive integer, got ''");
}

TEST_CASE("shapes file: a line of thousands of characters is echoed cut short", "[shapes]") {
  const std::string digits(10000, '7');
  CHECK(error_of("1 " + digits + " 1\n") ==
        "shapes.txt:1: N = 77777777777777777777777777777777... (10000 characters) is above the maximum 1048576 (2^20)");
  CHECK(error_of("1 1 1 " + std::string(3000, 'z') + "\n") ==
        "shapes.txt:1: unknown layout 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...' (3000 characters) (expected nn, nt, tn or tt)");
}

TEST_CASE("shapes file: sizes above the documented limits are refused", "[shapes]") {
  CHECK(error_of("1048577 1 1\n") == "shapes.txt:1: M = 1048577 is above the maximum 1048576 (2^20)");
  CHECK(error_of("1 99999999999999999999999 1\n") ==
        "shapes.txt:1: N = 99999999999999999999999 is above the maximum 1048576 (2^20)");
  CHECK(error_of("1048576 1 2048\n") ==
        "shapes.txt:1: A has M*K = 2147483648 elements; the limit is 2^31 - 1 so that element "
        "indices fit in 32-bit ints");
  CHECK(error_of("1 1048576 2048\n") ==
        "shapes.txt:1: B has K*N = 2147483648 elements; the limit is 2^31 - 1 so that element "
        "indices fit in 32-bit ints");
  CHECK(error_of("65536x65536x1\n") ==
        "shapes.txt:1: C has M*N = 4294967296 elements; the limit is 2^31 - 1 so that element "
        "indices fit in 32-bit ints");
}

TEST_CASE("shapes file: extra fields and unknown layouts are refused", "[shapes]") {
  CHECK(error_of("64 64 64 nn extra\n") ==
        "shapes.txt:1: unexpected fifth field 'extra' (a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or "
        "'[layout:]MxNxK[:bBATCH]')");
  CHECK(error_of("64x64x64 nn 5\n") ==
        "shapes.txt:1: unexpected third field '5' (a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or "
        "'[layout:]MxNxK[:bBATCH]')");
  CHECK(error_of("nn:64x64x64 tt\n") ==
        "shapes.txt:1: unexpected second field 'tt' (a problem is 'M N K [layout] [bBATCH]', 'MxNxK [layout] [bBATCH]' or "
        "'[layout:]MxNxK[:bBATCH]')");
  CHECK(error_of("64 64 64 nx\n") == "shapes.txt:1: unknown layout 'nx' (expected nn, nt, tn or tt)");
  CHECK(error_of("64 64 64 64\n") == "shapes.txt:1: unknown layout '64' (expected nn, nt, tn or tt)");
  CHECK(error_of("64x64x64 n\n") == "shapes.txt:1: unknown layout 'n' (expected nn, nt, tn or tt)");
  CHECK(error_of("xn:64x64x64\n") ==
        "shapes.txt:1: unknown layout 'xn' (expected nn, nt, tn or tt)");
}

TEST_CASE("shapes file: binary content is refused at its line", "[shapes]") {
  using namespace std::string_literals;
  CHECK(error_of("64 64 64\n64 64\0 64\n"s) ==
        "shapes.txt:2: contains a NUL byte: this looks like a binary file, not a shapes file");
  CHECK(error_of("64 64 64\n\n# \x1B[31m\n"s) ==
        "shapes.txt:3: contains the control character 0x1B: this looks like a binary file, not a shapes file");
  CHECK(error_of("SQLite format 3\0\x10\x00\x01\x01"s) ==
        "shapes.txt:1: contains a NUL byte: this looks like a binary file, not a shapes file");
  CHECK(error_of("64 64 64\r64 64 64\r") ==
        "shapes.txt:1: carriage return inside a line (only LF and CRLF line ends are accepted)");
}

TEST_CASE("shapes file: a file without problems is an error about the whole file", "[shapes]") {
  const std::string expected = "shapes.txt: no problems in it (empty, or only comments and blank lines)";
  CHECK(error_of("") == expected);
  CHECK(error_of("# nothing yet\n\n   \n") == expected);
  try {
    parse("\n");
    FAIL("no error");
  } catch (const ShapesFileError& error) {
    CHECK(error.file() == "shapes.txt");
    CHECK(error.line() == 0);
  }
}

TEST_CASE("shapes file: the whole file is checked before anything is returned", "[shapes]") {
  std::string text;
  for (int i = 1; i <= 999; ++i) text += std::to_string(i) + " 64 64\n";
  text += "64 64 sixty-four\n";
  CHECK(error_of(text) == "shapes.txt:1000: K must be a positive integer, got 'sixty-four'");
}

TEST_CASE("shapes file: error accessors give file, line and reason apart", "[shapes]") {
  try {
    parse_shapes_text("1 2 3\n4 5 z\n", "dir/mine.shapes");
    FAIL("no error");
  } catch (const ShapesFileError& error) {
    CHECK(error.file() == "dir/mine.shapes");
    CHECK(error.line() == 2);
    CHECK(error.reason() == "K must be a positive integer, got 'z'");
    CHECK(std::string(error.what()) == "dir/mine.shapes:2: K must be a positive integer, got 'z'");
  }
}

TEST_CASE("shapes file: read from disk, errors are labelled with the path as given", "[shapes]") {
  const TempDir dir;
  const fs::path good = dir.write("good.txt", "# mine\n256 256 256 tn\r\n");
  CHECK(parse_shapes_file(good).problems == std::vector{spec(Layout::TN, 256, 256, 256, 2)});

  const fs::path bad = dir.write("bad.txt", "256 256 256\n256 256\n");
  CHECK_THROWS_WITH(parse_shapes_file(bad), bad.string() + ":2: missing K (a problem is 'M N K [layout] [bBATCH]', "
                                                           "'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]')");
  const fs::path empty = dir.write("empty.txt", "");
  CHECK_THROWS_WITH(parse_shapes_file(empty),
                    empty.string() + ": no problems in it (empty, or only comments and blank lines)");
}

TEST_CASE("shapes file: a missing file, a directory and an oversized file are refused", "[shapes]") {
  const TempDir dir;
  const fs::path missing = dir.path() / "missing.txt";
  CHECK_THROWS_WITH(parse_shapes_file(missing), missing.string() + ": no such file");
  CHECK_THROWS_WITH(parse_shapes_file(dir.path()), dir.path().string() + ": is a directory, not a shapes file");
  const fs::path huge = dir.write("huge.txt", std::string(kMaxShapesFileBytes + 1, '#'));
  CHECK_THROWS_WITH(parse_shapes_file(huge), huge.string() + ": larger than 16 MiB: not a shapes file");
}

TEST_CASE("shapes file: an unreadable file is refused with the system's reason", "[shapes]") {
  // Opening fails for a file without read permission, except for root, who may read anything;
  // reading fails for /proc/self/mem at offset 0 (unmapped), whoever runs the test.
  if (::geteuid() != 0) {
    const TempDir dir;
    const fs::path locked = dir.write("unreadable.txt", "64 64 64\n");
    fs::permissions(locked, fs::perms::none);
    CHECK_THROWS_WITH(parse_shapes_file(locked), locked.string() + ": cannot open: Permission denied");
  }
  if (fs::exists("/proc/self/mem")) {
    CHECK_THROWS_WITH(parse_shapes_file("/proc/self/mem"), "/proc/self/mem: cannot read: Input/output error");
  } else {
    WARN("no /proc/self/mem: read failure not exercised");
  }
}

TEST_CASE("shapes file: a 10,000-character field is echoed by its first characters and its length", "[shapes]") {
  const std::string letters(10000, 'x');
  CHECK(error_of("64 64 64 nn " + letters + "\n").size() < 200);
  CHECK(error_of("64x64x" + std::string(10000, '1') + "\n").size() < 200);
  const std::string problem_error = error_of("nn:64x64x64x" + std::string(10000, '1') + "\n");
  CHECK(problem_error.size() < 250);
  CHECK(problem_error.find("(10009 characters)") != std::string::npos);  // the sizes after "nn:"
}

TEST_CASE("shapes file: a cut never splits a UTF-8 character", "[shapes]") {
  // 31 ASCII letters, then two-byte characters: the 32nd byte starts one, the 33rd continues it.
  std::string utf8 = std::string(31, 'a');
  for (int i = 0; i < 20; ++i) utf8 += "\xC3\xA9";  // é
  CHECK(gemmtune::shortened(utf8) == std::string(31, 'a') + "... (71 characters)");  // bytes, as text.size()
}
