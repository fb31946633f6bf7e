#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "shapes_file.hpp"
#include "shard.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

std::string error_of_shard(const std::string& text) {
  try {
    parse_shard(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

EnvironmentLookup environment_of(std::map<std::string, std::string> values) {
  return [values](const char* name) -> std::optional<std::string> {
    if (auto found = values.find(name); found != values.end()) return found->second;
    return std::nullopt;
  };
}

std::string error_of_slurm(const std::map<std::string, std::string>& values) {
  try {
    shard_from_slurm(environment_of(values));
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

std::set<Problem> as_set(const std::vector<ProblemSpec>& problems) {
  return {problems.begin(), problems.end()};
}

constexpr const char* kShapes =
    "# a model's GEMMs\n"
    "4096 4096 4096\n"
    "1024 4096 512 tn\n"
    "\n"
    "64 64 64 nt\n"
    "128x128x128\n"
    "100 100 100 tt  # odd\n"
    "2048 512 8192\n"
    "1 4096 4096\n";

}  // namespace

TEST_CASE("tuner: parse_shard reads I/N with shards numbered from 1", "[tuner]") {
  CHECK(parse_shard("1/1") == Shard{1, 1});
  CHECK(parse_shard("2/8") == Shard{2, 8});
  CHECK(parse_shard("8/8") == Shard{8, 8});
  CHECK(to_string(Shard{3, 4}) == "3/4");
}

TEST_CASE("tuner: parse_shard refuses 0/2 and 3/2 and a/b and other malformed shards saying why", "[tuner]") {
  CHECK(error_of_shard("0/2") == "--shard '0/2': shards are numbered from 1 (1/2 to 2/2)");
  CHECK(error_of_shard("3/2") == "--shard '3/2': there are only 2 shard(s), numbered 1 to 2");
  const std::string not_numbers = "expected I/N, two whole numbers with 1 <= I <= N (shard I of N, e.g. 2/8)";
  CHECK(error_of_shard("a/b") == "--shard 'a/b': " + not_numbers);
  for (const char* text : {"", "2", "/2", "2/", "1/2/3", "-1/2", "1/-2", " 1/2", "1.5/2", "1/2x", "9999999999/2"}) {
    INFO(text);
    CHECK_THAT(error_of_shard(text), Catch::Contains(not_numbers));
  }
  CHECK(error_of_shard("1/0") == "--shard '1/0': the number of shards must be 1 to 1000000");
  CHECK(error_of_shard("1/1000001") == "--shard '1/1000001': the number of shards must be 1 to 1000000");
}

TEST_CASE("tuner: every problem is in exactly one shard and shards differ by at most one problem", "[tuner]") {
  const ShapesFile shapes = parse_shapes_text(kShapes, "shapes.txt");
  REQUIRE(shapes.problems.size() == 7);
  for (int count = 1; count <= 9; ++count) {
    INFO("count " << count);
    std::multiset<Problem> seen;
    std::size_t smallest = shapes.problems.size(), largest = 0;
    for (int index = 1; index <= count; ++index) {
      const std::vector<ProblemSpec> mine = problems_of_shard(shapes.problems, Shard{index, count});
      seen.insert(mine.begin(), mine.end());
      smallest = std::min(smallest, mine.size());
      largest = std::max(largest, mine.size());
    }
    CHECK(seen == std::multiset<Problem>(shapes.problems.begin(), shapes.problems.end()));
    CHECK(largest - smallest <= 1);
  }
  // Nine shards of seven problems: the last two have nothing to do.
  CHECK(problems_of_shard(shapes.problems, Shard{8, 9}).empty());
}

TEST_CASE("tuner: a shard keeps the file's order and each problem's line", "[tuner]") {
  const ShapesFile shapes = parse_shapes_text(kShapes, "shapes.txt");
  const std::vector<ProblemSpec> mine = problems_of_shard(shapes.problems, Shard{1, 2});
  REQUIRE(mine.size() == 4);
  for (std::size_t i = 1; i < mine.size(); ++i) CHECK(mine[i - 1].line < mine[i].line);
  for (const ProblemSpec& problem : mine) {
    const auto same = std::find(shapes.problems.begin(), shapes.problems.end(), problem);
    CHECK(same != shapes.problems.end());  // the same problem with the same line
  }
}

TEST_CASE("tuner: the split does not change with reordered or blank or comment or repeated lines", "[tuner]") {
  const ShapesFile original = parse_shapes_text(kShapes, "shapes.txt");
  // The same problems reversed, in other spellings, with comments, blank lines and a repeat.
  const ShapesFile shuffled = parse_shapes_text(
      "1 4096 4096 nn\n\n\n# reordered\n2048x512x8192\nTT:100x100x100\n"
      "nn:128x128x128\n   \n64x64x64 NT\n1024 4096 512 tn\n4096 4096 4096 # again below\n"
      "4096x4096x4096\n",
      "shuffled.txt");
  REQUIRE(shuffled.duplicates.size() == 1);
  for (int count = 1; count <= 4; ++count) {
    for (int index = 1; index <= count; ++index) {
      INFO("shard " << index << "/" << count);
      CHECK(as_set(problems_of_shard(original.problems, Shard{index, count})) ==
            as_set(problems_of_shard(shuffled.problems, Shard{index, count})));
    }
  }
}

TEST_CASE("tuner: a Slurm array task's shard is its place in the array", "[tuner]") {
  CHECK_FALSE(shard_from_slurm(environment_of({})).has_value());
  // Outside an array (a plain sbatch job) there is no task id: no shard.
  CHECK_FALSE(shard_from_slurm(environment_of({{"SLURM_JOB_ID", "42"}})).has_value());
  // --array=0-3
  CHECK(shard_from_slurm(environment_of({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                         {"SLURM_ARRAY_TASK_MIN", "0"}})) == Shard{1, 4});
  CHECK(shard_from_slurm(environment_of({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                         {"SLURM_ARRAY_TASK_MIN", "0"}})) == Shard{4, 4});
  // --array=1-16: indices from 1
  CHECK(shard_from_slurm(environment_of({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "16"},
                                         {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_STEP", "1"}})) == Shard{1, 16});
  // --array=100-103
  CHECK(shard_from_slurm(environment_of({{"SLURM_ARRAY_TASK_ID", "102"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                         {"SLURM_ARRAY_TASK_MIN", "100"}})) == Shard{3, 4});
  // --array=5-20:5 (5, 10, 15, 20)
  CHECK(shard_from_slurm(environment_of({{"SLURM_ARRAY_TASK_ID", "15"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                         {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_STEP", "5"}})) == Shard{3, 4});
}

TEST_CASE("tuner: a Slurm environment that cannot name a shard is refused saying to pass --shard", "[tuner]") {
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "0"}}),
             Catch::Contains("SLURM_ARRAY_TASK_COUNT is not") && Catch::Contains("pass --shard I/N"));
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}),
             Catch::Contains("SLURM_ARRAY_TASK_MIN is not"));
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"}}),
             Catch::Contains("SLURM_ARRAY_TASK_ID='x' is not a whole number"));
  // --array=1,4,9: COUNT 3, MIN 1, no even step; task 9 is not the third of 1, 2, 3.
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "9"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}}),
             Catch::Contains("SLURM_ARRAY_TASK_ID=9, _MIN=1, _STEP=1, _COUNT=3") && Catch::Contains("pass --shard I/N"));
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "5"},
                             {"SLURM_ARRAY_TASK_STEP", "5"}}),
             Catch::Contains("pass --shard I/N"));
  CHECK_THAT(error_of_slurm({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "0"}, {"SLURM_ARRAY_TASK_MIN", "1"}}),
             Catch::Contains("pass --shard I/N"));
}
