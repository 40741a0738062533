// What the client's unit tests check error paths with: the message of the ClientError an action
// throws, so that each test compares the exact text.
#ifndef SUDOKU_TESTS_CLIENT_CLIENT_ERROR_OF_H_
#define SUDOKU_TESTS_CLIENT_CLIENT_ERROR_OF_H_

#include <functional>
#include <string>

#include "client/client_error.h"

namespace sudoku::client {

// The message of the ClientError `action` throws, or "no error".
inline std::string ClientErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const ClientError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace sudoku::client

#endif  // SUDOKU_TESTS_CLIENT_CLIENT_ERROR_OF_H_
