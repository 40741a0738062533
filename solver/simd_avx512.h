// simd.h's U32x16 for AVX-512: one __m512i. U32x4 is the SSE4.1 block (simd_block_sse41.h).
// U32x16Spare is the same register with the ninth digit's three band words in its spare lanes
// (lane 3 of blocks 0-2), so that Boards fits in two registers (see simd.h).
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_AVX512_H_
#define SUDOKU_SOLVER_SIMD_AVX512_H_

#if !defined(__AVX512F__) || !defined(__AVX512VL__) || !defined(__AVX512BW__)
#error "simd_avx512.h needs -mavx512f -mavx512vl -mavx512bw (the flags come from solver/isa.def)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "solver/simd_block_sse41.h"

// Boards::Map runs a step on whole U32x16s, one register each.
#define SUDOKU_SIMD_MAP_BY_BLOCK 0
// Boards keeps the ninth digit in the spare lanes of its first register (U32x16Spare).
#define SUDOKU_SIMD_SPARE_LANES 1

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

// clang-format off
class U32x16 {
 public:
  U32x16() = default;


  // AVX-512 operations are written in their zero-masking form with every lane selected: the
  // plain forms start from _mm512_undefined_epi32(), which g++ 12 flags as uninitialised
  // (GCC PR 105593) under -Werror. The compiler drops the all-ones mask.
  static constexpr __mmask16 kAllLanes = 0xffff;

  static U32x16 Zero() {
    U32x16 r;
    r.v_ = _mm512_setzero_si512();
    return r;
  }

  // The same four lanes in every block.
  static U32x16 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x16 r;
    r.v_ = _mm512_maskz_broadcast_i32x4(kAllLanes,
                                        _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3)));
    return r;
  }

  // Lanes 0-2 of every block = `band_value`, lane 3 = 0: a constant over the three bands.
  static U32x16 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  // As Bands(), in block 0 only; blocks 1-3 zero.
  static U32x16 FirstBlockBands(uint32_t band_value) {
    U32x16 r;
    r.v_ = _mm512_maskz_set1_epi32(0x0007, int(band_value));
    return r;
  }

  static U32x16 Load(const uint32_t* p) {
    U32x16 r;
    r.v_ = _mm512_loadu_si512(p);
    return r;
  }

  void Store(uint32_t* p) const { _mm512_storeu_si512(p, v_); }

  friend U32x16 operator&(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_and_si512(a.v_, b.v_);
    return r;
  }
  friend U32x16 operator|(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_or_si512(a.v_, b.v_);
    return r;
  }
  friend U32x16 operator^(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_xor_si512(a.v_, b.v_);
    return r;
  }
  // Lane by lane, modulo 2^32.
  friend U32x16 operator+(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_maskz_add_epi32(kAllLanes, a.v_, b.v_);
    return r;
  }
  friend U32x16 operator-(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_maskz_sub_epi32(kAllLanes, a.v_, b.v_);
    return r;
  }
  // a & ~b: the bits of `a` not in `b` (the intrinsic's andnot is ~first & second).
  friend U32x16 AndNot(U32x16 a, U32x16 b) {
    U32x16 r;
    r.v_ = _mm512_maskz_andnot_epi32(kAllLanes, b.v_, a.v_);
    return r;
  }

  U32x16& operator&=(U32x16 b) { return *this = *this & b; }
  U32x16& operator|=(U32x16 b) { return *this = *this | b; }

  // Each lane shifted by N bits.
  template <int N> U32x16 ShiftLeft() const {
    U32x16 r;
    r.v_ = _mm512_maskz_slli_epi32(kAllLanes, v_, N);
    return r;
  }
  template <int N> U32x16 ShiftRight() const {
    U32x16 r;
    r.v_ = _mm512_maskz_srli_epi32(kAllLanes, v_, N);
    return r;
  }

  // Within every block, lanes 0-2 rotate: lane i takes lane (i + N) % 3; lane 3 stays.
  template <int N> U32x16 RotateBands() const {
    static_assert(N == 1 || N == 2);
    constexpr int kImm = N == 1 ? 0xC9 : 0xD2;  // lanes (1,2,0,3) or (2,0,1,3)
    U32x16 r;
    r.v_ = _mm512_maskz_shuffle_epi32(kAllLanes, v_, static_cast<_MM_PERM_ENUM>(kImm));
    return r;
  }

  // Blocks (0,1,2,3) -> (1,0,3,2).
  U32x16 SwapAdjacentBlocks() const {
    U32x16 r;
    r.v_ = _mm512_maskz_shuffle_i32x4(kAllLanes, v_, v_, 0xB1);
    return r;
  }

  // Blocks (0,1,2,3) -> (2,3,0,1).
  U32x16 SwapBlockPairs() const {
    U32x16 r;
    r.v_ = _mm512_maskz_shuffle_i32x4(kAllLanes, v_, v_, 0x4E);
    return r;
  }

  bool IsZero() const { return _mm512_test_epi32_mask(v_, v_) == 0; }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const { return _mm512_test_epi32_mask(v_, v_); }

  // Do `a` and `b` share a set bit?
  friend bool Intersects(U32x16 a, U32x16 b) { return _mm512_test_epi32_mask(a.v_, b.v_) != 0; }

  // Is every bit of `a` also in `b`?
  friend bool SubsetOf(U32x16 a, U32x16 b) { return AndNot(a, b).IsZero(); }

  // The block in all four blocks, and block 0 alone; block 0.
  static U32x16 Broadcast(U32x4 block) {
    U32x16 r;
    r.v_ = _mm512_maskz_broadcast_i32x4(kAllLanes, block.v_);
    return r;
  }
  static U32x16 ZeroExtend(U32x4 block) {
    U32x16 r;
    r.v_ = _mm512_zextsi128_si512(block.v_);
    return r;
  }
  U32x4 FirstBlock() const {
    U32x4 r;
    r.v_ = _mm512_maskz_extracti32x4_epi32(0xf, v_, 0);
    return r;
  }

 private:
  friend class U32x16Spare;
  __m512i v_;
};

// A U32x16 whose lanes 3, 7 and 11 hold band words 0, 1 and 2 of one more digit: band constants
// fill them too, and band rotations move them among themselves. Lane 15 stays zero. Each
// operation is U32x16's but those two.
class U32x16Spare {
 public:
  U32x16Spare() = default;

  static U32x16Spare Zero() { return U32x16Spare(U32x16::Zero()); }
  // `band_value` in every lane but 15.
  static U32x16Spare Bands(uint32_t band_value) {
    // (Written out lane by lane, a constant value becomes one constant in memory, which the
    // compiler keeps out of loops; a masked broadcast is rebuilt at each use.)
    const int v = int(band_value);
    U32x16 r;
    r.v_ = _mm512_setr_epi32(v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, 0);
    return U32x16Spare(r);
  }
  // Band N's word in lane N of every block and in lane 4N + 3.
  static U32x16Spare PerBand(uint32_t band0, uint32_t band1, uint32_t band2) {
    // One block, then one permute (sixteen lanes set one by one took three times the
    // instructions).
    const __m128i bands = _mm_setr_epi32(int(band0), int(band1), int(band2), 0);
    U32x16 r;
    r.v_ = _mm512_maskz_permutexvar_epi32(
        U32x16::kAllLanes, _mm512_setr_epi32(0, 1, 2, 0, 0, 1, 2, 1, 0, 1, 2, 2, 0, 1, 2, 3),
        _mm512_zextsi128_si512(bands));
    return U32x16Spare(r);
  }
  static U32x16Spare Load(const uint32_t* p) { return U32x16Spare(U32x16::Load(p)); }
  void Store(uint32_t* p) const { v_.Store(p); }

  friend U32x16Spare operator&(U32x16Spare a, U32x16Spare b) { return U32x16Spare(a.v_ & b.v_); }
  friend U32x16Spare operator|(U32x16Spare a, U32x16Spare b) { return U32x16Spare(a.v_ | b.v_); }
  friend U32x16Spare operator+(U32x16Spare a, U32x16Spare b) { return U32x16Spare(a.v_ + b.v_); }
  friend U32x16Spare operator-(U32x16Spare a, U32x16Spare b) { return U32x16Spare(a.v_ - b.v_); }
  friend U32x16Spare AndNot(U32x16Spare a, U32x16Spare b) {
    return U32x16Spare(AndNot(a.v_, b.v_));
  }
  U32x16Spare& operator&=(U32x16Spare b) { return *this = *this & b; }
  U32x16Spare& operator|=(U32x16Spare b) { return *this = *this | b; }

  template <int N> U32x16Spare ShiftLeft() const { return U32x16Spare(v_.ShiftLeft<N>()); }
  template <int N> U32x16Spare ShiftRight() const { return U32x16Spare(v_.ShiftRight<N>()); }

  // As U32x16::RotateBands, and lane 4i + 3 takes lane 4((i + N) % 3) + 3.
  template <int N> U32x16Spare RotateBands() const {
    static_assert(N == 1 || N == 2);
    constexpr int a = N, b = (1 + N) % 3, c = (2 + N) % 3;
    U32x16 r;
    r.v_ = _mm512_maskz_permutexvar_epi32(
        U32x16::kAllLanes,
        _mm512_setr_epi32(a, b, c, 4 * a + 3, 4 + a, 4 + b, 4 + c, 4 * b + 3,
                          8 + a, 8 + b, 8 + c, 4 * c + 3, 12 + a, 12 + b, 12 + c, 15),
        v_.v_);
    return U32x16Spare(r);
  }

  bool IsZero() const { return v_.IsZero(); }
  uint32_t NonZeroLanes() const { return v_.NonZeroLanes(); }
  // All sixteen lanes as they are.
  U32x16 AllLanes() const { return v_; }

  // Lanes 3, 7 and 11 as lanes 0-2 of every block (lane 3 zero).
  U32x16 SpareAsBlocks() const {
    U32x16 r;
    r.v_ = _mm512_maskz_permutexvar_epi32(
        U32x16::kAllLanes,
        _mm512_setr_epi32(3, 7, 11, 15, 3, 7, 11, 15, 3, 7, 11, 15, 3, 7, 11, 15), v_.v_);
    return r;
  }
  // The lanes other than the spare ones.
  U32x16 WithoutSpare() const {
    U32x16 r;
    r.v_ = _mm512_maskz_mov_epi32(0x7777, v_.v_);
    return r;
  }
  // `x`, the same in every block with lane 3 zero, and its block 0 in the spare lanes too.
  static U32x16Spare FromBlocks(U32x16 x) {
    U32x16 r;
    r.v_ = _mm512_maskz_permutexvar_epi32(
        U32x16::kAllLanes,
        _mm512_setr_epi32(0, 1, 2, 0, 4, 5, 6, 1, 8, 9, 10, 2, 12, 13, 14, 15), x.v_);
    return U32x16Spare(r);
  }

 private:
  explicit U32x16Spare(U32x16 v) : v_(v) {}
  U32x16 v_;
};
// clang-format on

// Bit i set where p[i] == value, for the 32 bytes at p (the kernel reads a band's 27 cells).
inline uint32_t MatchBytes(const uint8_t* p, uint8_t value) {
  return _mm256_cmpeq_epi8_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                _mm256_set1_epi8(static_cast<char>(value)));
}

// Writes 32 bytes at `out`: byte i is '1' + d for the digit d whose word words[3 * d + band] has
// bit i, or 0 when none has (bits 27-31 are never set: those bytes are 0).
inline void WriteDigits(const uint32_t* words, int band, char* out) {
  __m256i digits = _mm256_setzero_si256();
  for (int d = 0; d < 9; ++d) {
    digits = _mm256_mask_mov_epi8(digits, words[3 * d + band], _mm256_set1_epi8(char('1' + d)));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), digits);
}

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_AVX512_H_
