// What every fuzz target shares: the libFuzzer entry point's signature and a check that fails
// loudly. A failed check aborts, which libFuzzer reports as a crash and saves the input, and
// which fails the replay program in the default build.
//
// Thread-safety: stateless; fuzz targets run one input at a time.
#ifndef SUDOKU_TESTS_FUZZ_FUZZ_CHECK_H_
#define SUDOKU_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define FUZZ_CHECK(condition)                                                        \
  do {                                                                               \
    if (!(condition)) {                                                              \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

#endif  // SUDOKU_TESTS_FUZZ_FUZZ_CHECK_H_
