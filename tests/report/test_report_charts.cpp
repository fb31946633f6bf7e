#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "candidate_scatter.hpp"
#include "chart_frame.hpp"
#include "problem_bar_charts.hpp"
#include "report_test_support.hpp"
#include "roofline_chart.hpp"

using namespace gemmtune::report;
using namespace gemmtune::report::test;
using gemmtune::cache::MeasurementRow;
using gemmtune::cache::Problem;
using gemmtune::cache::ProblemSummary;
using gemmtune::cache::Status;

namespace {

// The (x, baseline, text) of each <text> drawn in `color`.
struct DrawnText {
  double x;
  double y;
  std::string text;
};
std::vector<DrawnText> texts_in_color(const std::string& svg, const std::string& color) {
  const std::regex text_element("<text x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"[^>]*fill=\"" + color +
                                "\"[^>]*>([^<]*)</text>");
  std::vector<DrawnText> found;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text_element);
       it != std::sregex_iterator(); ++it) {
    found.push_back({std::stod((*it)[1]), std::stod((*it)[2]), (*it)[3]});
  }
  return found;
}

const MeasurementRow* row_named(const std::vector<MeasurementRow>& rows, const std::string& name) {
  for (const MeasurementRow& row : rows) {
    if (row.kernel_name == name) return &row;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the sample database has what the charts are tested on", "[report]") {
  const auto problems = sample_problem_summaries();
  REQUIRE(problems.size() == 10);
  std::size_t without_winner = 0;
  std::size_t without_cublas = 0;
  for (const ProblemSummary& summary : problems) {
    without_winner += summary.winner ? 0 : 1;
    without_cublas += summary.winner && !summary.winner->cublas_ms ? 1 : 0;
  }
  CHECK(without_winner == 1);
  CHECK(without_cublas == 1);
}

TEST_CASE("throughput chart: a bar for each winner and each cuBLAS time, notes for the missing",
          "[report]") {
  const std::string svg = throughput_chart_svg(sample_problem_summaries());
  // 9 winners and 8 cuBLAS times (512^3 has none); each bar carries a tooltip.
  CHECK(count(svg, "<rect ") == 17 + 2);  // + the legend's two swatches
  CHECK(count(svg, "<title>nn:") == 17);
  CHECK(contains(
      svg,
      "<title>nn:4096x4096x4096: gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4 47.39 "
      "TFLOPS, 2.900 ms</title>"));
  CHECK(contains(svg, "<title>nn:4096x4096x4096: cuBLAS 50.90 TFLOPS, 2.700 ms</title>"));
  CHECK(contains(svg, ">no cuBLAS time</text>"));
  CHECK(contains(svg, ">no winner (3 of 3 candidates failed)</text>"));
  CHECK(contains(svg, ">tn:4096x4096x4096</text>"));
  CHECK(contains(svg, ">TFLOPS (FP32, higher is better)</text>"));
  CHECK(contains(svg, ">problem (layout:MxNxK)</text>"));
  CHECK(contains(svg, ">gemmtune winner</text>"));
}

TEST_CASE("throughput chart: bar lengths are proportional to TFLOPS", "[report]") {
  const std::regex bar(
      "<rect x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\"([0-9.]+)\"[^>]*><title>nn:4096x4096x4096: ([^ "
      "]+) ([0-9.]+) TFLOPS");
  const std::string svg = throughput_chart_svg(sample_problem_summaries());
  std::vector<std::pair<double, double>> width_and_tflops;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
       ++it) {
    width_and_tflops.emplace_back(std::stod((*it)[2]), std::stod((*it)[4]));
  }
  REQUIRE(width_and_tflops.size() == 2);
  CHECK(width_and_tflops[0].first / width_and_tflops[1].first ==
        Approx(width_and_tflops[0].second / width_and_tflops[1].second).epsilon(0.01));
}

TEST_CASE("speed-up chart: values printed, green when faster, red when slower", "[report]") {
  const std::string svg = speedup_chart_svg(sample_problem_summaries());
  CHECK(contains(svg, ">0.93x</text>"));  // 2.70 / 2.90
  CHECK(contains(svg, ">1.41x</text>"));  // 0.0379 / 0.0268
  CHECK(count(svg, std::string("fill=\"") + kFasterColor + "\"><title>") == 4);
  CHECK(count(svg, std::string("fill=\"") + kSlowerColor + "\"><title>") == 4);
  CHECK(contains(svg, ">no cuBLAS time</text>"));
  CHECK(contains(svg, ">no winner</text>"));
  CHECK(contains(svg, ">1.0 = cuBLAS</text>"));
  CHECK(contains(svg, "stroke-dasharray"));  // the reference line
}

TEST_CASE("roofline: both ceilings, each winner labelled, cuBLAS marked apart", "[report]") {
  const auto problems = sample_problem_summaries();
  const std::string svg = roofline_chart_svg(problems, *table_ceilings("NVIDIA H200"));
  CHECK(contains(svg, ">compute peak 66.9 TFLOPS</text>"));
  CHECK(contains(svg, ">4300 GB/s</text>"));
  CHECK(count(svg, "<circle ") == 9 + 1);   // winners + legend
  CHECK(count(svg, "<polygon ") == 8 + 1);  // cuBLAS diamonds + legend
  const auto labels = texts_in_color(svg, "#0b3d63");
  REQUIRE(labels.size() == 9);
  for (const ProblemSummary& summary : problems) {
    if (summary.winner) CHECK(contains(svg, ">" + roofline_label(summary.problem) + "</text>"));
  }
  CHECK(contains(
      svg,
      "<title>nn:4096x4096x4096 (fp32): gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4, "
      "47.39 TFLOPS, 682.7 FLOP/byte</title>"));
  CHECK(ridge_intensity(*table_ceilings("NVIDIA H200")) == Approx(66.9 * 1000 / 4300));
}

TEST_CASE("roofline labels are short: cubes as N³, the layout only when not nn", "[report]") {
  CHECK(roofline_label({"nn", 4096, 4096, 4096}) == "4096³");
  CHECK(roofline_label({"nn", 16, 4096, 4096}) == "16x4096x4096");
  CHECK(roofline_label({"tn", 512, 512, 512}) == "tn:512³");
}

TEST_CASE("roofline: the labels of close points do not overlap", "[report]") {
  const std::string svg =
      roofline_chart_svg(sample_problem_summaries(), *table_ceilings("NVIDIA H200"));
  const auto labels = texts_in_color(svg, "#0b3d63");
  for (std::size_t i = 0; i < labels.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      const double width_i = estimated_text_width(labels[i].text, 11);
      const double width_j = estimated_text_width(labels[j].text, 11);
      const bool apart = labels[i].x >= labels[j].x + width_j ||
                         labels[j].x >= labels[i].x + width_i ||
                         std::abs(labels[i].y - labels[j].y) >= 14;
      INFO(labels[i].text << " and " << labels[j].text);
      CHECK(apart);
    }
  }
}

TEST_CASE("roofline: extreme times still give finite log axes", "[report]") {
  ProblemSummary tiny;
  tiny.problem = {"nn", 1, 1, 1};
  tiny.winner = gemmtune::cache::Winner{1, "slow", 1e3, 2e-15, 5e3, 4e-16, "", "fp32", "strict", std::nullopt};
  ProblemSummary huge;
  huge.problem = {"nn", 65536, 65536, 65536};
  huge.winner = gemmtune::cache::Winner{2, "fast", 1e-3, 5.6e8, std::nullopt, std::nullopt, "", "fp32", "strict", std::nullopt};
  ProblemSummary zero;
  zero.problem = {"nn", 8, 8, 8};
  zero.winner = gemmtune::cache::Winner{3, "zero", 0, 0, 0, 0, "", "fp32", "strict", std::nullopt};  // skipped: no log of 0
  const std::string svg = roofline_chart_svg({tiny, huge, zero}, *table_ceilings("NVIDIA H200"));
  CHECK_FALSE(contains(svg, "nan"));
  CHECK_FALSE(contains(svg, "inf"));
  CHECK(contains(svg, ">1e-16</text>"));  // tick labels in exponent form
  CHECK(count(svg, "<circle ") == 2 + 1);
}

TEST_CASE("roofline: each class whose kernels won draws its compute ceiling, so no winner sits above them all",
          "[report]") {
  auto won = [](Problem problem, double tflops, const char* precision, const char* kernel_precision) {
    ProblemSummary summary;
    summary.problem = problem;
    summary.winner = gemmtune::cache::Winner{1, "k", 1, tflops, std::nullopt, std::nullopt, "", precision,
                                             kernel_precision, std::nullopt};
    return summary;
  };
  const auto h200 = *table_ceilings("NVIDIA H200");
  const std::string ffma_only = roofline_chart_svg({won({"nn", 4096, 4096, 4096}, 50, "fp32", "strict")}, h200);
  CHECK(contains(ffma_only, ">compute peak 66.9 TFLOPS</text>"));
  CHECK_FALSE(contains(ffma_only, "3xTF32"));

  const std::string tf32 = roofline_chart_svg({won({"nn", 4096, 4096, 4096}, 50, "strict", "strict"),
                                               won({"nn", 4096, 4096, 4096}, 350, "tf32", "tf32")},
                                              h200);
  CHECK(contains(tf32, ">FFMA (strict) peak 66.9 TFLOPS</text>"));
  CHECK(contains(tf32, ">TF32 (tf32, 7.4x FFMA) peak 495.1 TFLOPS</text>"));
  CHECK_FALSE(contains(tf32, "3xTF32"));  // no 3xTF32 kernel won
  CHECK(contains(tf32, "<title>nn:4096x4096x4096 (tf32): k, 350.00 TFLOPS"));

  const std::string fp32 = roofline_chart_svg({won({"nn", 4096, 4096, 4096}, 95, "fp32", "fp32")}, h200);
  CHECK(contains(fp32, ">3xTF32 (fp32, 2.4x FFMA) peak 160.6 TFLOPS</text>"));
}

TEST_CASE("parameter_value reads a parameter or a product of parameters", "[report]") {
  const std::string params = R"({"BM":128,"BN":64,"BK":8,"layout":"nn","align":4})";
  CHECK(parameter_value(params, "BM") == 128);
  CHECK(parameter_value(params, "BM*BN") == 8192);
  CHECK(parameter_value(params, "BM*BN*BK") == 65536);
  CHECK_FALSE(parameter_value(params, "TM"));
  CHECK_FALSE(parameter_value(params, "layout"));  // not a number
  CHECK_FALSE(parameter_value(params, ""));
  CHECK_FALSE(parameter_value("{not json", "BM"));
}

TEST_CASE("default_parameter: BM*BN, else the first numeric parameter, of ok candidates",
          "[report]") {
  MeasurementRow tiled;
  tiled.params_json = R"({"BM":64,"BN":64,"BK":8,"layout":"nn","align":1})";
  MeasurementRow seed;
  seed.params_json = R"({"layout":"nn","TILE":32,"align":1})";
  MeasurementRow failed = tiled;
  failed.status = Status::CompileError;
  CHECK(default_parameter({seed, tiled}) == "BM*BN");
  CHECK(default_parameter({seed}) == "TILE");
  CHECK(default_parameter({failed}) == "");
  CHECK(default_parameter({}) == "");
}

TEST_CASE("candidate scatter: a dot per ok candidate with the parameter, cuBLAS line, fastest",
          "[report]") {
  const auto db = sample_database();
  const auto model = model_of(db);
  const auto& spread = *model.gpus.at(0).spread;
  REQUIRE(spread.problem == Problem{"nn", 4096, 4096, 4096});
  std::size_t ok = 0;
  for (const auto& row : spread.rows) ok += row.status == Status::Ok ? 1 : 0;

  const ScatterChart chart = candidate_scatter(spread.rows, "BM*BN", 2.70);
  CHECK(chart.without_parameter == 6);  // smem, coalesced and naive have TILE only
  CHECK(chart.plotted == ok - 6);
  CHECK(count(chart.svg, "<circle ") ==
        chart.plotted + 3 + 1);  // + 3 families in the legend, the ring
  CHECK(contains(chart.svg, ">cuBLAS 2.700 ms</text>"));
  CHECK(contains(chart.svg, ">fastest 2.900 ms</text>"));
  // BM*BN runs from 4096 to 65536: a log axis labelled at the values tried.
  for (const char* tick :
       {">4096</text>", ">8192</text>", ">16384</text>", ">32768</text>", ">65536</text>"}) {
    CHECK(contains(chart.svg, tick));
  }
  CHECK(contains(chart.svg, ">reg1d</text>"));
  CHECK(contains(chart.svg, ">vectorized</text>"));
}

TEST_CASE("candidate scatter: nothing to draw without the parameter", "[report]") {
  const auto db = sample_database();
  const auto model = model_of(db);
  const ScatterChart chart =
      candidate_scatter(model.gpus.at(0).spread->rows, "WARPS", std::nullopt);
  CHECK(chart.svg.empty());
  CHECK(chart.plotted == 0);
  CHECK(chart.without_parameter > 0);
  const auto* failed =
      row_named(model.gpus.at(0).spread->rows, "gemmtune_sgemm_naive_nn_tile8_align1");
  REQUIRE(failed);
  CHECK(failed->status == Status::Timeout);
}
