// A file a tool writes (an export, a report, a cubin, a CSV), made to appear whole or not at all:
// the text goes to a temporary file in the same folder, which commit() renames over the path. A
// tool that fails before then leaves the path as it was, absent or with its old contents, and
// removes the temporary file; a killed one can leave only the temporary ".NAME.tmp-XXXXXX".
#pragma once

#include <fstream>
#include <ostream>
#include <string>

namespace gemmtune {

class OutputFile {
 public:
  // Creates the temporary file (with the mode the path has, or would get). A path that exists
  // and is not a regular file (/dev/stdout, /dev/full, a pipe) is written directly: a rename
  // would replace the device. Throws BadInput when the file cannot be created.
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless committed; never throws
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return file_; }
  const std::string& path() const { return path_; }
  // Flushes and closes the file and moves it into place. Throws std::runtime_error ("PATH: write
  // failed...") when a write, the close or the rename failed; the path is then as it was.
  void commit();

 private:
  std::string path_;
  std::string temporary_;  // empty when writing directly
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace gemmtune
