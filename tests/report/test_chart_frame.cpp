#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "chart_frame.hpp"
#include "report_test_support.hpp"
#include "svg_canvas.hpp"

using namespace gemmtune::report;
using gemmtune::report::test::contains;
using gemmtune::report::test::count;

TEST_CASE("SvgCanvas escapes text, tooltips and the description", "[report]") {
  SvgCanvas canvas(300, 200, "a <chart> & more");
  canvas.text(10, 20, "kernel<256, 128> & \"co\"");
  canvas.rect(0, 0, 10, 10, "#0072B2", "</title><script>alert(1)</script>");
  const std::string svg = canvas.str();
  CHECK(contains(svg, ">kernel&lt;256, 128&gt; &amp; &quot;co&quot;</text>"));
  CHECK(contains(svg, "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
  CHECK(contains(svg, "aria-label=\"a &lt;chart&gt; &amp; more\""));
  CHECK_FALSE(contains(svg, "<script"));
}

TEST_CASE("SvgCanvas writes one svg element with its namespace, size and viewBox", "[report]") {
  SvgCanvas canvas(960, 480.5, "chart");
  canvas.line(0, 0, 10, 10, {});
  canvas.marker(Marker::Diamond, 5, 5, 4, "#E69F00");
  const std::string svg = canvas.str();
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960.0\" height=\"480.5\" "
                  "viewBox=\"0 0 960.0 480.5\"",
                  0) == 0);
  CHECK(count(svg, "<svg") == 1);
  CHECK(count(svg, "</svg>") == 1);
  CHECK(count(svg, "<line ") == 1);
  CHECK(count(svg, "<polygon ") == 1);
}

TEST_CASE("place_labels keeps labels of nearby points apart and inside the plot", "[report]") {
  const PlotArea area{0, 0, 400, 300};
  // Five labels on one point, and one near the right edge.
  std::vector<LabelRequest> requests(5, LabelRequest{200, 150, 80, 14});
  requests.push_back({390, 100, 80, 14});
  const std::vector<PlacedLabel> placed = place_labels(requests, area);
  REQUIRE(placed.size() == requests.size());
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const double top = placed[i].baseline - 14 * 0.75;
    CHECK(placed[i].left >= area.left);
    CHECK(placed[i].left + requests[i].width <= area.right);
    CHECK(top >= area.top);
    for (std::size_t j = 0; j < i; ++j) {
      const double other_top = placed[j].baseline - 14 * 0.75;
      const bool apart = placed[i].left >= placed[j].left + requests[j].width ||
                         placed[j].left >= placed[i].left + requests[i].width ||
                         top >= other_top + 14 || other_top >= top + 14;
      CHECK(apart);
    }
  }
  CHECK_FALSE(placed[0].displaced);
  CHECK(placed[0].left == 206);       // right of its point
  CHECK(placed[1].left == 200 - 86);  // then left of it, same height
  CHECK(placed[2].displaced);
  CHECK(placed[5].left + 80 <= 384);  // no room on the right: left of the point
}

TEST_CASE("place_labels keeps labels off obstacles such as other markers", "[report]") {
  const PlotArea area{0, 0, 400, 300};
  const Box marker_right_of_point{210, 140, 220, 150};
  const auto placed = place_labels({{200, 150, 80, 14}}, area, {marker_right_of_point});
  REQUIRE(placed.size() == 1);
  CHECK(placed[0].left == 200 - 86);  // the right side is taken by the marker
}

TEST_CASE("palette_color cycles through distinct colours", "[report]") {
  CHECK(palette_color(0) == kWinnerColor);
  CHECK(palette_color(1) == kCublasColor);
  CHECK(palette_color(0) != palette_color(2));
  CHECK(palette_color(7) == palette_color(0));
}
