#include "client/output_preallocation.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace sudoku::client {

OutputPreallocation::OutputPreallocation(int fd) {
  if (fd < 0) return;
  struct stat status;
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) return;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_APPEND) != 0 || (flags & O_ACCMODE) == O_RDONLY) return;
  // A file in memory has no write-back to spare, and its pages would be allocated (and zeroed)
  // ahead for nothing.
  struct statfs file_system;
  if (::fstatfs(fd, &file_system) != 0 || file_system.f_type == TMPFS_MAGIC) return;
  const off_t offset = ::lseek(fd, 0, SEEK_CUR);
  if (offset < 0) return;
  fd_ = fd;
  active_ = true;
  start_ = offset_ = allocated_ = static_cast<uint64_t>(offset);
}

OutputPreallocation::~OutputPreallocation() { Release(); }

void OutputPreallocation::Reserve(size_t bytes) {
  if (!active_) return;
  offset_ += bytes;
  if (offset_ <= allocated_) return;
  const uint64_t ahead = std::clamp(offset_ - start_, kMinAhead, kMaxAhead);
  const uint64_t end = offset_ + ahead;
  const int caller_errno = errno;  // the output's own errors are told by the writes' errno
  if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(allocated_),
                  static_cast<off_t>(end - allocated_)) != 0) {
    errno = caller_errno;
    active_ = false;  // whatever the reason: the writes go on as they would without
    return;
  }
  allocated_ = end;
}

void OutputPreallocation::Release() {
  active_ = false;
  if (allocated_ == start_) return;
  allocated_ = start_;  // given back once
  // Truncating to the size the file has frees the blocks past its end and changes nothing else.
  // On failure they stay allocated, as after a run that was killed: the results are whole
  // either way.
  struct stat status;
  [[maybe_unused]] const bool trimmed =
      ::fstat(fd_, &status) == 0 && ::ftruncate(fd_, status.st_size) == 0;
}

}  // namespace sudoku::client
