#include "tune_process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gemmtune::reliability {
namespace {

namespace fs = std::filesystem;
constexpr uid_t kNobody = 65534;

std::string read_if_present(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace

ScratchDir::ScratchDir() {
  std::string pattern = (fs::temp_directory_path() / "gemmtune-reliability-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
  path_ = pattern;
  fs::permissions(path_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  // Tests make files and folders read-only; give the owner back the right to remove them.
  for (auto it = fs::recursive_directory_iterator(path_, ignored); it != fs::recursive_directory_iterator();
       it.increment(ignored)) {
    if (it->is_directory(ignored)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ignored);
  }
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
  fs::remove_all(path_, ignored);
}

std::string read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) throw std::runtime_error("cannot write " + path);
}

std::string TuneResult::describe() const {
  return (signal ? "signal " + std::to_string(signal) : "exit code " + std::to_string(exit_code)) + " after " +
         std::to_string(seconds) + " s\n--- stdout:\n" + out + "--- stderr:\n" + err;
}

std::optional<DryRunCounts> dry_run_counts(const std::string& out) {
  static const std::regex summary(R"(([0-9]+) cubins compiled \(([0-9]+) already in )");
  std::smatch match;
  if (!std::regex_search(out, match, summary)) return std::nullopt;
  return DryRunCounts{std::stoul(match[1]), std::stoul(match[2])};
}

std::set<std::string> kernels_reported_stored(const std::string& log) {
  static const std::regex line(R"(: (gemmtune_sgemm_[a-z0-9_]+): compiled)");
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), line); it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

std::optional<std::vector<std::string>> report_row(const std::string& out, const std::string& problem) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| " + problem + " ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream fields(line.substr(1));
    for (std::string cell; std::getline(fields, cell, '|');) {
      const std::size_t first = cell.find_first_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, cell.find_last_not_of(' ') - first + 1));
    }
    return cells;
  }
  return std::nullopt;
}

std::optional<CandidateCounts> candidate_counts(const std::vector<std::string>& row) {
  static const std::regex counts(R"(([0-9]+)/([0-9]+)/([0-9]+) of ([0-9]+))");
  std::smatch match;
  if (row.empty() || !std::regex_match(row.back(), match, counts)) return std::nullopt;
  return CandidateCounts{std::stoul(match[1]), std::stoul(match[2]), std::stoul(match[3]), std::stoul(match[4])};
}

std::set<std::string> candidates_reported_measured(const std::string& log) {
  static const std::regex line(R"(([a-z]{2}:[0-9]+x[0-9]+x[0-9]+) [0-9]+/[0-9]+: (gemmtune_sgemm_[a-z0-9_]+): (?!already measured))");
  std::set<std::string> candidates;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), line); it != std::sregex_iterator(); ++it) {
    candidates.insert((*it)[1].str() + " " + (*it)[2].str());
  }
  return candidates;
}

TuneProcess::TuneProcess(const std::vector<std::string>& args, const fs::path& log_dir, RunAs run_as,
                         Program program) {
  static int runs = 0;
  const std::string stem = (log_dir / ("tune-" + std::to_string(++runs))).string();
  out_path_ = stem + ".out";
  err_path_ = stem + ".err";
  // Everything the child needs is built before fork: between fork and exec only
  // async-signal-safe calls.
  std::vector<std::string> command{program == Program::Tune             ? GEMMTUNE_TUNE_EXECUTABLE
                                   : program == Program::TuneWithFaults ? GEMMTUNE_TUNE_WITH_FAULTS_EXECUTABLE
                                                                        : GEMMTUNE_TUNEDB_EXECUTABLE};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);

  started_ = std::chrono::steady_clock::now();
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    if (run_as == RunAs::Nobody &&
        (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) {
      ::_exit(126);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
}

TuneProcess::~TuneProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

std::optional<TuneResult> TuneProcess::wait_for(std::chrono::milliseconds limit) {
  if (pid_ <= 0) throw std::logic_error("TuneProcess::wait_for after the run ended");
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) return finish(status);
    if (done < 0) throw std::runtime_error("waitpid failed");
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void TuneProcess::kill_hard() {
  if (pid_ > 0) ::kill(pid_, SIGKILL);
}

std::string TuneProcess::log_so_far() const { return read_if_present(err_path_); }

TuneResult TuneProcess::finish(int status) {
  TuneResult result;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.out = read_if_present(out_path_);
  result.err = read_if_present(err_path_);
  pid_ = -1;
  return result;
}

TuneResult run_tune(const std::vector<std::string>& args, const fs::path& log_dir, RunAs run_as,
                    std::chrono::seconds limit, Program program) {
  TuneProcess tune(args, log_dir, run_as, program);
  if (std::optional<TuneResult> result = tune.wait_for(limit)) return *result;
  tune.kill_hard();
  const std::optional<TuneResult> killed = tune.wait_for(std::chrono::seconds(10));
  throw std::runtime_error("tune ran past " + std::to_string(limit.count()) + " s and was killed" +
                           (killed ? ":\n" + killed->describe() : std::string()));
}

bool process_alive(pid_t pid) {
  // The state follows the command name in parentheses, which may itself hold ')'.
  const std::string stat = read_if_present("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;  // gone
  const char state = stat[close + 2];
  return state != 'Z' && state != 'X';  // a zombie is dead, only not reaped yet
}

std::vector<pid_t> processes_mentioning(const std::string& text) {
  std::vector<pid_t> found;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == ::getpid() || !process_alive(pid)) continue;
    std::string command_line = read_if_present("/proc/" + name + "/cmdline");
    for (char& c : command_line) c = c == '\0' ? ' ' : c;
    if (command_line.find(text) != std::string::npos) found.push_back(pid);
  }
  return found;
}

std::vector<pid_t> wait_until_none_mention(const std::string& text, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<pid_t> alive = processes_mentioning(text);
  while (!alive.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    alive = processes_mentioning(text);
  }
  return alive;
}

std::optional<RunAs> unprivileged_runner(std::string* why) {
  if (::geteuid() != 0) return RunAs::CurrentUser;
  ScratchDir dir;
  const TuneResult help = run_tune({"--help"}, dir.path(), RunAs::Nobody, std::chrono::seconds(60));
  if (help.exit_code == 0) return RunAs::Nobody;
  if (why) {
    *why = "this test runs as root, who writes any file, and user nobody (65534) cannot run " +
           std::string(GEMMTUNE_TUNE_EXECUTABLE) + " (" + help.describe() + ")";
  }
  return std::nullopt;
}

}  // namespace gemmtune::reliability
