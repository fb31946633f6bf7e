// The spread of one problem's candidates: each ok measurement's time against a configuration
// parameter, coloured by kernel family.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache_records.hpp"

namespace gemmtune::report {

// The value of `parameter` in a configuration's params_json: one name ("BM") or a product of
// names ("BM*BN"). nullopt when a name is missing or not a number, or the JSON is malformed.
std::optional<double> parameter_value(std::string_view params_json, std::string_view parameter);

// "BM*BN" when an ok candidate has both, else the first numeric parameter of the first ok
// candidate that has one, else "" (nothing to plot against).
std::string default_parameter(const std::vector<cache::MeasurementRow>& rows);

// The numeric parameters of the first ok candidate, in its family's order: "BM, BN, BK, TM, TN,
// align"; "" when there is no ok candidate.
std::string parameter_names(const std::vector<cache::MeasurementRow>& rows);

struct ScatterChart {
  std::string svg;                    // empty when no ok candidate has the parameter
  std::size_t plotted = 0;            // ok measurements drawn
  std::size_t without_parameter = 0;  // ok measurements left out: they lack the parameter
};

// x: the parameter (log scale when its values span a factor of 8 or more, ticks at the values
// tried when they are few), y: median time in ms (log scale when it spans a factor of 10).
// Points of one parameter value that would overlap move sideways (a beeswarm).
// The fastest is ringed and labelled; cublas_ms, when known, is drawn as a dashed line.
ScatterChart candidate_scatter(const std::vector<cache::MeasurementRow>& rows,
                               std::string_view parameter, std::optional<double> cublas_ms);

}  // namespace gemmtune::report
