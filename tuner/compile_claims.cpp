#include "compile_claims.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace gemmtune::tuner {
namespace {

// FNV-1a over the key's fields, into the range a lock may start in (off_t is 63 bits).
off_t claim_byte(const cache::BinaryKey& key) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const std::string* field : {&key.kernel_name, &key.source_hash, &key.compile_options, &key.arch, &key.nvrtc_version}) {
    for (const unsigned char c : *field) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // a separator no field contains
  }
  return static_cast<off_t>(hash >> 2);
}

bool same_file(int fd, const std::string& path) {
  struct stat opened{}, named{};
  return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
         opened.st_ino == named.st_ino;
}

// Sets (F_WRLCK) or drops (F_UNLCK) an open-file-description lock on [start, start + length),
// length 0 meaning to the end of any file; false when another holds a conflicting one.
bool ofd_lock(int fd, short type, off_t start, off_t length) {
  struct flock lock{};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = start;
  lock.l_len = length;
  while (::fcntl(fd, F_OFD_SETLK, &lock) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

}  // namespace

CompileClaims::CompileClaims(const std::string& db_path) {
  if (db_path == ":memory:") return;
  path_ = db_path + "-claims";
  reopen();
}

CompileClaims::~CompileClaims() {
  if (fd_ < 0) return;
  // A lock on the whole file succeeds only when no other run holds a claim in it.
  if (ofd_lock(fd_, F_WRLCK, 0, 0) && same_file(fd_, path_)) ::unlink(path_.c_str());
  ::close(fd_);
}

void CompileClaims::reopen() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
}

bool CompileClaims::lock(const cache::BinaryKey& key, short type) {
  if (fd_ < 0) return true;
  return ofd_lock(fd_, type, claim_byte(key), 1);
}

bool CompileClaims::try_claim(const cache::BinaryKey& key) {
  // A run that finished may have removed the file between this run's open and now: a claim in
  // a removed file reaches no one, so it is taken again in the file the path names.
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (!lock(key, F_WRLCK)) return false;
    if (fd_ < 0 || same_file(fd_, path_)) return true;
    reopen();
  }
  return true;  // the file keeps vanishing: compile as if alone
}

void CompileClaims::release(const cache::BinaryKey& key) { lock(key, F_UNLCK); }

}  // namespace gemmtune::tuner
