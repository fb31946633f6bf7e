#include "worker_process.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace gemmtune::tuner {
namespace {

void write_all(int fd, const void* data, std::size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw WorkerDied(std::string("worker pipe closed while writing: ") + std::strerror(errno));
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
}

void read_all(int fd, void* data, std::size_t size) {
  char* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t got = ::read(fd, bytes, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw WorkerDied("worker pipe closed");
    bytes += got;
    size -= static_cast<std::size_t>(got);
  }
}

// Forks one at a time. With several measuring threads (tune --devices) two may start workers
// at once, and a fork between another's pipe() and its closing of the child's ends would give
// the second child a copy of the first child's write end: the parent would then never see the
// first child's pipe close when it dies. (The children use no lock another thread may hold at
// the fork: they do not log, and glibc's fork keeps malloc usable in the child.)
std::mutex fork_mutex;

}  // namespace

void MessageChannel::send(const Message& message) const {
  const std::vector<std::uint8_t> payload = Message::to_cbor(message);
  const std::uint32_t length = static_cast<std::uint32_t>(payload.size());
  write_all(write_fd_, &length, sizeof length);
  write_all(write_fd_, payload.data(), payload.size());
}

std::optional<Message> MessageChannel::receive(std::optional<std::chrono::milliseconds> timeout) const {
  pollfd waiting{read_fd_, POLLIN, 0};
  const int wait_ms = timeout ? static_cast<int>(timeout->count()) : -1;
  int ready;
  do {
    ready = ::poll(&waiting, 1, wait_ms);
  } while (ready < 0 && errno == EINTR);
  if (ready == 0) return std::nullopt;
  std::uint32_t length = 0;
  read_all(read_fd_, &length, sizeof length);
  std::vector<std::uint8_t> payload(length);
  read_all(read_fd_, payload.data(), payload.size());
  return Message::from_cbor(payload);
}

WorkerProcess::WorkerProcess(std::string name, const std::function<int(const MessageChannel&)>& body)
    : name_(std::move(name)) {
  std::signal(SIGPIPE, SIG_IGN);
  const std::lock_guard forking(fork_mutex);
  int to_child[2], to_parent[2];
  if (::pipe(to_child) != 0) throw Error("pipe() for worker " + name_ + ": " + std::strerror(errno));
  if (::pipe(to_parent) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    throw Error("pipe() for worker " + name_ + ": " + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) throw Error("fork() for worker " + name_ + ": " + std::strerror(errno));
  if (pid_ == 0) {
    // Child: die with the parent (a kill -9 of tune must not leave GPU work running).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(to_child[1]);
    ::close(to_parent[0]);
    int code = 1;
    try {
      code = body(MessageChannel(to_child[0], to_parent[1]));
    } catch (...) {
      code = 2;
    }
    ::_exit(code);
  }
  ::close(to_child[0]);
  ::close(to_parent[1]);
  channel_ = MessageChannel(to_parent[0], to_child[1]);
}

WorkerProcess::~WorkerProcess() {
  kill();
  ::close(channel_.read_fd());
  ::close(channel_.write_fd());
}

void WorkerProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

std::string WorkerProcess::exit_description() {
  if (pid_ <= 0) return "already reaped";
  int status = 0;
  pid_t done = 0;
  for (int attempt = 0; attempt < 100 && done == 0; ++attempt) {
    done = ::waitpid(pid_, &status, WNOHANG);
    if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (done == 0) {
    kill();
    return "stopped answering (killed)";
  }
  pid_ = -1;
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  }
  return "ended";
}

}  // namespace gemmtune::tuner
