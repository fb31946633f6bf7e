// sgemm_example: open a tuning database, run one SGEMM through gemmtune on random data, check it
// against a CPU loop, and say which kernel ran and why. Uses the public API only.
//
//   sgemm_example [tuned.db] [M N K]      (defaults: tuned.db, 1000 999 777)
//
// Exits 0 when the result is right, 1 when it is not or a call fails, 2 for bad arguments or
// without a GPU.
#include <cuda_runtime_api.h>
#include <gemmtune/runtime.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// A device array of floats, freed with its owner.
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<float>& host) : bytes_(host.size() * sizeof(float)) {
    check(cudaMalloc(&data_, bytes_), "cudaMalloc");
    check(cudaMemcpy(data_, host.data(), bytes_, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(data_); }

  float* data() const { return static_cast<float*>(data_); }
  std::vector<float> download() const {
    std::vector<float> host(bytes_ / sizeof(float));
    check(cudaMemcpy(host.data(), data_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
    return host;
  }

  static void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_;
};

std::vector<float> random_matrix(std::size_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& value : values) value = uniform(rng);
  return values;
}

int run(const std::string& db_path, int M, int N, int K) {
  gemmtune::RuntimeOptions options;
  options.allow_untuned = true;  // an untuned machine still runs, on default kernels
  gemmtune::Runtime runtime;
  const gemmtune::Status opened = gemmtune::Runtime::open(runtime, db_path, options);
  if (opened != gemmtune::Status::Success) {
    std::fprintf(stderr, "%s: %s\n", gemmtune::to_string(opened), gemmtune::last_error().c_str());
    return opened == gemmtune::Status::NoDevice ? 2 : 1;
  }
  std::printf("%s\n", runtime.describe().c_str());

  // Row-major C (M x N) = alpha A (M x K) B (K x N) + beta C.
  const float alpha = 0.7f, beta = -1.3f;
  std::mt19937 rng(42);
  const std::vector<float> a = random_matrix(static_cast<std::size_t>(M) * K, rng);
  const std::vector<float> b = random_matrix(static_cast<std::size_t>(K) * N, rng);
  const std::vector<float> c = random_matrix(static_cast<std::size_t>(M) * N, rng);
  const DeviceArray a_dev(a), b_dev(b), c_dev(c);
  const gemmtune::Status status =
      runtime.sgemm(gemmtune::Order::RowMajor, gemmtune::Transpose::No, gemmtune::Transpose::No, M, N, K, alpha,
                    a_dev.data(), K, b_dev.data(), N, beta, c_dev.data(), N, nullptr);
  if (status != gemmtune::Status::Success) {
    std::fprintf(stderr, "sgemm: %s: %s\n", gemmtune::to_string(status), gemmtune::last_error().c_str());
    return 1;
  }
  DeviceArray::check(cudaDeviceSynchronize(), "the sgemm kernel");
  const std::vector<float> result = c_dev.download();
  if (const std::optional<gemmtune::Selection> selection = runtime.last_selection()) {
    std::printf("kernel: %s\n", gemmtune::describe(*selection).c_str());
  }

  // The CPU loop in double; FP32 with K terms may be off by about K * 2^-24 of sum |a||b|.
  double worst = 0.0;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      double sum = 0.0, magnitude = 0.0;
      for (int k = 0; k < K; ++k) {
        const double term =
            static_cast<double>(a[static_cast<std::size_t>(m) * K + k]) * b[static_cast<std::size_t>(k) * N + n];
        sum += term;
        magnitude += std::abs(term);
      }
      const std::size_t i = static_cast<std::size_t>(m) * N + n;
      const double expected = alpha * sum + beta * static_cast<double>(c[i]);
      const double scale = std::abs(alpha) * magnitude + std::abs(beta * c[i]);
      worst = std::max(worst, std::abs(result[i] - expected) / (scale * (K + 4) * std::ldexp(1.0, -24)));
    }
  }
  const bool right = worst <= 1.0;
  std::printf("%dx%dx%d: worst error %.3f of the FP32 rounding bound: %s\n", M, N, K, worst,
              right ? "correct" : "WRONG");
  return right ? 0 : 1;
}

constexpr const char* kUsage =
    "usage: sgemm_example [tuned.db] [M N K]   (defaults: tuned.db, 1000 999 777)\n"
    "Runs one row-major SGEMM through gemmtune's runtime on random data, checks it against a CPU\n"
    "loop and says which kernel ran and why. Exit codes: 0 right, 1 wrong or a call failed,\n"
    "2 bad arguments or no GPU.\n";

// A size from the command line: a whole number from 1 to 2^20, else nullopt.
std::optional<int> parse_size(const char* text) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 1 || value > (1 << 20)) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "--help" || first == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::optional<int> sizes[3] = {1000, 999, 777};
  if (argc == 5) {
    for (int i = 0; i < 3; ++i) sizes[i] = parse_size(argv[2 + i]);
  }
  const bool sizes_ok = sizes[0] && sizes[1] && sizes[2];
  if ((argc != 1 && argc != 2 && argc != 5) || first.starts_with('-') || !sizes_ok) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string db_path = argc > 1 ? first : "tuned.db";
  const int M = *sizes[0], N = *sizes[1], K = *sizes[2];
  try {
    return run(db_path, M, N, K);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
}
