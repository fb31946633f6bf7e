#include "measure_worker.hpp"

#include <algorithm>
#include <chrono>

#include "can_implement.hpp"
#include "cuda_handles.hpp"
#include "device.hpp"
#include "early_cut.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "measurement.hpp"
#include "sm_clock.hpp"
#include "spill_limit.hpp"

namespace gemmtune::tuner {
namespace {

Message timing_to_message(const TimingStats& t) {
  return {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms},
          {"p10_ms", t.p10_ms},       {"p90_ms", t.p90_ms}, {"repetitions", t.repetitions},
          {"planned_repetitions", t.planned_repetitions}};
}

TimingStats timing_from_message(const Message& m) {
  TimingStats t;
  t.median_ms = m.at("median_ms");
  t.min_ms = m.at("min_ms");
  t.max_ms = m.at("max_ms");
  t.p10_ms = m.at("p10_ms");
  t.p90_ms = m.at("p90_ms");
  t.repetitions = m.at("repetitions");
  t.planned_repetitions = m.value("planned_repetitions", 0);
  return t;
}

Message device_to_message(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"cc_major", d.cc_major},
          {"cc_minor", d.cc_minor},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"global_memory_bytes", d.global_memory_bytes},
          {"driver_version", d.driver_version},
          {"runtime_version", d.runtime_version}};
}

DeviceInfo device_from_message(const Message& m) {
  DeviceInfo d;
  d.index = m.at("index");
  d.name = m.at("name");
  d.cc_major = m.at("cc_major");
  d.cc_minor = m.at("cc_minor");
  d.sm_count = m.at("sm_count");
  d.l2_bytes = m.at("l2_bytes");
  d.smem_per_block_optin = m.at("smem_per_block_optin");
  d.global_memory_bytes = m.at("global_memory_bytes");
  d.driver_version = m.at("driver_version");
  d.runtime_version = m.at("runtime_version");
  return d;
}

// The child's state: one device, one problem's inputs and reference.
class MeasureSession {
 public:
  explicit MeasureSession(const TimingOptions& timing) : timing_(timing) {}

  Message handle(const Message& request) {
    if (request.contains("select")) return select(request.at("select"));
    if (request.contains("problem")) {
      return set_problem(request.at("problem"), parse_precision(request.at("baseline").get<std::string>()),
                         request.at("time_cublas"));
    }
    if (request.contains("measure")) return measure(request.at("measure"));
    return {{"error", "unknown request"}};
  }
  // After a CUDA error the context may be unusable: the worker leaves and is replaced.
  bool context_poisoned() const { return poisoned_; }

 private:
  Message select(int index) {
    GT_CUDA(cudaSetDevice(index));
    char bus_id[32] = {};
    GT_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
    pci_bus_id_ = bus_id;
    device_ = index;
    stream_ = std::make_unique<Stream>();
    cublas_ = std::make_unique<CublasHandle>();
    check_ = std::make_unique<DeviceCheck>("sm_" + std::to_string(current_device_traits().arch));
    return {{"ok", true}};
  }

  Message set_problem(const Message& text, Precision baseline, bool time_cublas) {
    const Problem problem = parse_problem(text.get<std::string>());
    measurement_.reset();  // free the previous problem's sets first
    cudaDeviceProp prop{};
    GT_CUDA(cudaGetDeviceProperties(&prop, device_));
    measurement_ = std::make_unique<ProblemMeasurement>(problem, kAlpha, kBeta, baseline,
                                                        static_cast<std::size_t>(prop.l2CacheSize), prop.totalGlobalMem,
                                                        stream_->get(), cublas_->get(), *check_);
    Message reply{{"ok", true}, {"alignment", measurement_->alignment()}};
    if (time_cublas) reply["cublas"] = timing_to_message(measurement_->time_cublas(timing_));
    return reply;
  }

  Message failure(cache::Status status, const std::string& why) {
    return {{"status", std::string(cache::to_string(status))}, {"error_text", why}};
  }

  Message measure(const Message& request) {
    const KernelConfig config = parse_kernel_name(request.at("kernel").get<std::string>());
    const auto& bytes = request.at("cubin").get_binary();
    const std::vector<char> cubin(bytes.begin(), bytes.end());
    std::unique_ptr<LoadedKernel> kernel;
    const auto load_started = std::chrono::steady_clock::now();
    try {
      kernel = std::make_unique<LoadedKernel>(config, cubin, request.at("lowered_name").get<std::string>());
    } catch (const CudaError& error) {
      poisoned_ = true;  // a failed load can leave the context in doubt: start afresh
      return failure(cache::Status::LaunchFailure, error.what());
    }
    const double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_started).count();
    if (spills_too_much(kernel->local_bytes())) {
      return failure(cache::Status::Spills, std::to_string(kernel->local_bytes()) + " bytes of local memory a thread (" +
                                                std::to_string(kernel->registers()) + " registers)");
    }
    if (auto reason = can_implement(config, measurement_->call(), kernel->device())) {
      return failure(cache::Status::ResourceLimit, *reason);
    }
    try {
      // The best time of the problem so far, if any: the timing is cut short or extended by it.
      std::optional<double> best_ms;
      if (request.contains("best_ms")) best_ms = request.at("best_ms").get<double>();
      const KernelMeasurement measured =
          measurement_->measure(*kernel, timing_, [best_ms](const std::vector<double>& probe, int planned) {
            return further_repetitions(probe, planned, best_ms);
          });
      Message reply = measured.timing ? Message{{"status", "ok"}, {"timing", timing_to_message(*measured.timing)}}
                                      : failure(cache::Status::WrongResult, "against FP64: " + measured.check.summary);
      reply["relative_error"] = measured.against_cublas.relative_error;
      reply["fp64_error"] = measured.check.relative_error;
      reply["seconds"] = {{"load", load_seconds}, {"check", measured.check_seconds}, {"timing", measured.timing_seconds}};
      if (!measured.timing) return reply;
      if (auto mhz = sm_clock_mhz(pci_bus_id_)) reply["sm_clock_mhz"] = *mhz;
      return reply;
    } catch (const CudaError& error) {
      const bool resources = error.code() == cudaErrorLaunchOutOfResources || error.code() == cudaErrorInvalidConfiguration;
      if (!resources) poisoned_ = true;
      return failure(resources ? cache::Status::ResourceLimit : cache::Status::Crash, error.what());
    } catch (const Error& error) {  // refused before launch (thread count over the loaded limit)
      return failure(cache::Status::ResourceLimit, error.what());
    }
  }

  static constexpr float kAlpha = 1.0f;
  static constexpr float kBeta = 1.0f;  // C = A B + C, as cuBLAS is timed in gpu-machine.md
  TimingOptions timing_;
  int device_ = 0;
  std::string pci_bus_id_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<CublasHandle> cublas_;
  std::unique_ptr<DeviceCheck> check_;  // before measurement_, which refers to it
  std::unique_ptr<ProblemMeasurement> measurement_;
  bool poisoned_ = false;
};

}  // namespace

int measure_worker_main(const MessageChannel& channel, const TimingOptions& timing) {
  std::string why_none;
  const std::vector<DeviceInfo> devices = visible_devices(&why_none);
  if (devices.empty()) {
    channel.send({{"error", "no usable CUDA device: " + why_none}});
    return 0;
  }
  Message list = Message::array();
  for (const DeviceInfo& device : devices) list.push_back(device_to_message(device));
  channel.send({{"devices", list}});
  MeasureSession session(timing);
  while (true) {
    std::optional<Message> request;
    try {
      request = channel.receive(std::nullopt);
    } catch (const WorkerDied&) {
      return 0;
    }
    Message reply;
    try {
      reply = session.handle(*request);
    } catch (const std::exception& error) {
      reply = {{"error", error.what()}};
    }
    channel.send(reply);
    if (session.context_poisoned()) return 3;
  }
}

MeasureWorker::MeasureWorker(TimingOptions timing) : timing_(timing) {
  start();
  if (devices_.empty()) throw Error("the measure worker found no device");
}

MeasureWorker::~MeasureWorker() = default;

void MeasureWorker::start() {
  const TimingOptions timing = timing_;
  process_ = std::make_unique<WorkerProcess>(
      "measure", [timing](const MessageChannel& channel) { return measure_worker_main(channel, timing); });
  const std::optional<Message> greeting = process_->channel().receive(std::chrono::minutes(2));
  if (!greeting) throw Error("the measure worker did not start within 2 minutes");
  const Message& hello = *greeting;
  // The one error a starting worker sends: there is no usable device, which the user must fix.
  if (hello.contains("error")) throw InputError(hello.at("error").get<std::string>());
  devices_.clear();
  for (const Message& device : hello.at("devices")) devices_.push_back(device_from_message(device));
  if (device_index_) request({{"select", *device_index_}}, std::chrono::minutes(1));
  if (problem_) {
    request({{"problem", to_string(*problem_)}, {"baseline", precision_name(baseline_)}, {"time_cublas", false}},
            std::chrono::minutes(5));
  }
}

Message MeasureWorker::request(const Message& message, std::optional<std::chrono::milliseconds> timeout) {
  process_->channel().send(message);
  std::optional<Message> reply = process_->channel().receive(timeout);
  if (!reply) throw WorkerDied("measure worker did not answer in time");
  if (reply->contains("error")) throw Error("measure worker: " + reply->at("error").get<std::string>());
  return *reply;
}

void MeasureWorker::select_device(int index) {
  request({{"select", index}}, std::chrono::minutes(1));
  device_index_ = index;
}

TimingStats MeasureWorker::set_problem(const Problem& problem, Precision baseline) {
  const Message reply = request(
      {{"problem", to_string(problem)}, {"baseline", precision_name(baseline)}, {"time_cublas", true}},
      std::chrono::minutes(5));
  problem_ = problem;
  baseline_ = baseline;
  problem_alignment_ = reply.at("alignment");
  return timing_from_message(reply.at("cublas"));
}

MeasureResult MeasureWorker::measure(const CompiledKernel& compiled, const KernelConfig& config,
                                     std::chrono::milliseconds timeout, std::optional<double> best_ms) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(compiled.cubin.data());
  Message message{{"measure",
                   {{"kernel", kernel_name(config)},
                    {"cubin", Message::binary({bytes, bytes + compiled.cubin.size()})},
                    {"lowered_name", compiled.lowered_name}}}};
  if (best_ms) message["measure"]["best_ms"] = *best_ms;
  MeasureResult result;
  std::optional<Message> reply;
  try {
    process_->channel().send(message);
    reply = process_->channel().receive(timeout);
  } catch (const WorkerDied&) {
    result.status = cache::Status::Crash;
    result.error_text = "measure worker died (" + process_->exit_description() + ")";
  }
  if (!reply && result.error_text.empty()) {
    result.status = cache::Status::Timeout;
    result.error_text = "no result within " + std::to_string(timeout.count()) + " ms: killed";
    process_->kill();
  }
  if (reply && reply->contains("error")) {
    result.status = cache::Status::Crash;
    result.error_text = reply->at("error").get<std::string>();
  } else if (reply) {
    result.status = cache::parse_status(reply->at("status").get<std::string>());
    if (reply->contains("timing")) result.timing = timing_from_message(reply->at("timing"));
    if (reply->contains("sm_clock_mhz")) result.sm_clock_mhz = reply->at("sm_clock_mhz").get<int>();
    if (reply->contains("relative_error")) result.relative_error = reply->at("relative_error").get<double>();
    if (reply->contains("fp64_error")) result.fp64_error = reply->at("fp64_error").get<double>();
    if (reply->contains("error_text")) result.error_text = reply->at("error_text").get<std::string>();
    if (reply->contains("seconds")) {
      const Message& seconds = reply->at("seconds");
      result.seconds = {seconds.at("load").get<double>(), seconds.at("check").get<double>(),
                        seconds.at("timing").get<double>()};
    }
  }
  // A worker that crashed, hung, or left after a CUDA error is replaced before the next candidate.
  const bool replace = !reply || result.status == cache::Status::Crash || result.status == cache::Status::LaunchFailure;
  if (replace) {
    process_.reset();
    ++restarts_;
    start();
  }
  return result;
}

}  // namespace gemmtune::tuner
