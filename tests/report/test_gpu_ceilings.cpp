#include <catch2/catch.hpp>

#include "gpu_ceilings.hpp"
#include "report_test_support.hpp"

using namespace gemmtune::report;
using gemmtune::cache::Problem;
using gemmtune::cache::ProblemSummary;
using gemmtune::cache::Winner;

namespace {

ProblemSummary won(Problem problem, double tflops, std::optional<double> cublas_tflops) {
  ProblemSummary summary;
  summary.problem = problem;
  Winner winner;
  winner.tflops = tflops;
  winner.cublas_tflops = cublas_tflops;
  summary.winner = winner;
  return summary;
}

}  // namespace

TEST_CASE("arithmetic_intensity counts each matrix once, four bytes an element", "[report]") {
  CHECK(arithmetic_intensity({"nn", 4096, 4096, 4096}) == Approx(4096.0 / 6));
  // A matrix-vector product: 2 FLOPs per element of A read.
  CHECK(arithmetic_intensity({"nn", 1, 4096, 4096}) ==
        Approx(2.0 * 4096 * 4096 / (4.0 * (4096 + 4096 * 4096 + 4096))));
  CHECK(arithmetic_intensity({"nn", 1, 4096, 4096}) < 0.5);
}

TEST_CASE("table_ceilings knows the H200 and the H100 SXM by device name", "[report]") {
  const auto h200 = table_ceilings("NVIDIA H200");
  REQUIRE(h200);
  CHECK(h200->peak_tflops.value == Approx(66.9));
  CHECK(h200->bandwidth_gbs.value == Approx(4300));
  CHECK(h200->bandwidth_gbs.source.find("measured") != std::string::npos);
  const auto h100 = table_ceilings("nvidia h100 80gb hbm3");
  REQUIRE(h100);
  CHECK(h100->peak_tflops.value == Approx(66.9));
  CHECK(h100->bandwidth_gbs.value < h200->bandwidth_gbs.value);
  CHECK_FALSE(table_ceilings("NVIDIA H100 PCIe"));  // fewer SMs, other memory: not the SXM numbers
  CHECK_FALSE(table_ceilings("NVIDIA A100-SXM4-80GB"));
}

TEST_CASE("class_peaks: the tensor-core classes' ceilings from the FFMA peak and the families' factors", "[report]") {
  const auto h200 = table_ceilings("NVIDIA H200");
  REQUIRE(h200);
  REQUIRE(h200->class_peaks.size() == 2);
  CHECK(h200->class_peaks[0].precision == gemmtune::Precision::Fp32);
  CHECK(h200->class_peaks[0].name == "3xTF32");
  CHECK(h200->class_peaks[0].tflops == Approx(160.6).epsilon(0.01));  // ~165 as issue 15 has it
  CHECK(h200->class_peaks[1].precision == gemmtune::Precision::Tf32);
  CHECK(h200->class_peaks[1].tflops == Approx(495).epsilon(0.01));
  const auto given = choose_ceilings("NVIDIA H200", {}, {10.0, std::nullopt});
  REQUIRE(given);
  CHECK(given->class_peaks[1].tflops == Approx(10 * h200->class_peaks[1].factor));
  CHECK(observed_ceilings({won({"nn", 4096, 4096, 4096}, 40, 45)})->class_peaks.empty());  // a lower bound only
}

TEST_CASE("observed_ceilings: the highest TFLOPS and the highest implied bandwidth", "[report]") {
  const Problem square{"nn", 4096, 4096, 4096};
  const Problem vector{"nn", 1, 4096, 4096};
  const auto observed = observed_ceilings({won(square, 40, 45), won(vector, 1.5, std::nullopt)});
  REQUIRE(observed);
  CHECK(observed->peak_tflops.value == Approx(45));
  CHECK(observed->bandwidth_gbs.value == Approx(1.5 * 1000 / arithmetic_intensity(vector)));
  CHECK(observed->peak_tflops.source.find("lower bound") != std::string::npos);
  CHECK_FALSE(observed_ceilings({}));
  CHECK_FALSE(observed_ceilings({ProblemSummary{}}));  // no winner
}

TEST_CASE("choose_ceilings: options first, then the table, then what was observed", "[report]") {
  const std::vector<ProblemSummary> measured = {won({"nn", 4096, 4096, 4096}, 20, 22)};
  const auto h200_with_peak = choose_ceilings("NVIDIA H200", measured, {60.0, std::nullopt});
  REQUIRE(h200_with_peak);
  CHECK(h200_with_peak->peak_tflops.value == 60);
  CHECK(h200_with_peak->peak_tflops.source == "given with --peak-tflops");
  CHECK(h200_with_peak->bandwidth_gbs.value == 4300);

  const auto unknown = choose_ceilings("NVIDIA A100-SXM4-80GB", measured, {});
  REQUIRE(unknown);
  CHECK(unknown->peak_tflops.value == Approx(22));

  CHECK_FALSE(choose_ceilings("NVIDIA A100-SXM4-80GB", {}, {19.5, std::nullopt}));
  const auto given = choose_ceilings("NVIDIA A100-SXM4-80GB", {}, {19.5, 1555.0});
  REQUIRE(given);
  CHECK(given->peak_tflops.value == 19.5);
  CHECK(given->bandwidth_gbs.value == 1555);
}
