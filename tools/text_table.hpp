// The tools' one table: rows of text cells under a header, printed as Markdown pipes (so that
// results paste straight into bench/results/ and docs), as plain aligned columns (tunedb's
// listings) or as CSV.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gemmtune {

class TextTable {
 public:
  // A column under `header`, left-aligned unless it holds numbers (right-aligned in print_plain).
  struct Column {
    Column(const char* header_text, bool right = false) : header(header_text), right_aligned(right) {}
    std::string header;
    bool right_aligned;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  // | a | b |, each column as wide as its widest cell.
  void print_markdown(std::ostream& out) const;
  // Columns two spaces apart, each as wide as its widest cell, numbers right-aligned; no trailing
  // spaces.
  void print_plain(std::ostream& out) const;
  void print_csv(std::ostream& out) const;

 private:
  std::vector<std::size_t> widths() const;
  std::vector<std::string> headers() const;

  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line
// break (LF or CR).
std::string csv_field(const std::string& text);

}  // namespace gemmtune
