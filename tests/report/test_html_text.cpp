#include <catch2/catch.hpp>

#include "html_text.hpp"

using namespace gemmtune::report;

TEST_CASE("escape_html replaces the five characters HTML gives meaning to", "[report]") {
  CHECK(escape_html(R"(<b class="x">Tom & Jerry's</b>)") ==
        "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;");
}

TEST_CASE("escape_html leaves other text, UTF-8 and newlines alone", "[report]") {
  CHECK(escape_html("") == "");
  CHECK(escape_html("gemmtune_sgemm_reg2d_nn_bm128") == "gemmtune_sgemm_reg2d_nn_bm128");
  CHECK(escape_html("4096\xC2\xB3 line\nnext") == "4096\xC2\xB3 line\nnext");
}

TEST_CASE("escape_html escapes an ampersand once, so entities in the input stay visible text",
          "[report]") {
  CHECK(escape_html("&lt;") == "&amp;lt;");
}

TEST_CASE("fixed formats with the given decimals", "[report]") {
  CHECK(fixed(2.7, 3) == "2.700");
  CHECK(fixed(1.005e3, 0) == "1005");
}

TEST_CASE("tick_label writes round values short, and extremes in exponent form", "[report]") {
  CHECK(tick_label(0) == "0");
  CHECK(tick_label(0.01) == "0.01");
  CHECK(tick_label(2.5) == "2.5");
  CHECK(tick_label(1000) == "1000");
  CHECK(tick_label(100000) == "100000");
  CHECK(tick_label(1e6) == "1e6");
  CHECK(tick_label(2e9) == "2e9");
  CHECK(tick_label(1e-4) == "1e-4");
  CHECK(tick_label(-0.5) == "-0.5");
}

TEST_CASE("significant keeps four digits of times from microseconds to seconds", "[report]") {
  CHECK(significant(2.9, 4) == "2.900");
  CHECK(significant(0.0192, 4) == "0.01920");
  CHECK(significant(23.1, 4) == "23.10");
  CHECK(significant(1234.5, 4) == "1234");   // never fewer than zero decimals
  CHECK(significant(9.9996, 4) == "10.00");  // rounding carries into the next decade
  CHECK(significant(0, 4) == "0.000");
}
