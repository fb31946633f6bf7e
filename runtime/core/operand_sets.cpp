#include "operand_sets.hpp"

#include <algorithm>

namespace gemmtune {
namespace {

// splitmix64's finalizer: a bijection of 64-bit words whose outputs of consecutive inputs pass
// as independent.
std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<float> random_operand(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  const std::uint64_t base = mix(seed + 0x9e3779b97f4a7c15ULL);
  for (std::size_t i = 0; i < count; ++i) {
    // The top 24 bits u give (2u + 1) / 2^24 - 1: exact in FP32, never zero.
    const auto u = static_cast<std::int64_t>(mix(base + i) >> 40);
    values[i] = static_cast<float>(2 * u + 1 - (std::int64_t{1} << 24)) * 0x1p-24f;
  }
  return values;
}

OperandSets::OperandSets(const Problem& problem, std::size_t l2_bytes, std::size_t device_memory, unsigned seed)
    : M_(problem.M),
      N_(problem.N),
      K_(problem.K),
      batch_(problem.batch),
      lda_(a_is_transposed(problem.layout) ? problem.M : problem.K),
      ldb_(b_is_transposed(problem.layout) ? problem.K : problem.N),
      ldc_(problem.N),
      stride_a_(static_cast<long long>(problem.M) * problem.K),
      stride_b_(static_cast<long long>(problem.K) * problem.N),
      stride_c_(static_cast<long long>(problem.M) * problem.N) {
  const std::size_t a_count = static_cast<std::size_t>(stride_a_) * batch_;
  const std::size_t b_count = static_cast<std::size_t>(stride_b_) * batch_;
  const std::size_t c_count = static_cast<std::size_t>(stride_c_) * batch_;
  const std::size_t set_bytes = (a_count + b_count + c_count) * sizeof(float);
  const std::size_t wanted = std::max<std::size_t>(2, (2 * l2_bytes + set_bytes - 1) / set_bytes + 1);
  const std::size_t affordable = std::max<std::size_t>(1, device_memory / 4 / set_bytes);
  const std::size_t count = std::min({wanted, affordable, std::size_t{64}});

  const std::uint64_t stream = std::uint64_t{seed} << 2;  // A, B and C: three streams of the seed
  const std::vector<float> host_a = random_operand(a_count, stream), host_b = random_operand(b_count, stream + 1),
                           host_c = random_operand(c_count, stream + 2);
  for (std::size_t i = 0; i < count; ++i) {
    Set set{DeviceBuffer<float>(a_count), DeviceBuffer<float>(b_count), DeviceBuffer<float>(c_count)};
    set.a.upload(host_a);
    set.b.upload(host_b);
    set.c.upload(host_c);
    sets_.push_back(std::move(set));
  }
  c_initial_ = DeviceBuffer<float>(c_count);
  c_check_ = DeviceBuffer<float>(c_count);
  c_initial_.upload(host_c);
}

GemmParams OperandSets::params(int i, float alpha, float beta) const {
  const Set& set = sets_[static_cast<std::size_t>(i)];
  GemmParams params{M_, N_, K_, alpha, beta, set.a.data(), lda_, set.b.data(), ldb_, set.c.data(), ldc_, nullptr, 0};
  params.batch = batch_;
  params.stride_a = stride_a_;
  params.stride_b = stride_b_;
  params.stride_c = stride_c_;
  return params;
}

GemmParams OperandSets::check_params(float alpha, float beta, cudaStream_t stream) {
  c_check_.copy_from(c_initial_, stream);
  GemmParams params = this->params(0, alpha, beta);
  params.C = c_check_.data();
  return params;
}

}  // namespace gemmtune
