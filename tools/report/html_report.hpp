// The report page: one self-contained HTML document (inline CSS, inline SVG charts, no
// scripts, nothing fetched over the network) from a ReportModel.
#pragma once

#include <string>

#include "report_model.hpp"

namespace gemmtune::report {

// For each GPU: throughput and speed-up bar charts, the roofline, one problem's candidate
// spread with its failures, and the winners table; a page that says so when there is nothing.
std::string render_report_html(const ReportModel& model);

}  // namespace gemmtune::report
