#include "output_file.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "exit_codes.hpp"

namespace gemmtune {
namespace {

namespace fs = std::filesystem;

// The mode a new file gets from open(2) with 0666, or the existing file's own.
mode_t mode_for(const std::string& path) {
  struct stat existing{};
  if (::stat(path.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  std::error_code error;
  const fs::file_status status = fs::status(path_, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    if (fs::is_directory(status)) throw BadInput(path_ + ": is a directory, not a file to write");
    file_.open(path_, std::ios::binary | std::ios::trunc);
    if (!file_) throw BadInput(path_ + ": cannot open for writing");
    return;
  }
  const fs::path target(path_);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string pattern = (folder / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw BadInput(path_ + ": cannot open for writing (" + std::strerror(errno) + ")");
  const bool moded = ::fchmod(fd, mode_for(path_)) == 0;
  ::close(fd);
  temporary_ = pattern;
  if (moded) file_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!file_) {
    std::remove(temporary_.c_str());
    throw BadInput(path_ + ": cannot open for writing");
  }
}

OutputFile::~OutputFile() {
  if (!committed_ && !temporary_.empty()) {
    file_.close();
    std::remove(temporary_.c_str());
  }
}

void OutputFile::commit() {
  file_.close();  // flushes; failbit on a failed write, now or before
  if (!file_) throw std::runtime_error(path_ + ": write failed");
  if (!temporary_.empty() && std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error(path_ + ": write failed: cannot rename " + temporary_ + " to it: " +
                             std::strerror(errno));
  }
  committed_ = true;
}

}  // namespace gemmtune
