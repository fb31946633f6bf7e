// Runs the real `tune` executable the way a user (or a crash) does: in the background with its
// output in files, killed with SIGKILL at a chosen moment, or as another user. Also finds the
// processes a run left behind, and a scratch directory for each test.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gemmtune::reliability {

// A fresh directory under the system's temporary one (readable by everyone, so that a run as
// another user can reach it), removed with everything in it.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::string read_bytes(const std::string& path);
void write_bytes(const std::string& path, const std::string& bytes);

// How a run of tune ended, and what it printed.
struct TuneResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that ended it, 0 when it exited
  std::string out;     // standard output: the report, printed last
  std::string err;     // standard error: progress, logs and errors
  double seconds = 0;

  // "exit code 2" or "signal 9", then the output: for failure messages.
  std::string describe() const;
};

// The summary line of a dry run's report (standard output), "N cubins compiled (M already in
// DB) ...".
struct DryRunCounts {
  std::size_t compiled = 0;
  std::size_t reused = 0;
};
std::optional<DryRunCounts> dry_run_counts(const std::string& out);
// The kernels a dry run with -v logged (standard error) as compiled and stored ("...: NAME:
// compiled"), each logged only after its cubin was committed.
std::set<std::string> kernels_reported_stored(const std::string& log);

// One problem's row ("nn:64x64x64") of the table a tuning run prints last (standard output), its
// cells trimmed: problem, winner, ms, TFLOPS, cuBLAS ms, cuBLAS TFLOPS, speed-up, tuning s,
// candidates. nullopt when the table has no such row.
std::optional<std::vector<std::string>> report_row(const std::string& out, const std::string& problem);
// The last cell of a report row, "measured/resumed/failed of space".
struct CandidateCounts {
  std::size_t measured = 0;  // in this run, failures included
  std::size_t resumed = 0;   // found in the database
  std::size_t failed = 0;    // in this run
  std::size_t space = 0;
};
std::optional<CandidateCounts> candidate_counts(const std::vector<std::string>& row);

// The candidates a tuning run with -v logged (standard error) as measured in this run ("PROBLEM
// i/n: NAME: ..." other than "already measured"), as "PROBLEM NAME", e.g. "nn:256x256x256
// gemmtune_sgemm_..."; each is logged only after its measurement was committed.
std::set<std::string> candidates_reported_measured(const std::string& log);

// Who a run is started as: the current user, or "nobody" (uid and gid 65534), so that a test
// running as root can still meet a file it may not write.
enum class RunAs { CurrentUser, Nobody };

// Which program runs: the shipped tune, or tune_with_faults (the same command line with the
// tests' deliberately faulty kernel family registered, tests/reliability/faulty/), or tunedb (for
// the merge of what tune wrote).
enum class Program { Tune, TuneWithFaults, Tunedb };

class TuneProcess {
 public:
  // Starts `tune args...`, its stdout and stderr going to files in `log_dir`.
  TuneProcess(const std::vector<std::string>& args, const std::filesystem::path& log_dir,
              RunAs run_as = RunAs::CurrentUser, Program program = Program::Tune);
  ~TuneProcess();  // kills and reaps a run still going
  TuneProcess(const TuneProcess&) = delete;
  TuneProcess& operator=(const TuneProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Waits up to `limit` for the run to end; nullopt while it still runs.
  std::optional<TuneResult> wait_for(std::chrono::milliseconds limit);
  // SIGKILL, as `kill -9`: no handler, no clean-up, no last write.
  void kill_hard();
  // What the run has written to its standard error (its log) so far.
  std::string log_so_far() const;

 private:
  TuneResult finish(int status);

  pid_t pid_ = -1;
  std::string out_path_;
  std::string err_path_;
  std::chrono::steady_clock::time_point started_;
};

// Runs tune to its end (at most `limit`; past it the run is killed and this throws).
TuneResult run_tune(const std::vector<std::string>& args, const std::filesystem::path& log_dir,
                    RunAs run_as = RunAs::CurrentUser, std::chrono::seconds limit = std::chrono::seconds(600),
                    Program program = Program::Tune);

// Live processes (not zombies) other than this one whose command line contains `text`: a run's
// worker processes are forks of tune, so they carry its command line, and with it the unique
// database path of the test.
std::vector<pid_t> processes_mentioning(const std::string& text);
// Waits up to `limit` for every such process to end; returns those still alive then.
std::vector<pid_t> wait_until_none_mention(const std::string& text, std::chrono::milliseconds limit);
// Whether a process with this id is alive (not a zombie).
bool process_alive(pid_t pid);

// Whom to run tune as so that a file or folder without write permission cannot be written: this
// user, or "nobody" when this is root (root writes anywhere). nullopt, with the reason in `why`,
// where neither works: root, and nobody cannot run the tune executable (a checkout under /root).
std::optional<RunAs> unprivileged_runner(std::string* why);

}  // namespace gemmtune::reliability
