#include "tests/client/fake_daemon.h"

#include <poll.h>

#include <algorithm>

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <google/protobuf/unknown_field_set.h>

#include "proto/codec.h"
#include "proto/framing.h"
#include "solver/solver.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::testing {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

constexpr int kQuietMillis = 30;  // how long a held group waits for one more request

bool Readable(tcp::socket& socket, int millis) {
  pollfd fd{socket.native_handle(), POLLIN, 0};
  return ::poll(&fd, 1, millis) > 0;
}

}  // namespace

FakeDaemon::FakeDaemon() : FakeDaemon(Script()) {}

FakeDaemon::FakeDaemon(Script script)
    : script_(std::move(script)),
      acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  acceptor_thread_ = std::thread([this] { Accept(); });
}

FakeDaemon::~FakeDaemon() {
  stopping_ = true;
  // Wake the blocking accept() with a connection of our own.
  boost::system::error_code ignored;
  tcp::socket waker(io_);
  waker.connect(acceptor_.local_endpoint(), ignored);
  acceptor_thread_.join();
  for (auto& thread : threads_) thread.join();
}

std::string FakeDaemon::address() const {
  return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
}

std::vector<size_t> FakeDaemon::batch_sizes() const {
  std::lock_guard lock(mutex_);
  return batch_sizes_;
}

void FakeDaemon::Accept() {
  while (true) {
    tcp::socket socket(io_);
    boost::system::error_code error;
    acceptor_.accept(socket, error);
    if (stopping_) return;
    if (error) continue;
    const size_t number = connections_++;
    threads_.emplace_back(
        [this, number, s = std::move(socket)]() mutable { Serve(std::move(s), number); });
  }
}

wire::SolveResponse FakeDaemon::Answer(const wire::SolveRequest& request) {
  // Validation is the solver library's puzzle layer (its messages are the product's); the
  // solving is the tests' own checker, so that these tests depend on the client alone.
  wire::SolveResponse response;
  response.set_batch_id(request.batch_id());
  const int limit = std::max<int>(1, static_cast<int>(request.solution_limit()));
  const bool packed_in = !request.packed_puzzles().empty();
  for (int i = 0; i < wire::PuzzleCount(request); ++i) {
    std::string puzzle;
    Grid grid;
    PuzzleError error;
    if (packed_in) {
      const auto packed = PackedAt(request.packed_puzzles(), static_cast<size_t>(i));
      error = ParsePackedPuzzle(packed, &grid);
      puzzle.resize(kCells);
      UnpackDigits(packed, puzzle.data());
    } else {
      puzzle = request.puzzles(i);
      error = ParsePuzzle(puzzle, &grid);
    }
    if (error) {
      response.add_verdicts(wire::INVALID);
      wire::PuzzleError* reply = response.add_errors();
      reply->set_index(static_cast<uint32_t>(i));
      reply->set_position(error.kind == PuzzleError::Kind::kLength ? 0 : error.position + 1);
      reply->set_message(Describe(error));
      response.add_solution_counts(0);
      response.add_guesses(0);
      continue;
    }
    std::string solution;
    const int solutions = CountSolutions(puzzle, limit, &solution);
    if (solutions == 0) {
      response.add_verdicts(wire::UNSOLVABLE);
    } else {
      response.add_verdicts(solutions >= 2 ? wire::MULTIPLE : wire::SOLVED);
      if (request.pack_solutions()) {
        PackedGrid packed;
        PackDigits(std::span<const char, kCells>(solution.data(), kCells), packed);
        response.mutable_packed_solutions()->append(packed.begin(), packed.end());
      } else {
        response.mutable_solutions()->append(solution);
      }
    }
    response.add_solution_counts(static_cast<uint32_t>(solutions));
    response.add_guesses(0);
  }
  return response;
}

void FakeDaemon::Serve(tcp::socket socket, size_t number) {
  Script script = script_;
  if (script.misbehaving_connections >= 0 &&
      number >= static_cast<size_t>(script.misbehaving_connections)) {
    script.fault_at = script.close_after = script.cut_at = -1;
    script.reset = false;
  }
  if (script.reset || dead_) {
    // A close with a zero linger time sends RST instead of FIN.
    boost::system::error_code ignored;
    socket.set_option(asio::socket_base::linger(true, 0), ignored);
    socket.close(ignored);
    return;
  }
  std::string in;
  std::vector<wire::Request> held;
  int read = 0;
  int sent = 0;
  boost::system::error_code error;
  auto send = [&socket, &error](const wire::Response& response, bool half) {
    std::string frame;
    wire::AppendFrame(response, &frame);
    asio::write(socket, asio::buffer(frame.data(), half ? frame.size() / 2 : frame.size()), error);
  };
  // False once the script hung up.
  auto flush = [&] {
    for (auto it = held.rbegin(); it != held.rend(); ++it) {
      wire::Response response;
      *response.mutable_solve() = Answer(it->solve());
      if (script.tamper) script.tamper(response.mutable_solve());
      if (sent++ == script.cut_at) {
        send(response, true);
        if (script.dies_at_cut) dead_ = true;
        return false;
      }
      answered_puzzles_ += static_cast<size_t>(wire::PuzzleCount(it->solve()));
      if (script.draining_claim >= 0 && sent == 1) {
        wire::Response draining;
        draining.mutable_draining()->set_last_frame(static_cast<uint64_t>(script.draining_claim));
        send(draining, false);
      }
      if (script.unknown_kind_first) {
        wire::Response unknown;
        unknown.GetReflection()->MutableUnknownFields(&unknown)->AddVarint(99, 1);
        send(unknown, false);
      }
      send(response, false);
    }
    held.clear();
    return true;
  };

  while (!stopping_) {
    // Take every whole frame already buffered.
    while (true) {
      const wire::FrameHeader header = wire::DecodeFrameHeader(in, wire::kDefaultMaxFrameBytes);
      if (header.status != wire::FrameHeader::Status::kComplete ||
          in.size() < header.prefix_bytes + header.body_bytes) {
        break;
      }
      wire::Request request;
      wire::ParseFrameBody(std::string_view(in).substr(header.prefix_bytes, header.body_bytes),
                           &request);
      in.erase(0, header.prefix_bytes + header.body_bytes);
      ++requests_;
      last_limit_ = request.solve().solution_limit();
      {
        std::lock_guard lock(mutex_);
        batch_sizes_.push_back(static_cast<size_t>(wire::PuzzleCount(request.solve())));
      }
      if (read == script.fault_at) {
        wire::Response response;
        *response.mutable_fault() = script.fault;
        send(response, false);
        return;
      }
      ++read;
      if (script.close_after >= 0) {
        if (read == script.close_after) return;
        continue;  // never answers
      }
      held.push_back(std::move(request));
      if (held.size() >= script.hold && !flush()) return;
    }
    if (!held.empty() && !Readable(socket, kQuietMillis) && !flush()) return;
    char chunk[65536];
    const size_t n = socket.read_some(asio::buffer(chunk), error);
    if (error) return;  // the client hung up
    in.append(chunk, n);
  }
}

}  // namespace sudoku::testing
