#include "progress_printer.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gemmtune {

std::string format_duration(double seconds) {
  const long long whole = std::llround(std::max(seconds, 0.0));
  char text[32];
  if (whole < 60) std::snprintf(text, sizeof text, "%llds", whole);
  else if (whole < 3600) std::snprintf(text, sizeof text, "%lldm%02llds", whole / 60, whole % 60);
  else std::snprintf(text, sizeof text, "%lldh%02lldm", whole / 3600, whole % 3600 / 60);
  return text;
}

std::string eta_text(const tuner::Progress& p) {
  const std::size_t worked = p.done > p.resumed ? p.done - p.resumed : 0;
  if (worked == 0 || !(p.seconds > 0)) return "ETA not known yet";
  const double rate = static_cast<double>(worked) / p.seconds;
  const std::size_t left = p.planned > p.done ? p.planned - p.done : 0;
  char text[64];
  std::snprintf(text, sizeof text, " (%.*f candidates/s)", rate < 10 ? 2 : 1, rate);
  return "ETA " + format_duration(static_cast<double>(left) / rate) + text;
}

std::optional<std::string> ProgressLines::line(const tuner::Progress& p, Clock::time_point now) {
  const int tenth = p.planned ? static_cast<int>(10 * p.done / p.planned) : 0;
  const bool due = p.problem != problem_ || tenth != tenth_ || (p.done < p.planned && now - last_line_ >= kAtLeastEvery);
  if (!due) return std::nullopt;
  problem_ = p.problem;
  tenth_ = tenth;
  last_line_ = now;
  std::string line = (p.measurers > 1 ? "GPU " + std::to_string(p.device) + ": " : std::string()) + "[" +
                     std::to_string(p.problem_index + 1) + "/" + std::to_string(p.problem_count) + "] " + p.problem +
                     ": " + std::to_string(p.done) + "/" + std::to_string(p.planned) + " candidates";
  if (p.done < p.planned) line += ", " + eta_text(p);
  return line;
}

std::string devices_status(const std::vector<std::optional<tuner::Progress>>& latest) {
  std::string text;
  for (const std::optional<tuner::Progress>& p : latest) {
    if (!p) continue;
    text += (text.empty() ? "" : " | ") + std::string("GPU ") + std::to_string(p->device) + " [" +
            std::to_string(p->problem_index + 1) + "/" + std::to_string(p->problem_count) + "] " + p->problem + " " +
            std::to_string(p->done) + "/" + std::to_string(p->planned);
  }
  return text;
}

ProgressPrinter::ProgressPrinter(bool quiet) : terminal_(::isatty(STDERR_FILENO) == 1), quiet_(quiet) {}

void ProgressPrinter::operator()(const tuner::Progress& p) {
  if (quiet_) return;
  const auto now = ProgressLines::Clock::now();
  if (terminal_) {
    // Calls that only mark time passing may come in a tight loop: a few redraws a second are enough.
    if (p.message.empty() && now - last_drawn_ < std::chrono::milliseconds(250)) return;
    last_drawn_ = now;
    if (p.measurers > 1) {
      draw_devices(p);
    } else {
      draw_bar(p);
    }
    return;
  }
  if (!p.message.empty()) spdlog::debug("{} {}/{}: {}", p.problem, p.done, p.planned, p.message);
  if (lines_.size() < p.measurers) lines_.resize(p.measurers);
  if (auto line = lines_[p.measurer].line(p, now)) spdlog::info("{}", *line);
}

void ProgressPrinter::draw_bar(const tuner::Progress& p) {
  if (p.problem != problem_) {
    finish();
    problem_ = p.problem;
    last_message_.clear();
  }
  if (!p.message.empty()) last_message_ = p.message;
  constexpr int kWidth = 30;
  const int filled = p.planned ? static_cast<int>(kWidth * std::min(1.0, double(p.done) / double(p.planned))) : 0;
  std::fprintf(stderr, "\r[%zu/%zu] %-22s [%s%s] %zu/%zu  %-34s %.60s\033[K", p.problem_index + 1, p.problem_count,
               p.problem.c_str(), std::string(filled, '#').c_str(), std::string(kWidth - filled, ' ').c_str(), p.done,
               p.planned, eta_text(p).c_str(), last_message_.c_str());
  std::fflush(stderr);
  mid_line_ = true;
}

void ProgressPrinter::draw_devices(const tuner::Progress& p) {
  if (latest_.size() < p.measurers) latest_.resize(p.measurers);
  latest_[p.measurer] = p;
  std::fprintf(stderr, "\r%s\033[K", devices_status(latest_).c_str());
  std::fflush(stderr);
  mid_line_ = true;
}

void ProgressPrinter::finish() {
  if (mid_line_) std::fputc('\n', stderr);
  mid_line_ = false;
}

}  // namespace gemmtune
