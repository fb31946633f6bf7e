// A plain-text table with aligned columns, printed as Markdown pipes so that results paste
// straight into bench/results/ and docs, and as CSV.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gemmtune {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  void print_markdown(std::ostream& out) const;
  void print_csv(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// printf-style "%.3f" formatting for table cells.
std::string format_fixed(double value, int decimals);

}  // namespace gemmtune
