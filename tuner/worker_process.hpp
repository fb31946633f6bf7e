// A forked child process that exchanges messages with its parent over two pipes. NVRTC scales
// over processes, not threads, and a candidate that crashes or hangs poisons only its own
// process: the parent records it, kills the child and starts another.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "error.hpp"

namespace gemmtune::tuner {

using Message = nlohmann::json;

// The child process ended (crashed, was killed, or exited) while the parent waited for it.
class WorkerDied : public Error {
 public:
  using Error::Error;
};

// One end of a message pipe pair: length-prefixed CBOR (binary blobs such as cubins travel as
// CBOR byte strings, not text).
class MessageChannel {
 public:
  MessageChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}
  // Throws WorkerDied when the other side is gone.
  void send(const Message& message) const;
  // Waits up to `timeout` (forever when nullopt) for a message; nullopt on timeout. Throws
  // WorkerDied when the other side closed the pipe.
  std::optional<Message> receive(std::optional<std::chrono::milliseconds> timeout) const;
  int read_fd() const { return read_fd_; }
  int write_fd() const { return write_fd_; }

 private:
  int read_fd_;
  int write_fd_;
};

class WorkerProcess {
 public:
  // Forks a child that runs body(channel) and leaves with _exit(its return value), so the
  // parent's objects (an open database among them) are never touched by the child. SIGPIPE is
  // ignored from then on, so a dead child shows as WorkerDied, not a killed parent.
  // The child is killed when the parent dies.
  WorkerProcess(std::string name, const std::function<int(const MessageChannel&)>& body);
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;
  ~WorkerProcess();  // kills the child if it still runs

  const std::string& name() const { return name_; }
  const MessageChannel& channel() const { return channel_; }
  // Kills the child (SIGKILL) and reaps it.
  void kill();
  // How the child ended ("exit code 3", "signal 11 (Segmentation fault)"), reaping it; waits at
  // most a moment for a child that closed its pipe but has not exited yet.
  std::string exit_description();

 private:
  std::string name_;
  pid_t pid_ = -1;
  MessageChannel channel_{-1, -1};
};

}  // namespace gemmtune::tuner
