// U32x4, one 128-bit block of simd.h's U32x16, as an __m128i: shared by the SSE4.1, AVX2 and
// AVX-512 headers, whose wide types are made of such blocks (see simd.h).
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_BLOCK_SSE41_H_
#define SUDOKU_SOLVER_SIMD_BLOCK_SSE41_H_

#ifndef __SSE4_1__
#error "simd_block_sse41.h needs -msse4.1 (the flags come from solver/isa.def)"
#endif

#include <immintrin.h>

#include <cstdint>

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

// clang-format off
class U32x4 {
 public:
  U32x4() = default;

  static U32x4 Zero() { return Blocks(0, 0, 0, 0); }
  static U32x4 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x4 r;
    r.v_ = _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3));
    return r;
  }
  // Lanes 0-2 = `band_value`, lane 3 = 0.
  static U32x4 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  static U32x4 Load(const uint32_t* p) {
    U32x4 r;
    r.v_ = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return r;
  }
  void Store(uint32_t* p) const { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v_); }

  friend U32x4 operator&(U32x4 a, U32x4 b) { U32x4 r; r.v_ = _mm_and_si128(a.v_, b.v_); return r; }
  friend U32x4 operator|(U32x4 a, U32x4 b) { U32x4 r; r.v_ = _mm_or_si128(a.v_, b.v_); return r; }
  // Lane by lane, modulo 2^32.
  friend U32x4 operator+(U32x4 a, U32x4 b) { U32x4 r; r.v_ = _mm_add_epi32(a.v_, b.v_); return r; }
  friend U32x4 operator-(U32x4 a, U32x4 b) { U32x4 r; r.v_ = _mm_sub_epi32(a.v_, b.v_); return r; }
  // a & ~b; the intrinsic's andnot is (~first & second).
  friend U32x4 AndNot(U32x4 a, U32x4 b) { U32x4 r; r.v_ = _mm_andnot_si128(b.v_, a.v_); return r; }
  U32x4& operator&=(U32x4 b) { return *this = *this & b; }
  U32x4& operator|=(U32x4 b) { return *this = *this | b; }

  template <int N> U32x4 ShiftLeft() const {
    U32x4 r;
    r.v_ = _mm_slli_epi32(v_, N);
    return r;
  }
  template <int N> U32x4 ShiftRight() const {
    U32x4 r;
    r.v_ = _mm_srli_epi32(v_, N);
    return r;
  }
  // As U32x16::RotateBands.
  template <int N> U32x4 RotateBands() const {
    static_assert(N == 1 || N == 2);
    U32x4 r;
    r.v_ = _mm_shuffle_epi32(v_, N == 1 ? 0xC9 : 0xD2);
    return r;
  }

  bool IsZero() const { return _mm_testz_si128(v_, v_) != 0; }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const {
    const __m128i zero_lanes = _mm_cmpeq_epi32(v_, _mm_setzero_si128());
    return 0xfu & ~uint32_t(_mm_movemask_ps(_mm_castsi128_ps(zero_lanes)));
  }
  friend bool Intersects(U32x4 a, U32x4 b) { return _mm_testz_si128(a.v_, b.v_) == 0; }

 private:
  friend class U32x16;
  __m128i v_;
};
// clang-format on

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_BLOCK_SSE41_H_
