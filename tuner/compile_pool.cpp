#include "compile_pool.hpp"

#include <poll.h>

#include "kernel_name.hpp"

namespace gemmtune::tuner {
namespace {

Message compiled_to_message(const CompiledKernel& compiled) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(compiled.cubin.data());
  return Message{{"ok", true},
                 {"cubin", Message::binary({bytes, bytes + compiled.cubin.size()})},
                 {"instantiation", compiled.instantiation},
                 {"lowered_name", compiled.lowered_name},
                 {"log", compiled.log}};
}

CompiledKernel compiled_from_message(const Message& message, const KernelConfig& config, const std::string& arch) {
  CompiledKernel compiled;
  compiled.kernel_name = kernel_name(config);
  compiled.arch = arch;
  compiled.instantiation = message.at("instantiation").get<std::string>();
  compiled.lowered_name = message.at("lowered_name").get<std::string>();
  compiled.log = message.at("log").get<std::string>();
  const auto& bytes = message.at("cubin").get_binary();
  compiled.cubin.assign(bytes.begin(), bytes.end());
  compiled.resources = parse_ptxas_report(compiled.log, compiled.lowered_name);
  return compiled;
}

}  // namespace

int compile_worker_main(const MessageChannel& channel) {
  while (true) {
    std::optional<Message> request;
    try {
      request = channel.receive(std::nullopt);
    } catch (const WorkerDied&) {
      return 0;  // the parent closed the pipe: done
    }
    Message reply;
    try {
      reply = compiled_to_message(compile_kernel(parse_kernel_name(request->at("kernel").get<std::string>()),
                                                 request->at("arch").get<std::string>()));
    } catch (const std::exception& error) {
      reply = Message{{"ok", false}, {"error", error.what()}};
    }
    channel.send(reply);
  }
}

CompilePool::CompilePool(int workers, std::string arch) : arch_(std::move(arch)) {
  require_supported_arch(arch_);  // refuse a bad arch here, not once per candidate
  slots_.resize(static_cast<std::size_t>(std::max(workers, 1)));
  for (std::size_t i = 0; i < slots_.size(); ++i) start_worker(slots_[i], static_cast<int>(i));
}

CompilePool::~CompilePool() = default;

void CompilePool::start_worker(Slot& slot, int index) {
  slot.process = std::make_unique<WorkerProcess>("compile-" + std::to_string(index), compile_worker_main);
  slot.job.reset();
}

bool CompilePool::has_idle_worker() const {
  for (const Slot& slot : slots_) {
    if (!slot.job) return true;
  }
  return false;
}

std::size_t CompilePool::in_flight() const {
  std::size_t count = 0;
  for (const Slot& slot : slots_) count += slot.job ? 1 : 0;
  return count;
}

std::vector<int> CompilePool::busy_pipes() const {
  std::vector<int> pipes;
  for (const Slot& slot : slots_) {
    if (slot.job) pipes.push_back(slot.process->channel().read_fd());
  }
  return pipes;
}

void CompilePool::submit(const KernelConfig& config) {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.job) continue;
    slot.job = config;
    slot.started = std::chrono::steady_clock::now();
    try {
      slot.process->channel().send(Message{{"kernel", kernel_name(config)}, {"arch", arch_}});
    } catch (const WorkerDied&) {
      // Found dead before the job: restart and resend once.
      start_worker(slot, static_cast<int>(i));
      slot.job = config;
      slot.process->channel().send(Message{{"kernel", kernel_name(config)}, {"arch", arch_}});
    }
    return;
  }
  throw Error("CompilePool::submit with no idle worker");
}

std::vector<CompileOutcome> CompilePool::collect(std::chrono::milliseconds wait) {
  std::vector<pollfd> waiting;
  std::vector<std::size_t> slot_of;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].job) continue;
    waiting.push_back({slots_[i].process->channel().read_fd(), POLLIN, 0});
    slot_of.push_back(i);
  }
  std::vector<CompileOutcome> done;
  if (waiting.empty()) return done;
  if (::poll(waiting.data(), waiting.size(), static_cast<int>(wait.count())) <= 0) return done;
  for (std::size_t w = 0; w < waiting.size(); ++w) {
    if (waiting[w].revents == 0) continue;
    Slot& slot = slots_[slot_of[w]];
    CompileOutcome outcome;
    outcome.config = *slot.job;
    try {
      const Message reply = *slot.process->channel().receive(std::nullopt);
      if (reply.at("ok").get<bool>()) {
        outcome.compiled = compiled_from_message(reply, outcome.config, arch_);
      } else {
        outcome.error = reply.at("error").get<std::string>();
      }
    } catch (const WorkerDied&) {
      outcome.worker_died = true;
      outcome.error = "compile worker " + slot.process->name() + " died (" + slot.process->exit_description() +
                      ") compiling " + kernel_name(outcome.config);
      start_worker(slot, static_cast<int>(slot_of[w]));
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - slot.started).count();
    slot.job.reset();
    ++compiled_count_;
    done.push_back(std::move(outcome));
  }
  return done;
}

}  // namespace gemmtune::tuner
