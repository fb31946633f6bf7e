// RAII for a prepared statement (sqlite3_stmt*): typed binds, stepping, typed columns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct sqlite3_stmt;

namespace gemmtune::cache {

class Connection;

// Bytes bound as a BLOB (a distinct type, so that text never binds as a blob by accident).
struct BlobRef {
  const void* data;
  std::size_t size;
};

class Statement {
 public:
  Statement(const Connection& connection, std::string_view sql);

  // Binds to ?1, ?2, ... in order. An empty optional or std::nullopt binds NULL.
  template <class... Values>
  Statement& bind_all(const Values&... values) {
    int index = 1;
    (bind(index++, values), ...);
    return *this;
  }
  void bind(int index, int value);
  void bind(int index, std::int64_t value);
  void bind(int index, double value);
  void bind(int index, std::string_view text);
  void bind(int index, BlobRef blob);
  void bind(int index, std::nullopt_t);
  template <class T>
  void bind(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, *value);
    } else {
      bind(index, std::nullopt);
    }
  }

  // True when a row is ready to read, false when the statement has finished.
  bool step();
  // Steps to the end, for statements whose rows (if any) do not matter.
  void run();
  // Makes the statement ready to run again with new bindings.
  void reset();
  // For statements that give one value (a count, RETURNING id): steps, reads column 0 of the
  // first row, steps to the end. Throws Error when there is no row.
  template <class T>
  T single_value() {
    if (!step()) throw_no_row();
    T value = column<T>(0);
    run();
    return value;
  }

  // Column `index` (0-based) of the current row: std::int64_t, int, double, std::string,
  // std::vector<char> (a BLOB), or std::optional of one of those (NULL -> nullopt).
  template <class T>
  T column(int index) const {
    if constexpr (is_optional<T>::value) {
      if (is_null(index)) return std::nullopt;
      return column<typename T::value_type>(index);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      return column_int64(index);
    } else if constexpr (std::is_same_v<T, int>) {
      return static_cast<int>(column_int64(index));
    } else if constexpr (std::is_same_v<T, double>) {
      return column_double(index);
    } else if constexpr (std::is_same_v<T, std::string>) {
      return column_text(index);
    } else {
      static_assert(std::is_same_v<T, std::vector<char>>, "unsupported column type");
      return column_blob(index);
    }
  }
  bool is_null(int index) const;

 private:
  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};

  std::int64_t column_int64(int index) const;
  double column_double(int index) const;
  std::string column_text(int index) const;
  std::vector<char> column_blob(int index) const;
  void check_bind(int rc, int index) const;
  [[noreturn]] void throw_no_row() const;

  struct Finalize {
    void operator()(sqlite3_stmt* statement) const noexcept;
  };
  const Connection* connection_;
  std::unique_ptr<sqlite3_stmt, Finalize> statement_;
  std::string sql_;
};

}  // namespace gemmtune::cache
