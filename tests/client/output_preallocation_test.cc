#include "client/output_preallocation.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "client/ordered_output.h"

namespace sudoku::client {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/output_preallocation_" + std::to_string(::getpid()) + "_" + name;
}

// A file of the test's, open for writing, closed and removed at the end.
class TempFile {
 public:
  explicit TempFile(const std::string& name, int flags = O_WRONLY | O_CREAT | O_TRUNC)
      : path_(TempPath(name)), fd_(::open(path_.c_str(), flags, 0644)) {}
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Bytes allocated to the file on disk, and its size.
  uint64_t allocated() const { return Stat().st_blocks * uint64_t{512}; }
  uint64_t size() const { return static_cast<uint64_t>(Stat().st_size); }
  void Write(const std::string& text) const {
    ASSERT_EQ(::write(fd_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

 private:
  struct stat Stat() const {
    struct stat status {};
    ::fstat(fd_, &status);
    return status;
  }
  std::string path_;
  int fd_;
};

// Skips the test where the temporary directory's file system cannot allocate ahead.
#define SKIP_WITHOUT_FALLOCATE(preallocation)                                                  \
  if (!(preallocation).active()) {                                                            \
    GTEST_SKIP() << "the file system of " << ::testing::TempDir()                             \
                 << " does not allocate ahead of the end of a file (fallocate KEEP_SIZE)";  \
  }

TEST(OutputPreallocation, AllocatesAheadOfTheWritesAndGivesTheRestBack) {
  TempFile file("ahead");
  ASSERT_GE(file.fd(), 0);
  OutputPreallocation preallocation(file.fd());
  ASSERT_TRUE(preallocation.active());
  const std::string text(100000, '5');
  preallocation.Reserve(text.size());
  SKIP_WITHOUT_FALLOCATE(preallocation);
  // Ahead by at least kMinAhead, though nothing is written yet: the size has not moved.
  EXPECT_GE(file.allocated(), text.size() + OutputPreallocation::kMinAhead);
  EXPECT_EQ(file.size(), 0u);
  file.Write(text);
  preallocation.Release();
  EXPECT_FALSE(preallocation.active());
  EXPECT_EQ(file.size(), text.size());
  EXPECT_LT(file.allocated(), text.size() + 64 * 1024);  // the blocks of the text, no more
  std::ifstream in(file.path(), std::ios::binary);
  std::ostringstream back;
  back << in.rdbuf();
  EXPECT_EQ(back.str(), text);
}

TEST(OutputPreallocation, AheadGrowsWithTheOutputUpToItsBound) {
  TempFile file("grows");
  ASSERT_GE(file.fd(), 0);
  OutputPreallocation preallocation(file.fd());
  preallocation.Reserve(1);
  SKIP_WITHOUT_FALLOCATE(preallocation);
  const uint64_t first = file.allocated();
  EXPECT_GE(first, 1 + OutputPreallocation::kMinAhead);
  EXPECT_LT(first, 2 * OutputPreallocation::kMinAhead);
  // Reserving within what is allocated allocates nothing more.
  preallocation.Reserve(OutputPreallocation::kMinAhead - 1);
  EXPECT_EQ(file.allocated(), first);
  // Past it, ahead by what was written so far (4 MiB)...
  preallocation.Reserve(3 * kMiB);
  EXPECT_GE(file.allocated(), 8 * kMiB);
  EXPECT_LT(file.allocated(), 9 * kMiB);
  // ...but never by more than kMaxAhead.
  preallocation.Reserve(28 * kMiB);
  EXPECT_GE(file.allocated(), 32 * kMiB + OutputPreallocation::kMaxAhead);
  EXPECT_LT(file.allocated(), 33 * kMiB + OutputPreallocation::kMaxAhead);
  // Nothing was written: everything goes back, and the file stays empty.
  preallocation.Release();
  EXPECT_EQ(file.size(), 0u);
  EXPECT_EQ(file.allocated(), 0u);
}

TEST(OutputPreallocation, DoesNothingAfterRelease) {
  TempFile file("released");
  ASSERT_GE(file.fd(), 0);
  OutputPreallocation preallocation(file.fd());
  preallocation.Release();
  preallocation.Reserve(kMiB);
  EXPECT_FALSE(preallocation.active());
  EXPECT_EQ(file.allocated(), 0u);
}

TEST(OutputPreallocation, StartsAtTheDescriptorsOffset) {
  TempFile file("offset");
  ASSERT_GE(file.fd(), 0);
  file.Write(std::string(8 * kMiB, '1'));
  OutputPreallocation preallocation(file.fd());
  preallocation.Reserve(100);
  SKIP_WITHOUT_FALLOCATE(preallocation);
  // From the offset on, by the bytes written since (too few: kMinAhead).
  EXPECT_GE(file.allocated(), 8 * kMiB + 100 + OutputPreallocation::kMinAhead);
  EXPECT_LT(file.allocated(), 10 * kMiB);
}

TEST(OutputPreallocation, LeavesAllButAFileOpenForWritingAlone) {
  EXPECT_FALSE(OutputPreallocation(-1).active());
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  EXPECT_FALSE(OutputPreallocation(pipe_ends[1]).active());
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  const int null = ::open("/dev/null", O_WRONLY);
  ASSERT_GE(null, 0);
  EXPECT_FALSE(OutputPreallocation(null).active());
  ::close(null);
  // Another process may append to a file open for appending.
  TempFile appended("append", O_WRONLY | O_CREAT | O_APPEND);
  ASSERT_GE(appended.fd(), 0);
  OutputPreallocation append(appended.fd());
  EXPECT_FALSE(append.active());
  append.Reserve(kMiB);
  EXPECT_EQ(appended.allocated(), 0u);
  TempFile read_only("read_only", O_RDONLY | O_CREAT);
  ASSERT_GE(read_only.fd(), 0);
  EXPECT_FALSE(OutputPreallocation(read_only.fd()).active());
}

TEST(OutputPreallocation, LeavesAFileInMemoryAlone) {
  struct statfs shm {};
  if (::statfs("/dev/shm", &shm) != 0 || shm.f_type != TMPFS_MAGIC) {
    GTEST_SKIP() << "no tmpfs at /dev/shm";
  }
  const std::string path = "/dev/shm/output_preallocation_" + std::to_string(::getpid());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  OutputPreallocation preallocation(fd);
  EXPECT_FALSE(preallocation.active());
  preallocation.Reserve(kMiB);
  struct stat status {};
  ASSERT_EQ(::fstat(fd, &status), 0);
  EXPECT_EQ(status.st_blocks, 0);
  ::close(fd);
  ::unlink(path.c_str());
}

TEST(OutputPreallocation, OrderedOutputReservesBeforeEachWrite) {
  TempFile file("ordered");
  ASSERT_GE(file.fd(), 0);
  OutputPreallocation preallocation(file.fd());
  std::ofstream stream(file.path(), std::ios::binary);
  OrderedOutput output(&stream, &preallocation);
  const std::string text(300000, '7');
  output.Put(1, text);  // held: not written, nothing reserved
  EXPECT_EQ(file.allocated(), 0u);
  output.Put(0, text);
  SKIP_WITHOUT_FALLOCATE(preallocation);
  // The first text's write reserved it and kMinAhead more, which the second one's fits in.
  EXPECT_GE(file.allocated(), text.size() + OutputPreallocation::kMinAhead);
  EXPECT_EQ(file.size(), 2 * text.size());
  preallocation.Release();
  EXPECT_EQ(file.size(), 2 * text.size());
  EXPECT_LT(file.allocated(), 2 * text.size() + 64 * 1024);
}

}  // namespace
}  // namespace sudoku::client
