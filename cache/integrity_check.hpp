// Whether a database file is damaged, decided before anything is read from it or written to it.
// SQLite notices a damaged page only when a query reaches it: without this check a tuner writes
// into a file whose other pages are garbage, and a reader answers from what it could read.
#pragma once

#include <cstdint>

namespace gemmtune::cache {

class Connection;

// Up to this size the whole file is checked: PRAGMA quick_check of every page took 0.25 s for
// 1 GiB of cubins and 0.4 s for 200 MB of small rows here (warm page cache). A larger file is
// nearly all cubins: there every table but `binaries` is checked, so the time is that of the
// measurements and winners, whatever the number of cubins (a damaged cubin page is still found
// by SQLite when that cubin is read).
inline constexpr std::int64_t kWholeFileCheckBytes = std::int64_t{1} << 30;

// Throws Error (code SQLITE_CORRUPT) when SQLite's quick_check finds damage: the message names
// the file, SQLite's first findings, that the file was left unchanged and how to recover what is
// readable. Reads only; never writes. `whole_file_check_bytes` is for tests of the larger case.
void refuse_if_damaged(const Connection& connection,
                       std::int64_t whole_file_check_bytes = kWholeFileCheckBytes);

}  // namespace gemmtune::cache
