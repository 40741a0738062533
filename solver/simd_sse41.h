// simd.h's U32x16 for SSE4.1: four __m128i, one per block, so that block swaps are renames.
// U32x4 is the SSE4.1 block (simd_block_sse41.h).
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_SSE41_H_
#define SUDOKU_SOLVER_SIMD_SSE41_H_

#ifndef __SSE4_1__
#error "simd_sse41.h needs -msse4.1 (the flags come from solver/isa.def)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "solver/simd_block_sse41.h"

// Boards::Map runs a step a block (a U32x4) at a time: 16 xmm registers do not hold a step's
// working set of whole U32x16s.
#define SUDOKU_SIMD_MAP_BY_BLOCK 1
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
    for (auto& x : r.v_) x = _mm_setzero_si128();
    return r;
  }

  // The same four lanes in every block.
  static U32x16 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x16 r;
    for (auto& x : r.v_) x = _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3));
    return r;
  }

  // Lanes 0-2 of every block = `band_value`, lane 3 = 0: a constant over the three bands.
  static U32x16 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  // As Bands(), in block 0 only; blocks 1-3 zero.
  static U32x16 FirstBlockBands(uint32_t band_value) {
    U32x16 r;
    r.v_[0] = _mm_setr_epi32(int(band_value), int(band_value), int(band_value), 0);
    r.v_[1] = r.v_[2] = r.v_[3] = _mm_setzero_si128();
    return r;
  }

  static U32x16 Load(const uint32_t* p) {
    U32x16 r;
    for (int i = 0; i < 4; ++i) {
      r.v_[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * i));
    }
    return r;
  }

  void Store(uint32_t* p) const {
    for (int i = 0; i < 4; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 4 * i), v_[i]);
  }

// One 128-bit operation per block.
#define SUDOKU_SSE41_BINARY(name, sse)                                      \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    for (int i = 0; i < 4; ++i) r.v_[i] = sse(a.v_[i], b.v_[i]);            \
    return r;                                                               \
  }
// The intrinsic's andnot is (~first & second); ours reads "a without b".
#define SUDOKU_ANDNOT128(x, y) _mm_andnot_si128(y, x)

  SUDOKU_SSE41_BINARY(operator&, _mm_and_si128)
  SUDOKU_SSE41_BINARY(operator|, _mm_or_si128)
  SUDOKU_SSE41_BINARY(operator^, _mm_xor_si128)
  // Lane by lane, modulo 2^32.
  SUDOKU_SSE41_BINARY(operator+, _mm_add_epi32)
  SUDOKU_SSE41_BINARY(operator-, _mm_sub_epi32)
  // a & ~b: the bits of `a` not in `b`.
  SUDOKU_SSE41_BINARY(AndNot, SUDOKU_ANDNOT128)

#undef SUDOKU_SSE41_BINARY
#undef SUDOKU_ANDNOT128

  U32x16& operator&=(U32x16 b) { return *this = *this & b; }
  U32x16& operator|=(U32x16 b) { return *this = *this | b; }

  // Each lane shifted by N bits.
  template <int N> U32x16 ShiftLeft() const {
    U32x16 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_slli_epi32(v_[i], N);
    return r;
  }
  template <int N> U32x16 ShiftRight() const {
    U32x16 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_srli_epi32(v_[i], N);
    return r;
  }

  // Within every block, lanes 0-2 rotate: lane i takes lane (i + N) % 3; lane 3 stays.
  template <int N> U32x16 RotateBands() const {
    static_assert(N == 1 || N == 2);
    constexpr int kImm = N == 1 ? 0xC9 : 0xD2;  // lanes (1,2,0,3) or (2,0,1,3)
    U32x16 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_shuffle_epi32(v_[i], kImm);
    return r;
  }

  // Blocks (0,1,2,3) -> (1,0,3,2).
  U32x16 SwapAdjacentBlocks() const {
    U32x16 r;
    r.v_[0] = v_[1]; r.v_[1] = v_[0]; r.v_[2] = v_[3]; r.v_[3] = v_[2];
    return r;
  }

  // Blocks (0,1,2,3) -> (2,3,0,1).
  U32x16 SwapBlockPairs() const {
    U32x16 r;
    r.v_[0] = v_[2]; r.v_[1] = v_[3]; r.v_[2] = v_[0]; r.v_[3] = v_[1];
    return r;
  }

  bool IsZero() const {
    const __m128i x = _mm_or_si128(_mm_or_si128(v_[0], v_[1]), _mm_or_si128(v_[2], v_[3]));
    return _mm_testz_si128(x, x) != 0;
  }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const {
    uint32_t lanes = 0;
    for (int i = 0; i < 4; ++i) lanes |= Block(i).NonZeroLanes() << (4 * i);
    return lanes;
  }

  // Do `a` and `b` share a set bit?
  friend bool Intersects(U32x16 a, U32x16 b) { return !(a & b).IsZero(); }

  // Is every bit of `a` also in `b`?
  friend bool SubsetOf(U32x16 a, U32x16 b) { return AndNot(a, b).IsZero(); }

  // The block in all four blocks, and block 0 alone; block 0.
  static U32x16 Broadcast(U32x4 block) {
    U32x16 r;
    for (auto& x : r.v_) x = block.v_;
    return r;
  }
  static U32x16 ZeroExtend(U32x4 block) {
    U32x16 r;
    r.v_[0] = block.v_;
    r.v_[1] = r.v_[2] = r.v_[3] = _mm_setzero_si128();
    return r;
  }
  U32x4 FirstBlock() const {
    U32x4 r;
    r.v_ = v_[0];
    return r;
  }
  // Block i, as a U32x4 (free: the blocks are separate registers).
  U32x4 Block(int i) const {
    U32x4 r;
    r.v_ = v_[i];
    return r;
  }
  void SetBlock(int i, U32x4 block) { v_[i] = block.v_; }

 private:
  __m128i v_[4];
};
// clang-format on

// Bit i set where p[i] == value, for the 32 bytes at p (the kernel reads a band's 27 cells).
inline uint32_t MatchBytes(const uint8_t* p, uint8_t value) {
  const __m128i v = _mm_set1_epi8(static_cast<char>(value));
  const auto half = [&v](const uint8_t* q) {
    return static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)), v)));
  };
  return half(p) | half(p + 16) << 16;
}

// Writes 32 bytes at `out`: byte i is '1' + d for the digit d whose word words[3 * d + band] has
// bit i, or 0 when none has (bits 27-31 are never set: those bytes are 0).
inline void WriteDigits(const uint32_t* words, int band, char* out) {
  // As the AVX2 one, in two halves: byte i takes mask byte i / 8, keeps bit i % 8.
  const __m128i pick_low = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
  const __m128i pick_high = _mm_setr_epi8(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m128i bit = _mm_set1_epi64x(0x8040201008040201);
  __m128i low = _mm_setzero_si128(), high = _mm_setzero_si128();
  for (int d = 0; d < 9; ++d) {
    const __m128i mask = _mm_set1_epi32(int(words[3 * d + band]));
    const __m128i digit = _mm_set1_epi8(char('1' + d));
    const auto spread = [&](__m128i pick) {
      const __m128i bytes = _mm_and_si128(_mm_shuffle_epi8(mask, pick), bit);
      return _mm_and_si128(_mm_cmpeq_epi8(bytes, bit), digit);
    };
    low = _mm_or_si128(low, spread(pick_low));
    high = _mm_or_si128(high, spread(pick_high));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), low);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), high);
}

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_SSE41_H_
