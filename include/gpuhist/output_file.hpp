// Writing a file so that it is complete or absent. The bytes go to a
// temporary file beside the target, which takes the target's name only once
// it is complete; a failed or interrupted write leaves the target as it was.
// Part of the gpuhist::io library.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>

namespace gpuhist {

// Whether OutputFile writes `target` in place: it exists and is neither a
// regular file nor a folder (a terminal, /dev/null, a pipe).
[[nodiscard]] bool written_in_place(const std::filesystem::path& target);

class OutputFile {
 public:
  // Prepares to write `target`: makes the temporary file
  // (".NAME-XXXXXX.EXT" in the target's folder, so it keeps the extension
  // that picks a format). A target that exists and is not a regular file
  // (a terminal, /dev/null, a pipe) is written in place; a link to a file is
  // written through, the link kept. A file that is replaced keeps its
  // permissions (not its other hard links). Throws Error(Output)
  // naming the target and the cause when the folder does not take the file.
  explicit OutputFile(const std::filesystem::path& target);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~OutputFile();

  // Where the bytes go: the temporary file, or the target written in place.
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] const std::filesystem::path& target() const noexcept { return target_; }

  // Writes all of `bytes` to path(), from its start, and closes it; throws
  // Error(Output) naming the target and the cause (a full disk, an I/O error).
  void write(std::span<const std::byte> bytes);

  // Gives the written file the target's name (replacing what was there).
  // Throws Error(Output) naming the target and the cause; the temporary file
  // is removed then.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path replaced_;  // the file a target that is a link names
  std::filesystem::path path_;
  int slot_ = -1;  // in the table of temporary files removed on a signal
  bool in_place_ = false;
  bool committed_ = false;
};

// Throws Error(Output) "TARGET: cannot write: CAUSE".
[[noreturn]] void output_failed(const std::filesystem::path& target, const std::string& cause);

// Removes every temporary file of an OutputFile not yet committed. Only
// async-signal-safe calls: made from a SIGINT or SIGTERM handler, so that an
// interrupted run leaves nothing half-written.
void remove_unfinished_outputs() noexcept;

// True when `a` and `b` both exist and are the same file (also through links).
[[nodiscard]] bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace gpuhist
