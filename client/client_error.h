// The one exception type of the client: a message for the user, printed as
// "sudoku-client: <message>" before exiting with status 2.
//
// Thread-safety: plain data.
#ifndef SUDOKU_CLIENT_CLIENT_ERROR_H_
#define SUDOKU_CLIENT_CLIENT_ERROR_H_

#include <stdexcept>
#include <string>

namespace sudoku::client {

// Usage, connection, input and protocol errors: anything that stops the run. A puzzle that is
// not solved is never one of these; it is a result.
class ClientError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A connection that broke (refused, reset, closed early, or a fault about the daemon's state
// rather than about the request): the batches it carried can be sent again on another one.
class ConnectionLost : public ClientError {
 public:
  using ClientError::ClientError;
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_CLIENT_ERROR_H_
