// Claims that let concurrent dry runs on one database share the compiling: a run claims a
// candidate before it compiles it, and a run that finds it claimed leaves it to the claimant and
// comes back later for the stored cubin (two dry runs on one new database compiled 221 cubins
// between them to store 120).
//
// A claim is an advisory lock on one byte, chosen by a hash of the cubin's key, of an empty file
// beside the database, DB-claims (fcntl open-file-description locks, F_OFD_SETLK). The kernel
// drops a run's locks when it ends, however it ends, so a killed run leaves no stale claim, and
// the database's schema does not change (older gemmtune builds still open it). The last run to
// finish removes the file. Claims only save work: the binaries table's key keeps each cubin once
// whatever happens, so a lost claim (two keys on one byte, a file removed as a run starts) can at
// worst compile a candidate twice. All writers of a WAL database run on one host, so the locks
// reach all of them.
#pragma once

#include <string>

#include "cache_records.hpp"

namespace gemmtune::tuner {

class CompileClaims {
 public:
  // For the database at `db_path`. Where DB-claims cannot be opened (":memory:", a folder this
  // user may not write), every claim succeeds: the run compiles as if it were alone.
  explicit CompileClaims(const std::string& db_path);
  // Drops this run's claims and removes DB-claims unless another run holds one. Never throws.
  ~CompileClaims();
  CompileClaims(const CompileClaims&) = delete;
  CompileClaims& operator=(const CompileClaims&) = delete;

  // Claims `key` without waiting: false when another run holds it.
  bool try_claim(const cache::BinaryKey& key);
  void release(const cache::BinaryKey& key);

 private:
  bool lock(const cache::BinaryKey& key, short type);
  void reopen();

  std::string path_;
  int fd_ = -1;
};

}  // namespace gemmtune::tuner
