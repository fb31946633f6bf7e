#include "html_report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "candidate_scatter.hpp"
#include "html_text.hpp"
#include "problem_bar_charts.hpp"
#include "roofline_chart.hpp"

namespace gemmtune::report {
namespace {

constexpr std::size_t kErrorTextLimit = 400;  // characters of an error shown in the table

constexpr std::string_view kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #222; max-width: 1000px; margin: 24px auto; padding: 0 16px; line-height: 1.4; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 20px; margin-top: 40px; border-bottom: 2px solid #0072B2; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 28px 0 6px; }
svg { display: block; max-width: 100%; height: auto; }
.provenance, .caption, .note { color: #555; font-size: 13px; }
.note { font-style: italic; }
table { border-collapse: collapse; font-size: 13px; margin-top: 8px; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f4f6f8; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; }
.wrap { overflow-wrap: anywhere; }  /* long kernel names and error texts wrap, not overflow */
.error { white-space: pre-wrap; width: 45%; }
.faster { color: #00704f; font-weight: bold; }
.slower { color: #b34400; font-weight: bold; }
)";

std::string gpu_title(const cache::GpuKey& gpu) {
  return gpu.name + " (sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor) + ", " +
         std::to_string(gpu.sm_count) + " SMs)";
}

std::string paragraph(std::string_view css_class, const std::string& escaped_html) {
  return "<p class=\"" + std::string(css_class) + "\">" + escaped_html + "</p>\n";
}

std::string cell(const std::string& text, std::string_view css_class = {}) {
  return css_class.empty()
             ? "<td>" + escape_html(text) + "</td>"
             : "<td class=\"" + std::string(css_class) + "\">" + escape_html(text) + "</td>";
}

std::string header_row(std::initializer_list<const char*> headers) {
  std::string row = "<tr>";
  for (const char* header : headers) row += "<th>" + escape_html(header) + "</th>";
  return row + "</tr>\n";
}

// "Problems measured: 10; with a winner: 9. The winner beats cuBLAS on 4 of the 8 with a
// cuBLAS time; geometric-mean speed-up 1.07x."
std::string speedup_summary(const std::vector<cache::ProblemSummary>& problems) {
  std::size_t with_winner = 0;
  std::size_t compared = 0;
  std::size_t faster = 0;
  double log_sum = 0;
  for (const auto& summary : problems) {
    if (!summary.winner) continue;
    ++with_winner;
    if (const auto speedup = speedup_over_cublas(*summary.winner)) {
      ++compared;
      faster += *speedup > 1 ? 1 : 0;
      log_sum += std::log(*speedup);
    }
  }
  std::string text = "Problems measured: " + std::to_string(problems.size()) +
                     "; with a winner: " + std::to_string(with_winner) + ".";
  if (compared > 0) {
    text += " The winner beats cuBLAS on " + std::to_string(faster) + " of the " +
            std::to_string(compared) + " with a cuBLAS time; geometric-mean speed-up " +
            fixed(std::exp(log_sum / static_cast<double>(compared)), 2) + "x.";
  }
  return text;
}

std::string winners_table(const std::vector<cache::ProblemSummary>& problems) {
  std::string html = "<table>\n" + header_row({"problem", "class", "kernel", "ms", "TFLOPS", "error vs FP64",
                                               "cuBLAS ms", "speed-up", "candidates ok / failed"});
  for (const auto& summary : problems) {
    const auto& winner = summary.winner;
    const auto speedup = winner ? speedup_over_cublas(*winner) : std::nullopt;
    const char* speed_class = !speedup        ? "number"
                              : *speedup >= 1 ? "number faster"
                                              : "number slower";
    html += "<tr>" + cell(to_string(summary.problem), "mono") + cell(winner ? winner->precision : "-", "mono") +
            cell(winner ? winner->kernel_name : "no winner", "mono") +
            cell(winner ? significant(winner->median_ms, 4) : "-", "number") +
            cell(winner ? fixed(winner->tflops, 2) : "-", "number") +
            cell(winner && winner->fp64_error ? scientific(*winner->fp64_error, 1) : "-", "number") +
            cell(winner && winner->cublas_ms ? significant(*winner->cublas_ms, 4) : "-", "number") +
            cell(speedup ? fixed(*speedup, 2) + "x" : "-", speed_class) +
            cell(std::to_string(summary.ok) + " / " + std::to_string(summary.failed), "number") +
            "</tr>\n";
  }
  return html + "</table>\n";
}

std::string failures_table(const std::vector<cache::MeasurementRow>& rows) {
  std::string html;
  std::size_t failures = 0;
  for (const cache::MeasurementRow& row : rows) {
    if (row.status == cache::Status::Ok) continue;
    ++failures;
    std::string error = row.error_text.substr(0, kErrorTextLimit);
    if (row.error_text.size() > kErrorTextLimit) error += " [...]";
    html += "<tr>" + cell(row.kernel_name, "mono wrap") + cell(row.family) +
            cell(std::string(to_string(row.status)), "mono") + cell(error, "mono wrap error") +
            "</tr>\n";
  }
  if (failures == 0) return paragraph("note", "No candidate of this problem failed.");
  return "<h4>Failed candidates (" + std::to_string(failures) + ")</h4>\n<table>\n" +
         header_row({"kernel", "family", "status", "error"}) + html + "</table>\n";
}

// The parameter names of the first ok candidate, for a note when --param matches none.
std::string spread_section(const GpuSection& section, const std::string& requested_parameter) {
  if (!section.spread) {
    return "<h3>4. Candidates</h3>\n" + paragraph("note", escape_html(section.spread_note));
  }
  const CandidateSpread& spread = *section.spread;
  const std::string problem = to_string(spread.problem);
  std::string html = "<h3>4. Candidates of " + escape_html(problem) + "</h3>\n";
  std::optional<double> cublas_ms;
  for (const auto& summary : section.problems) {
    if (summary.problem == spread.problem && summary.winner) cublas_ms = summary.winner->cublas_ms;
  }
  const std::string parameter =
      requested_parameter.empty() ? default_parameter(spread.rows) : requested_parameter;
  const ScatterChart chart = candidate_scatter(spread.rows, parameter, cublas_ms);
  if (chart.svg.empty()) {
    const std::string names = parameter_names(spread.rows);
    html += paragraph("note",
                      parameter.empty() || names.empty()
                          ? "No candidate of " + escape_html(problem) + " has an ok time to plot."
                          : "No ok candidate has the parameter " + escape_html(parameter) +
                                "; their parameters are " + escape_html(names) +
                                " (choose one with --param).");
  } else {
    html += chart.svg;
    std::string caption = "Each dot is one ok measurement (" + std::to_string(chart.plotted) +
                          "), coloured by kernel family; hover for the kernel's name. Dots "
                          "that would cover each other are moved sideways.";
    if (chart.without_parameter > 0) {
      caption += " Not shown: " + std::to_string(chart.without_parameter) +
                 " ok measurements whose configuration has no " + escape_html(parameter) + ".";
    }
    html += paragraph("caption", caption);
  }
  return html + failures_table(spread.rows);
}

std::string roofline_section(const GpuSection& section) {
  std::string html = "<h3>3. Roofline</h3>\n";
  if (!section.ceilings) {
    return html + paragraph("note",
                            "No ceilings for this GPU: it is not in the built-in table and has no "
                            "winner to estimate them from; give them with --peak-tflops and "
                            "--bandwidth-gbs.");
  }
  const Ceilings& ceilings = *section.ceilings;
  html += roofline_chart_svg(section.problems, ceilings);
  return html +
         paragraph("caption",
                   "Compute ceiling " + fixed(ceilings.peak_tflops.value, 1) +
                       " TFLOPS: " + escape_html(ceilings.peak_tflops.source) +
                       ". Memory ceiling " + fixed(ceilings.bandwidth_gbs.value, 0) +
                       " GB/s: " + escape_html(ceilings.bandwidth_gbs.source) + ". They meet at " +
                       fixed(ridge_intensity(ceilings), 1) +
                       " FLOP/byte; a problem left of that is memory-bound at best. Intensity "
                       "counts each matrix read or written once, the least traffic possible.");
}

std::string gpu_section(const GpuSection& section, const std::string& parameter) {
  const cache::GpuInfo& gpu = section.gpu;
  std::string html =
      "<section>\n<h2>" + escape_html(gpu_title(gpu.key)) + "</h2>\n" +
      paragraph("provenance", "Driver " + escape_html(gpu.driver_version) + ", CUDA runtime " +
                                  escape_html(gpu.cuda_runtime_version) + ", NVRTC " +
                                  escape_html(gpu.nvrtc_version) + " (of the latest tuning run).");
  if (section.problems.empty()) {
    return html + paragraph("note", "Nothing was measured on this GPU yet.") + "</section>\n";
  }
  html += paragraph("caption", escape_html(speedup_summary(section.problems)));
  html +=
      "<h3>1. Throughput: winner against cuBLAS</h3>\n" + throughput_chart_svg(section.problems);
  html += "<h3>2. Speed-up over cuBLAS</h3>\n" + speedup_chart_svg(section.problems) +
          paragraph("caption",
                    "cuBLAS's time divided by the winner's, both measured on the same "
                    "inputs: right of the 1.0 line the tuned kernel is faster.");
  html += roofline_section(section);
  html += spread_section(section, parameter);
  html += "<h3>Winners</h3>\n" + winners_table(section.problems);
  return html + "</section>\n";
}

}  // namespace

std::string render_report_html(const ReportModel& model) {
  const Provenance& provenance = model.provenance;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>gemmtune report: " +
      escape_html(provenance.database_path) + "</title>\n<style>" + std::string(kStyle) +
      "</style>\n</head>\n<body>\n"
      "<h1>gemmtune tuning report</h1>\n";
  html += paragraph("provenance",
                    "Database <span class=\"mono\">" + escape_html(provenance.database_path) +
                        "</span> &middot; generated " + escape_html(provenance.generated_at) +
                        " &middot; gemmtune commit <span class=\"mono\">" +
                        escape_html(provenance.gemmtune_commit) + "</span>");
  if (model.gpus.empty()) {
    const std::string cubins =
        model.binaries.empty()
            ? std::string()
            : " It holds " + escape_html(to_string(model.binaries)) +
                  ", as a dry run (<span class=\"mono\">tune --dry-run</span>) leaves it: those are compiled, "
                  "not yet measured; <span class=\"mono\">tunedb binaries</span> lists them.";
    html += paragraph("note",
                      "There is nothing to report yet: the database has no "
                      "measurements." + cubins + " Tune some shapes first, e.g. <span class=\"mono\">"
                      "tune --gpu H200 --shapes shapes.txt --db " +
                          escape_html(provenance.database_path) +
                          "</span>, then run "
                          "<span class=\"mono\">tunedb report</span> again.");
  }
  for (const GpuSection& section : model.gpus) html += gpu_section(section, model.spread_parameter);
  return html + "</body>\n</html>\n";
}

}  // namespace gemmtune::report
