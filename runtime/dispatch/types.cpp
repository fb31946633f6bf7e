// The public value types' functions (include/gemmtune/types.hpp).
#include <cstdio>

#include "gemmtune/types.hpp"

namespace gemmtune {

const char* to_string(Status status) noexcept {
  switch (status) {
    case Status::Success: return "success";
    case Status::NotInitialized: return "not_initialized";
    case Status::InvalidValue: return "invalid_value";
    case Status::NotSupported: return "not_supported";
    case Status::NoDevice: return "no_device";
    case Status::DatabaseNotFound: return "database_not_found";
    case Status::DatabaseError: return "database_error";
    case Status::UntunedGpu: return "untuned_gpu";
    case Status::KernelError: return "kernel_error";
    case Status::ExecutionFailed: return "execution_failed";
    case Status::InternalError: return "internal_error";
  }
  return "unknown_status";
}

const char* to_string(Reason reason) noexcept {
  switch (reason) {
    case Reason::Measured: return "measured";
    case Reason::Nearest: return "nearest";
    case Reason::Default: return "default";
  }
  return "unknown_reason";
}

std::string to_string(const ProblemShape& shape) {
  return shape.layout + ":" + std::to_string(shape.M) + "x" + std::to_string(shape.N) + "x" + std::to_string(shape.K) +
         (shape.batch == 1 ? std::string() : ":b" + std::to_string(shape.batch));
}

std::string describe(const Selection& selection) {
  std::string text = selection.kernel + " for " + to_string(selection.problem) + " (call align" +
                     std::to_string(selection.call_align) + "): ";
  switch (selection.reason) {
    case Reason::Measured:
      text += "measured on this problem";
      break;
    case Reason::Nearest: {
      char distance[32];
      std::snprintf(distance, sizeof distance, "%.3f", selection.distance);
      text += "the winner of the nearest tuned problem, " +
              (selection.tuned_problem ? to_string(*selection.tuned_problem) : std::string("?")) +
              " at distance " + distance;
      break;
    }
    case Reason::Default:
      text += "default: no tuned problem serves this call";
      break;
  }
  text += std::string(", a ") + to_string(selection.precision) + " kernel for a " + to_string(selection.requested) + " call";
  if (!selection.note.empty()) text += " [" + selection.note + "]";
  return text;
}

}  // namespace gemmtune
