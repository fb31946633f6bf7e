#include "shard.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>


namespace gemmtune::tuner {
namespace {

// More shards than this are a typo (and keep the arithmetic far from overflow).
constexpr long long kMaxShards = 1'000'000;

// A whole decimal number of at most 9 digits, or nullopt.
std::optional<long long> whole_number(std::string_view text) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stoll(std::string(text));
}

long long slurm_number(const EnvironmentLookup& environment, const char* name, std::optional<long long> fallback) {
  const std::optional<std::string> text = environment(name);
  if (!text) {
    if (fallback) return *fallback;
    throw std::invalid_argument(std::string("SLURM_ARRAY_TASK_ID is set but ") + name +
                                " is not: cannot tell this task's shard; pass --shard I/N");
  }
  const std::optional<long long> value = whole_number(*text);
  if (!value) {
    throw std::invalid_argument(std::string(name) + "='" + *text + "' is not a whole number; pass --shard I/N");
  }
  return *value;
}

}  // namespace

Shard parse_shard(std::string_view text) {
  const std::string quoted = "--shard '" + std::string(text.substr(0, 40)) + "'";
  const std::size_t slash = text.find('/');
  const std::optional<long long> index = slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(0, slash));
  const std::optional<long long> count = slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count) {
    throw std::invalid_argument(quoted + ": expected I/N, two whole numbers with 1 <= I <= N (shard I of N, e.g. 2/8)");
  }
  if (*count < 1 || *count > kMaxShards) {
    throw std::invalid_argument(quoted + ": the number of shards must be 1 to " + std::to_string(kMaxShards));
  }
  if (*index < 1) {
    throw std::invalid_argument(quoted + ": shards are numbered from 1 (1/" + std::to_string(*count) + " to " +
                                std::to_string(*count) + "/" + std::to_string(*count) + ")");
  }
  if (*index > *count) {
    throw std::invalid_argument(quoted + ": there are only " + std::to_string(*count) + " shard(s), numbered 1 to " +
                                std::to_string(*count));
  }
  return Shard{static_cast<int>(*index), static_cast<int>(*count)};
}

std::string to_string(Shard shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.count); }

std::optional<std::string> process_environment(const char* name) {
  if (const char* value = std::getenv(name)) return std::string(value);
  return std::nullopt;
}

std::optional<Shard> shard_from_slurm(const EnvironmentLookup& environment) {
  if (!environment("SLURM_ARRAY_TASK_ID")) return std::nullopt;
  const long long id = slurm_number(environment, "SLURM_ARRAY_TASK_ID", std::nullopt);
  const long long count = slurm_number(environment, "SLURM_ARRAY_TASK_COUNT", std::nullopt);
  const long long min = slurm_number(environment, "SLURM_ARRAY_TASK_MIN", std::nullopt);
  const long long step = slurm_number(environment, "SLURM_ARRAY_TASK_STEP", 1);
  const std::string values = "SLURM_ARRAY_TASK_ID=" + std::to_string(id) + ", _MIN=" + std::to_string(min) +
                             ", _STEP=" + std::to_string(step) + ", _COUNT=" + std::to_string(count);
  if (count < 1 || count > kMaxShards || step < 1 || id < min || (id - min) % step != 0 || (id - min) / step >= count) {
    throw std::invalid_argument(values + ": this task's place in its array is not (ID - MIN) / STEP of COUNT (an "
                                "array that is not one evenly stepped range, such as --array=1,4,9?); pass --shard I/N");
  }
  return Shard{static_cast<int>((id - min) / step + 1), static_cast<int>(count)};
}

std::vector<ProblemSpec> problems_of_shard(const std::vector<ProblemSpec>& problems, Shard shard) {
  std::vector<Problem> sorted(problems.begin(), problems.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<Problem> mine;
  for (std::size_t i = static_cast<std::size_t>(shard.index - 1); i < sorted.size(); i += static_cast<std::size_t>(shard.count)) {
    mine.push_back(sorted[i]);
  }
  std::sort(mine.begin(), mine.end());
  std::vector<ProblemSpec> result;
  for (const ProblemSpec& problem : problems) {
    if (std::binary_search(mine.begin(), mine.end(), static_cast<const Problem&>(problem))) result.push_back(problem);
  }
  return result;
}

}  // namespace gemmtune::tuner
