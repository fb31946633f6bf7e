#include "cache_records.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace gemmtune::cache {
namespace {

constexpr std::array<std::string_view, 8> kStatusNames = {
    "ok",     "compile_error", "resource_limit", "spills", "launch_failure",
    "crash",  "timeout",       "wrong_result"};

std::int64_t parse_dimension(std::string_view text, std::string_view whole) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) {
    throw std::invalid_argument("problem '" + std::string(whole) + "': '" + std::string(text) +
                                "' is not a positive integer");
  }
  return value;
}

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
  return problem.layout + ":" + std::to_string(problem.m) + "x" + std::to_string(problem.n) +
         "x" + std::to_string(problem.k);
}

Problem parse_problem(std::string_view text) {
  Problem problem;
  std::string_view dims = text;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    problem.layout = std::string(text.substr(0, colon));
    for (char& c : problem.layout) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (problem.layout != "nn" && problem.layout != "nt" && problem.layout != "tn" &&
        problem.layout != "tt") {
      throw std::invalid_argument("problem '" + std::string(text) + "': layout '" +
                                  problem.layout + "' is not one of nn, nt, tn, tt");
    }
    dims = text.substr(colon + 1);
  }
  const auto x1 = dims.find('x');
  const auto x2 = x1 == std::string_view::npos ? x1 : dims.find('x', x1 + 1);
  if (x2 == std::string_view::npos) {
    throw std::invalid_argument("problem '" + std::string(text) +
                                "': expected [layout:]MxNxK, e.g. nn:4096x4096x4096");
  }
  problem.m = parse_dimension(dims.substr(0, x1), text);
  problem.n = parse_dimension(dims.substr(x1 + 1, x2 - x1 - 1), text);
  problem.k = parse_dimension(dims.substr(x2 + 1), text);
  return problem;
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
