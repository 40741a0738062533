#include "client/progress.h"

#include <sys/ioctl.h>

#include <cmath>

#include <fmt/format.h>

namespace sudoku::client {
namespace {

constexpr int kBarCells = 20;

std::string Duration(double seconds) {
  const auto total = static_cast<uint64_t>(std::llround(seconds));
  if (total >= 3600) {
    return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
  }
  return fmt::format("{}:{:02}", total / 60, total % 60);
}

}  // namespace

bool WantProgress(ProgressMode mode, bool stderr_is_tty) {
  switch (mode) {
    case ProgressMode::kOn:
      return true;
    case ProgressMode::kOff:
      return false;
    case ProgressMode::kAuto:
      break;
  }
  return stderr_is_tty;
}

std::string RenderProgress(const ProgressSnapshot& snapshot) {
  const double rate =
      snapshot.seconds > 0 ? static_cast<double>(snapshot.done) / snapshot.seconds : 0;
  const bool known = snapshot.expected > 0 && snapshot.expected >= snapshot.done;
  std::string line;
  if (known) {
    const double fraction =
        static_cast<double>(snapshot.done) / static_cast<double>(snapshot.expected);
    const int filled = static_cast<int>(fraction * kBarCells);
    line += '[';
    line.append(static_cast<size_t>(filled), '#');
    line.append(static_cast<size_t>(kBarCells - filled), '.');
    line += "] ";
    line += fmt::format("{:3}%", static_cast<int>(fraction * 100));
    line += "  " + std::to_string(snapshot.done) + "/" + std::to_string(snapshot.expected);
  } else {
    line += std::to_string(snapshot.done);
  }
  line += " puzzles  " + std::to_string(static_cast<uint64_t>(std::llround(rate))) + " puzzles/s";
  if (known && rate > 0) {
    line += "  ETA " + Duration(static_cast<double>(snapshot.expected - snapshot.done) / rate);
  }
  return line;
}

void StatusLine::Draw(std::string line, const void* owner) {
  if (width_ > 1 && line.size() >= width_) line.resize(width_ - 1);
  // Pad over a longer previous line instead of clearing first: no flicker.
  *err_ << '\r' << line;
  if (line.size() < drawn_) *err_ << std::string(drawn_ - line.size(), ' ');
  *err_ << std::flush;
  drawn_ = line.size();
  owner_ = owner;
}

void StatusLine::Clear(const void* owner) {
  if (owner_ == owner) Clear();
}

void StatusLine::Clear() {
  if (drawn_ > 0) *err_ << '\r' << std::string(drawn_, ' ') << '\r' << std::flush;
  drawn_ = 0;
  owner_ = nullptr;
}

size_t TerminalWidth(int fd) {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

void ProgressMeter::Update(uint64_t done, uint64_t expected, Clock::time_point now) {
  if (line_->owner() == this && now - last_ < interval_) return;
  last_ = now;
  const std::chrono::duration<double> seconds = now - start_;
  line_->Draw(RenderProgress({done, expected, seconds.count()}), this);
}

void ProgressMeter::Finish() { line_->Clear(this); }

}  // namespace sudoku::client
