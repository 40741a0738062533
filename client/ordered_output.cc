#include "client/ordered_output.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

// Buffers kept for reuse: texts arrive one at a time, so a few cover the ones held out of order.
constexpr size_t kMaxSpareBuffers = 4;

}  // namespace

std::string OrderedOutput::TakeBuffer() {
  if (spare_.empty()) return {};
  std::string buffer = std::move(spare_.back());
  spare_.pop_back();
  return buffer;
}

void OrderedOutput::Put(uint64_t sequence, std::string text) {
  if (sequence < next_ || held_.contains(sequence)) {
    throw std::logic_error("batch " + std::to_string(sequence) + " delivered twice");
  }
  if (sequence != next_) {
    held_.emplace(sequence, std::move(text));
    return;
  }
  auto keep = [this](std::string&& written) {
    if (spare_.size() >= kMaxSpareBuffers) return;
    written.clear();
    spare_.push_back(std::move(written));
  };
  errno = 0;  // so that a failure below says why when the system said
  Write(text);
  keep(std::move(text));
  ++next_;
  for (auto it = held_.begin(); it != held_.end() && it->first == next_; it = held_.erase(it)) {
    Write(it->second);
    keep(std::move(it->second));
    ++next_;
  }
  out_->flush();
  if (!*out_) {
    const int error = errno;
    throw OutputError(std::string("cannot write the results to standard output") +
                      (error != 0 ? std::string(": ") + std::strerror(error) : ""));
  }
}

void OrderedOutput::Write(const std::string& text) {
  if (preallocation_ != nullptr) preallocation_->Reserve(text.size());
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace sudoku::client
