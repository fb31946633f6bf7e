// Errors of the CUDA runtime, NVRTC and cuBLAS, carrying the failed call, its code and the
// context (kernel name, compile log, file and line) so that a message alone explains a failure.
#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <source_location>
#include <stdexcept>
#include <string>

namespace gemmtune {

// Base of every error this project throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Input a user gave that cannot be used (a flag, a file, a database, a GPU that is not there), found
// before any work it was asked for: the tools exit with 2 and the message (docs/cli.md). Every
// other error is a failure while running (3). The type says which, never the message's text.
class InputError : public Error {
 public:
  using Error::Error;
};

class CudaError : public Error {
 public:
  CudaError(cudaError_t code, const std::string& call, const std::string& context,
            std::source_location where);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

class NvrtcError : public Error {
 public:
  NvrtcError(nvrtcResult code, const std::string& call, const std::string& instantiation,
             const std::string& log, std::source_location where);
  nvrtcResult code() const noexcept { return code_; }
  const std::string& log() const noexcept { return log_; }

 private:
  nvrtcResult code_;
  std::string log_;
};

class CublasError : public Error {
 public:
  CublasError(cublasStatus_t code, const std::string& call, const std::string& context,
              std::source_location where);
};

// Throws CudaError unless code is cudaSuccess. `call` is the expression text, `context` what it
// was working on (a kernel name, a shape), shown after it.
void check_cuda(cudaError_t code, const char* call, const std::string& context = {},
                std::source_location where = std::source_location::current());
void check_cublas(cublasStatus_t code, const char* call, const std::string& context = {},
                  std::source_location where = std::source_location::current());

}  // namespace gemmtune

#define GT_CUDA(call, ...) ::gemmtune::check_cuda((call), #call __VA_OPT__(, ) __VA_ARGS__)
#define GT_CUBLAS(call, ...) ::gemmtune::check_cublas((call), #call __VA_OPT__(, ) __VA_ARGS__)
