#include "text_table.hpp"

#include <algorithm>

namespace gemmtune {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::string> TextTable::headers() const {
  std::vector<std::string> texts;
  for (const Column& column : columns_) texts.push_back(column.header);
  return texts;
}

std::vector<std::size_t> TextTable::widths() const {
  std::vector<std::size_t> widths;
  for (const Column& column : columns_) widths.push_back(column.header.size());
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  return widths;
}

void TextTable::print_markdown(std::ostream& out) const {
  std::vector<std::size_t> width = widths();
  for (std::size_t& w : width) w = std::max<std::size_t>(w, 3);  // "---" at least
  auto print_row = [&](const std::vector<std::string>& row) {
    out << '|';
    for (std::size_t i = 0; i < width.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      out << ' ' << cell << std::string(width[i] - cell.size(), ' ') << " |";
    }
    out << '\n';
  };
  print_row(headers());
  out << '|';
  for (std::size_t w : width) out << std::string(w + 2, '-') << '|';
  out << '\n';
  for (const auto& row : rows_) print_row(row);
}

void TextTable::print_plain(std::ostream& out) const {
  const std::vector<std::size_t> width = widths();
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size() && i < width.size(); ++i) {
      const std::string padding(width[i] - cells[i].size(), ' ');
      line += i == 0 ? "" : "  ";
      line += columns_[i].right_aligned ? padding + cells[i] : cells[i] + padding;
    }
    out << line.substr(0, line.find_last_not_of(' ') + 1) << '\n';
  };
  print_row(headers());
  for (const auto& row : rows_) print_row(row);
}

void TextTable::print_csv(std::ostream& out) const {
  auto print_row = [&out](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << csv_field(row[i]);
    out << '\n';
  };
  print_row(headers());
  for (const auto& row : rows_) print_row(row);
}

}  // namespace gemmtune
