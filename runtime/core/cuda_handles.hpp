// One RAII type per CUDA runtime / cuBLAS handle. Destructors never throw; construction and
// every operation that can fail throws CudaError / CublasError with the call and its context.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"

namespace gemmtune {

// Moves ownership of a handle: the source is left empty.
template <typename Handle>
Handle take(Handle& handle) {
  return std::exchange(handle, Handle{});
}

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) {
      GT_CUDA(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)),
              std::to_string(count * sizeof(T)) + " bytes");
    }
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(take(other.data_)), count_(take(other.count_)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = take(other.data_);
      count_ = take(other.count_);
    }
    return *this;
  }
  ~DeviceBuffer() { reset(); }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

  void upload(const std::vector<T>& host, cudaStream_t stream = nullptr) {
    require_size(host.size());
    GT_CUDA(cudaMemcpyAsync(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
    GT_CUDA(cudaStreamSynchronize(stream));
  }
  std::vector<T> download(cudaStream_t stream = nullptr) const {
    std::vector<T> host(count_);
    GT_CUDA(cudaMemcpyAsync(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost, stream));
    GT_CUDA(cudaStreamSynchronize(stream));
    return host;
  }
  void copy_from(const DeviceBuffer& other, cudaStream_t stream = nullptr) {
    require_size(other.size());
    GT_CUDA(cudaMemcpyAsync(data_, other.data_, count_ * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }

 private:
  void require_size(std::size_t count) const {
    if (count != count_) {
      throw Error("device buffer of " + std::to_string(count_) + " elements given " +
                  std::to_string(count));
    }
  }
  void reset() noexcept {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class Stream {
 public:
  Stream() { GT_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(Stream&& other) noexcept : stream_(take(other.stream_)) {}
  Stream& operator=(Stream&&) = delete;
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const { return stream_; }
  void synchronize() const { GT_CUDA(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  Event() { GT_CUDA(cudaEventCreate(&event_)); }
  Event(Event&& other) noexcept : event_(take(other.event_)) {}
  Event& operator=(Event&&) = delete;
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) const { GT_CUDA(cudaEventRecord(event_, stream)); }
  void synchronize() const { GT_CUDA(cudaEventSynchronize(event_)); }
  // Milliseconds from `start` to this event (both recorded and complete).
  float elapsed_since(const Event& start) const {
    float ms = 0.0f;
    GT_CUDA(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// A loaded cubin (cudaLibraryLoadData): the module lives as long as this object.
class Library {
 public:
  Library(const void* image, const std::string& what) {
    GT_CUDA(cudaLibraryLoadData(&library_, image, nullptr, nullptr, 0, nullptr, nullptr, 0), what);
  }
  Library(Library&& other) noexcept : library_(take(other.library_)) {}
  Library& operator=(Library&&) = delete;
  ~Library() {
    if (library_ != nullptr) cudaLibraryUnload(library_);
  }
  cudaKernel_t kernel(const std::string& lowered_name, const std::string& what) const {
    cudaKernel_t kernel = nullptr;
    GT_CUDA(cudaLibraryGetKernel(&kernel, library_, lowered_name.c_str()), what);
    return kernel;
  }

 private:
  cudaLibrary_t library_ = nullptr;
};

class CublasHandle {
 public:
  CublasHandle() { GT_CUBLAS(cublasCreate(&handle_)); }
  CublasHandle(CublasHandle&& other) noexcept : handle_(take(other.handle_)) {}
  CublasHandle& operator=(CublasHandle&&) = delete;
  ~CublasHandle() {
    if (handle_ != nullptr) cublasDestroy(handle_);
  }
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace gemmtune
