#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "html_report.hpp"
#include "report_test_support.hpp"

using namespace gemmtune::report;
using namespace gemmtune::report::test;
using gemmtune::cache::Database;
using gemmtune::cache::Measurement;
using gemmtune::cache::OpenMode;
using gemmtune::cache::Problem;
using gemmtune::cache::Status;
using gemmtune::cache::Timing;
using gemmtune::cache::WinnerUpdate;

namespace {

// The page with the SVG namespace, an identifier that browsers never fetch, taken out.
std::string without_svg_namespace(std::string html) {
  const std::string xmlns = "xmlns=\"http://www.w3.org/2000/svg\"";
  for (auto at = html.find(xmlns); at != std::string::npos; at = html.find(xmlns)) {
    html.erase(at, xmlns.size());
  }
  return html;
}

void check_self_contained(const std::string& html) {
  const std::string rest = without_svg_namespace(html);
  for (const char* external :
       {"http://", "https://", "<script", "<link", " src=", "@import", "url("}) {
    INFO(external);
    CHECK_FALSE(contains(rest, external));
  }
}

// The text from the first `from` up to the next `to`.
std::string between(const std::string& html, const std::string& from, const std::string& to) {
  const auto start = html.find(from);
  if (start == std::string::npos) throw std::runtime_error("no " + from + " in the page");
  return html.substr(start, html.find(to, start) - start);
}

Database empty_database() { return Database::open(":memory:", OpenMode::ReadWrite); }

// One ok measurement of `kernel` (family "reg2d") on `problem`, made the winner.
void add_winner(Database& db, std::int64_t gpu, const Problem& problem, const std::string& kernel,
                double ms, std::optional<double> cublas_ms, const std::string& error_text = "") {
  Measurement measurement;
  measurement.gpu_id = gpu;
  measurement.problem_id = db.upsert_problem(problem);
  measurement.config_id =
      db.upsert_config(kernel, "reg2d", R"({"BM":64,"BN":64,"layout":"nn","align":1})", "strict");
  measurement.timing = Timing{ms, ms, ms, ms, ms};
  measurement.repetitions = 10;
  db.record_measurement(measurement, WinnerUpdate{cublas_ms});
  if (error_text.empty()) return;
  measurement.config_id =
      db.upsert_config(kernel + "_other", "reg2d", R"({"BM":32,"layout":"nn","align":1})", "strict");
  measurement.status = Status::CompileError;
  measurement.timing.reset();
  measurement.error_text = error_text;
  db.record_measurement(measurement);
}

}  // namespace

TEST_CASE("report of the sample: four charts, the winners table and the failures", "[report]") {
  const auto db = sample_database();
  const std::string html = render_report_html(model_of(db));
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(count(html, "<svg") == 4);
  CHECK(contains(html, "<h2>NVIDIA H200 (sm_90, 132 SMs)</h2>"));
  CHECK(contains(
      html,
      "Database <span class=\"mono\">tuned.db</span> &middot; generated 2026-11-29 18:40 UTC"
      " &middot; gemmtune commit <span class=\"mono\">0123456789ab</span>"));
  CHECK(contains(html, "<h3>4. Candidates of nn:4096x4096x4096</h3>"));
  CHECK(contains(
      html, "Problems measured: 10; with a winner: 9. The winner beats cuBLAS on 4 of the 8 with"));

  const std::string winners = between(html, "<h3>Winners</h3>", "</table>");
  CHECK(count(winners, "<tr>") == 1 + 10);
  CHECK(contains(winners,
                 "<td class=\"mono\">nn:4096x4096x4096</td><td class=\"mono\">fp32</td><td class=\"mono\">"
                 "gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4</td>"
                 "<td class=\"number\">2.900</td><td class=\"number\">47.39</td><td class=\"number\">-</td>"
                 "<td class=\"number\">2.700</td><td class=\"number slower\">0.93x</td>"));
  CHECK(contains(winners, "<td class=\"mono\">no winner</td>"));

  const std::string failures = between(html, "<h4>Failed candidates (6)</h4>", "</table>");
  CHECK(count(failures, "<tr>") == 1 + 6);
  CHECK(contains(failures, "<td class=\"mono\">compile_error</td>"));
  CHECK(contains(failures, "reg2d_sgemm&lt;256, 256, 32, 8, 8, gemmtune::Layout::NN, 1&gt;"));
  CHECK(contains(failures,
                 "&quot;BN * BK must be a multiple of 4 * threads (float4 loads of B) &amp;&amp;"));
  CHECK_FALSE(contains(html, "reg2d_sgemm<256"));
  check_self_contained(html);
}

TEST_CASE("report of an empty database says there is nothing yet", "[report]") {
  const auto db = empty_database();
  const std::string html = render_report_html(model_of(db));
  CHECK(contains(html, "There is nothing to report yet"));
  CHECK_FALSE(contains(html, "<svg"));
  CHECK(contains(html, "</html>"));
  check_self_contained(html);
}

TEST_CASE("report of a GPU with nothing measured says so, without charts", "[report]") {
  auto db = empty_database();
  db.upsert_gpu({{"NVIDIA H200", 9, 0, 132}, "570", "12.8", "12.8"});
  const std::string html = render_report_html(model_of(db));
  CHECK(contains(html, "Nothing was measured on this GPU yet."));
  CHECK_FALSE(contains(html, "<svg"));
}

TEST_CASE("report of a single problem without a cuBLAS time", "[report]") {
  auto db = empty_database();
  const auto gpu = db.upsert_gpu({{"NVIDIA H200", 9, 0, 132}, "570", "12.8", "12.8"});
  add_winner(db, gpu, {"nn", 1024, 1024, 1024}, "gemmtune_sgemm_reg2d_nn_bm64", 0.08, std::nullopt);
  const std::string html = render_report_html(model_of(db));
  CHECK(count(html, "<svg") == 4);
  CHECK(contains(html, ">no cuBLAS time</text>"));
  CHECK(contains(html, "Problems measured: 1; with a winner: 1."));
  CHECK(contains(html, "No candidate of this problem failed."));
  check_self_contained(html);
}

TEST_CASE("report escapes GPU names, kernel names and error texts", "[report]") {
  auto db = empty_database();
  const auto gpu = db.upsert_gpu({{"GPU <script>alert('x')</script>", 9, 0, 132}, "<b>", "1", "1"});
  add_winner(db, gpu, {"nn", 64, 64, 64}, "kernel<img src=x onerror=alert(1)>", 0.01, 0.02,
             "error: </td></table><script>alert(\"boom\")</script> & more");
  const std::string html = render_report_html(model_of(db));
  CHECK(contains(html, "GPU &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
  CHECK(contains(html, "kernel&lt;img src=x onerror=alert(1)&gt;"));
  CHECK(contains(
      html,
      "error: &lt;/td&gt;&lt;/table&gt;&lt;script&gt;alert(&quot;boom&quot;)&lt;/script&gt; &amp; "
      "more"));
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "<img"));
  CHECK_FALSE(contains(html, "<b>"));
}

TEST_CASE("report of an unknown GPU estimates its roofline from what was measured", "[report]") {
  auto db = empty_database();
  const auto gpu = db.upsert_gpu({{"NVIDIA A100-SXM4-80GB", 8, 0, 108}, "535", "12.2", "12.2"});
  add_winner(db, gpu, {"nn", 4096, 4096, 4096}, "gemmtune_sgemm_reg2d_nn_bm64", 8.0, 7.5);
  const std::string html = render_report_html(model_of(db));
  CHECK(contains(html, "a lower bound, not the GPU&#39;s limit"));
  CHECK(contains(html, ">compute peak 18.3 TFLOPS</text>"));  // cuBLAS: 2 * 4096^3 / 7.5 ms

  ReportOptions given;
  given.ceilings = {19.5, 1555.0};
  const std::string with_options = render_report_html(model_of(db, given));
  CHECK(contains(with_options, ">compute peak 19.5 TFLOPS</text>"));
  CHECK(contains(with_options, ">1555 GB/s</text>"));
}

TEST_CASE("report with --param plots against it, or is refused saying which parameters there are", "[report]") {
  const auto db = sample_database();
  ReportOptions options;
  options.spread_parameter = "BK";
  CHECK(
      contains(render_report_html(model_of(db, options)), ">BK (configuration parameter)</text>"));
  // Refused like a --problem the database lacks, not a page whose chart is a note.
  options.spread_parameter = "WARPS";
  CHECK_THROWS_AS(model_of(db, options), ReportOptionError);
  CHECK_THROWS_WITH(model_of(db, options),
                    "--param 'WARPS': no candidate plotted has it; their parameters are BM, BN, BK, TM, TN, align "
                    "(or a product of them, such as BM*BN)");
}

TEST_CASE("load_report picks the problem with the most ok candidates, or the one asked for",
          "[report]") {
  const auto db = sample_database();
  CHECK(model_of(db).gpus.at(0).spread->problem == Problem{"nn", 4096, 4096, 4096});
  ReportOptions options;
  options.spread_problem = Problem{"tn", 4096, 4096, 4096};
  const auto chosen = model_of(db, options);
  REQUIRE(chosen.gpus.at(0).spread);
  CHECK(chosen.gpus.at(0).spread->rows.size() == 3);  // all failed: the failures table shows them
  const std::string html = render_report_html(chosen);
  CHECK(contains(html, "No candidate of tn:4096x4096x4096 has an ok time to plot."));
  CHECK(contains(html, "<h4>Failed candidates (3)</h4>"));
}

TEST_CASE("default_spread_problem prefers ok candidates, then measured ones", "[report]") {
  gemmtune::cache::ProblemSummary failing;
  failing.problem = {"nn", 1, 1, 1};
  failing.measured = 5;
  failing.failed = 5;
  gemmtune::cache::ProblemSummary fewer_ok = failing;
  fewer_ok.problem = {"nn", 2, 2, 2};
  fewer_ok.ok = 1;
  CHECK(default_spread_problem({failing, fewer_ok}) == Problem{"nn", 2, 2, 2});
  CHECK(default_spread_problem({failing}) == Problem{"nn", 1, 1, 1});
  CHECK_FALSE(default_spread_problem({}));
}

TEST_CASE("load_report refuses a --problem or --gpu that matches nothing, naming what exists",
          "[report]") {
  const auto db = sample_database();
  ReportOptions unknown_problem;
  unknown_problem.spread_problem = Problem{"nn", 7, 7, 7};
  CHECK_THROWS_WITH(model_of(db, unknown_problem), Catch::Contains("no measurements of nn:7x7x7"));
  CHECK_THROWS_AS(model_of(db, unknown_problem), ReportOptionError);  // tunedb: bad input, exit 2
  ReportOptions unknown_gpu;
  unknown_gpu.gpu_name_part = "a100";
  CHECK_THROWS_WITH(model_of(db, unknown_gpu),
                    Catch::Contains("no GPU matches 'a100'; the database has: NVIDIA H200"));
  CHECK_THROWS_AS(model_of(db, unknown_gpu), ReportOptionError);
  unknown_gpu.gpu_name_part = "h200";
  CHECK(model_of(db, unknown_gpu).gpus.size() == 1);
}
