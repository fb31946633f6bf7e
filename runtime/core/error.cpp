#include "error.hpp"

#include <filesystem>

namespace gemmtune {
namespace {

std::string location(std::source_location where) {
  return std::filesystem::path(where.file_name()).filename().string() + ":" +
         std::to_string(where.line());
}

std::string with_context(const std::string& context) {
  return context.empty() ? std::string() : " [" + context + "]";
}

}  // namespace

CudaError::CudaError(cudaError_t code, const std::string& call, const std::string& context,
                     std::source_location where)
    : Error(call + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")" +
            with_context(context) + " at " + location(where)),
      code_(code) {}

NvrtcError::NvrtcError(nvrtcResult code, const std::string& call, const std::string& instantiation,
                       const std::string& log, std::source_location where)
    : Error(call + " failed: " + nvrtcGetErrorString(code) + " [" + instantiation + "] at " +
            location(where) + (log.empty() ? std::string() : "\ncompile log:\n" + log)),
      code_(code),
      log_(log) {}

CublasError::CublasError(cublasStatus_t code, const std::string& call, const std::string& context,
                         std::source_location where)
    : Error(call + " failed: " + cublasGetStatusName(code) + " (" + cublasGetStatusString(code) +
            ")" + with_context(context) + " at " + location(where)) {}

void check_cuda(cudaError_t code, const char* call, const std::string& context,
                std::source_location where) {
  if (code != cudaSuccess) throw CudaError(code, call, context, where);
}

void check_cublas(cublasStatus_t code, const char* call, const std::string& context,
                  std::source_location where) {
  if (code != CUBLAS_STATUS_SUCCESS) throw CublasError(code, call, context, where);
}

}  // namespace gemmtune
