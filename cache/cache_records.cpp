#include "cache_records.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace gemmtune::cache {
namespace {

constexpr std::array<std::string_view, 8> kStatusNames = {
    "ok",     "compile_error", "resource_limit", "spills", "launch_failure",
    "crash",  "timeout",       "wrong_result"};

}  // namespace

std::string to_string(const std::vector<BinaryCount>& counts) {
  std::int64_t total = 0;
  std::string parts;
  for (const BinaryCount& count : counts) {
    total += count.count;
    parts += (parts.empty() ? "" : ", ") + std::to_string(count.count) + " for " + count.arch + " (NVRTC " +
             count.nvrtc_version + ")";
  }
  if (counts.empty()) return "no cubins";
  const std::string cubins = std::to_string(total) + (total == 1 ? " cubin" : " cubins");
  if (counts.size() == 1) return cubins + parts.substr(parts.find(" for"));
  return cubins + ": " + parts;
}

std::string to_string(const Problem& problem) {
  return problem.layout + ":" + std::to_string(problem.m) + "x" + std::to_string(problem.n) + "x" +
         std::to_string(problem.k) + (problem.batch == 1 ? std::string() : ":b" + std::to_string(problem.batch));
}

std::string_view to_string(Status status) { return kStatusNames.at(static_cast<int>(status)); }

Status parse_status(std::string_view text) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == text) return static_cast<Status>(i);
  }
  std::string known;
  for (auto name : kStatusNames) known += (known.empty() ? "" : ", ") + std::string(name);
  throw std::invalid_argument("unknown measurement status '" + std::string(text) +
                              "' (known: " + known + ")");
}

void require_precision_name(std::string_view text) {
  for (std::string_view name : kPrecisionNames) {
    if (name == text) return;
  }
  throw std::invalid_argument("unknown precision class '" + std::string(text) + "' (known: strict, fp32, tf32)");
}

std::string now_utc_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];  // roomy: the compiler cannot prove the fields stay 2 digits wide
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  return text;
}

}  // namespace gemmtune::cache
