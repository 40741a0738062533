// simd.h's U32x16 for AVX-512: one __m512i. U32x4 is the SSE4.1 block (simd_block_sse41.h).
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
  __m512i v_;
};
// clang-format on

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_AVX512_H_
