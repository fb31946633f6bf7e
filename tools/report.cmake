# gemmtune_report: the HTML report of `tunedb report`. Pure functions from database records to
# SVG charts and one self-contained HTML page, plus the one loader that reads the database.
set(report_dir ${CMAKE_CURRENT_LIST_DIR}/report)
add_library(gemmtune_report STATIC
  ${report_dir}/html_text.cpp
  ${report_dir}/axis_scale.cpp
  ${report_dir}/svg_canvas.cpp
  ${report_dir}/chart_frame.cpp
  ${report_dir}/gpu_ceilings.cpp
  ${report_dir}/problem_bar_charts.cpp
  ${report_dir}/roofline_chart.cpp
  ${report_dir}/candidate_scatter.cpp
  ${report_dir}/report_model.cpp
  ${report_dir}/html_report.cpp
)
target_include_directories(gemmtune_report PUBLIC ${report_dir})
target_link_libraries(gemmtune_report PUBLIC gemmtune_cache gemmtune_core PRIVATE gemmtune_families nlohmann_json::nlohmann_json)
