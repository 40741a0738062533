#include "client/ordered_output.h"

#include <stdexcept>

#include "client/client_error.h"

namespace sudoku::client {

void OrderedOutput::Put(uint64_t sequence, std::string text) {
  if (sequence < next_ || held_.contains(sequence)) {
    throw std::logic_error("batch " + std::to_string(sequence) + " delivered twice");
  }
  if (sequence != next_) {
    held_.emplace(sequence, std::move(text));
    return;
  }
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
  ++next_;
  for (auto it = held_.begin(); it != held_.end() && it->first == next_; it = held_.erase(it)) {
    out_->write(it->second.data(), static_cast<std::streamsize>(it->second.size()));
    ++next_;
  }
  out_->flush();
  if (!*out_) throw ClientError("cannot write the results to standard output");
}

}  // namespace sudoku::client
