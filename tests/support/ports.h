// A TCP port on 127.0.0.1 that nothing listens on, for tests that need an address to be refused
// or a daemon to listen on a port picked in advance.
//
// Thread-safety: reentrant.
#ifndef SUDOKU_TESTS_SUPPORT_PORTS_H_
#define SUDOKU_TESTS_SUPPORT_PORTS_H_

#include <cstdint>

namespace sudoku::testing {

// A port the kernel picked for a socket bound to 127.0.0.1, closed again on return: free then,
// though another process may take it before the caller does.
uint16_t FreePort();

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_PORTS_H_
