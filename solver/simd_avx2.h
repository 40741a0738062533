// simd.h's U32x16 for AVX2: two __m256i (blocks 0-1, blocks 2-3). U32x4 is the SSE4.1 block
// (simd_block_sse41.h).
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_AVX2_H_
#define SUDOKU_SOLVER_SIMD_AVX2_H_

#ifndef __AVX2__
#error "simd_avx2.h needs -mavx2 (the flags come from solver/isa.def)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "solver/simd_block_sse41.h"

// Boards::Map runs a step on whole U32x16s: 16 ymm registers hold a step's working set of them.
#define SUDOKU_SIMD_MAP_BY_BLOCK 0
// Boards keeps the ninth digit in a block of its own.
#define SUDOKU_SIMD_SPARE_LANES 0

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

// clang-format off
class U32x16 {
 public:
  U32x16() = default;


  static U32x16 Zero() {
    U32x16 r;
    r.v_[0] = r.v_[1] = _mm256_setzero_si256();
    return r;
  }

  // The same four lanes in every block.
  static U32x16 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x16 r;
    r.v_[0] = r.v_[1] = _mm256_setr_epi32(int(l0), int(l1), int(l2), int(l3),
                                          int(l0), int(l1), int(l2), int(l3));
    return r;
  }

  // Lanes 0-2 of every block = `band_value`, lane 3 = 0: a constant over the three bands.
  static U32x16 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  // As Bands(), in block 0 only; blocks 1-3 zero.
  static U32x16 FirstBlockBands(uint32_t band_value) {
    U32x16 r;
    r.v_[0] = _mm256_setr_epi32(int(band_value), int(band_value), int(band_value), 0, 0, 0, 0, 0);
    r.v_[1] = _mm256_setzero_si256();
    return r;
  }

  static U32x16 Load(const uint32_t* p) {
    U32x16 r;
    r.v_[0] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    r.v_[1] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8));
    return r;
  }

  void Store(uint32_t* p) const {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v_[0]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 8), v_[1]);
  }

// One 256-bit operation per half.
#define SUDOKU_AVX2_BINARY(name, avx2)                                      \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    r.v_[0] = avx2(a.v_[0], b.v_[0]);                                       \
    r.v_[1] = avx2(a.v_[1], b.v_[1]);                                       \
    return r;                                                               \
  }
// The intrinsic's andnot is (~first & second); ours reads "a without b".
#define SUDOKU_ANDNOT256(x, y) _mm256_andnot_si256(y, x)

  SUDOKU_AVX2_BINARY(operator&, _mm256_and_si256)
  SUDOKU_AVX2_BINARY(operator|, _mm256_or_si256)
  SUDOKU_AVX2_BINARY(operator^, _mm256_xor_si256)
  // Lane by lane, modulo 2^32.
  SUDOKU_AVX2_BINARY(operator+, _mm256_add_epi32)
  SUDOKU_AVX2_BINARY(operator-, _mm256_sub_epi32)
  // a & ~b: the bits of `a` not in `b`.
  SUDOKU_AVX2_BINARY(AndNot, SUDOKU_ANDNOT256)

#undef SUDOKU_AVX2_BINARY
#undef SUDOKU_ANDNOT256

  U32x16& operator&=(U32x16 b) { return *this = *this & b; }
  U32x16& operator|=(U32x16 b) { return *this = *this | b; }

  // Each lane shifted by N bits.
  template <int N> U32x16 ShiftLeft() const {
    U32x16 r;
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_slli_epi32(v_[i], N);
    return r;
  }
  template <int N> U32x16 ShiftRight() const {
    U32x16 r;
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_srli_epi32(v_[i], N);
    return r;
  }

  // Within every block, lanes 0-2 rotate: lane i takes lane (i + N) % 3; lane 3 stays.
  template <int N> U32x16 RotateBands() const {
    static_assert(N == 1 || N == 2);
    constexpr int kImm = N == 1 ? 0xC9 : 0xD2;  // lanes (1,2,0,3) or (2,0,1,3)
    U32x16 r;
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_shuffle_epi32(v_[i], kImm);
    return r;
  }

  // Blocks (0,1,2,3) -> (1,0,3,2).
  U32x16 SwapAdjacentBlocks() const {
    U32x16 r;
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_permute2x128_si256(v_[i], v_[i], 0x01);
    return r;
  }

  // Blocks (0,1,2,3) -> (2,3,0,1).
  U32x16 SwapBlockPairs() const {
    U32x16 r;
    r.v_[0] = v_[1]; r.v_[1] = v_[0];
    return r;
  }

  bool IsZero() const {
    const __m256i x = _mm256_or_si256(v_[0], v_[1]);
    return _mm256_testz_si256(x, x) != 0;
  }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const {
    const auto zero = [](__m256i x) {
      return uint32_t(_mm256_movemask_ps(
          _mm256_castsi256_ps(_mm256_cmpeq_epi32(x, _mm256_setzero_si256()))));
    };
    return 0xffffu & ~(zero(v_[0]) | zero(v_[1]) << 8);
  }

  // Do `a` and `b` share a set bit?
  friend bool Intersects(U32x16 a, U32x16 b) {
    return !(_mm256_testz_si256(a.v_[0], b.v_[0]) && _mm256_testz_si256(a.v_[1], b.v_[1]));
  }

  // Is every bit of `a` also in `b`?
  friend bool SubsetOf(U32x16 a, U32x16 b) { return AndNot(a, b).IsZero(); }

  // The block in all four blocks, and block 0 alone; block 0.
  static U32x16 Broadcast(U32x4 block) {
    U32x16 r;
    r.v_[0] = r.v_[1] = _mm256_broadcastsi128_si256(block.v_);
    return r;
  }
  static U32x16 ZeroExtend(U32x4 block) {
    U32x16 r;
    r.v_[0] = _mm256_zextsi128_si256(block.v_);
    r.v_[1] = _mm256_setzero_si256();
    return r;
  }
  U32x4 FirstBlock() const {
    U32x4 r;
    r.v_ = _mm256_castsi256_si128(v_[0]);
    return r;
  }

 private:
  __m256i v_[2];
};
// clang-format on

// Bit i set where p[i] == value, for the 32 bytes at p (the kernel reads a band's 27 cells).
inline uint32_t MatchBytes(const uint8_t* p, uint8_t value) {
  return static_cast<uint32_t>(_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                        _mm256_set1_epi8(static_cast<char>(value)))));
}

// Writes 32 bytes at `out`: byte i is '1' + d for the digit d whose word words[3 * d + band] has
// bit i, or 0 when none has (bits 27-31 are never set: those bytes are 0).
inline void WriteDigits(const uint32_t* words, int band, char* out) {
  // Byte i of a mask spread to a whole byte: byte i takes mask byte i / 8, keeps bit i % 8.
  const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x(0x8040201008040201);
  __m256i digits = _mm256_setzero_si256();
  for (int d = 0; d < 9; ++d) {
    const __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(int(words[3 * d + band])), pick);
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit);
    digits = _mm256_or_si256(digits, _mm256_and_si256(set, _mm256_set1_epi8(char('1' + d))));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), digits);
}

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_AVX2_H_
