// Number flags of the client's commands, with the exact usage errors they give.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_CLIENT_FLAGS_H_
#define SUDOKU_CLIENT_FLAGS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sudoku::client {

// `text` in single quotes, as the client's messages show what the user typed: 'x'.
std::string Quoted(std::string_view text);

// A whole number from 1 to `max`, or ClientError: "--batch expects a whole number from 1 to
// 100000, got '0'".
uint64_t ParseCount(const char* flag, const std::string& text, uint64_t max);

// A decimal number above 0 and at most `max`, or ClientError: "--duration expects a number of
// seconds above 0 (at most 86400), got 'x'", where `what` is "a number of seconds".
double ParsePositive(const char* flag, const std::string& text, const char* what, double max);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_FLAGS_H_
