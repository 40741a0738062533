// The vector types of the solving kernel, with the few named operations it needs. The only
// file in solver/ that calls intrinsics.
//
//   U32x16  sixteen 32-bit lanes, seen as four 128-bit blocks of four lanes
//   U32x4   one such block
//   Boards  the nine digits' candidate boards (two U32x16 and a U32x4), the value kernel.inc
//           works on: bitwise operations, shifts, band rotations, counts across digits, and
//           Map() to run a step a part at a time
//
// Each instruction set gets the narrowest natural mapping of U32x16:
//
//   AVX-512   one __m512i
//   AVX2      two __m256i     (blocks 0-1, blocks 2-3)
//   SSE4.1    four __m128i    (one per block; block swaps are renames)
//   portable  sixteen uint32_t, in loops the compiler may vectorise for the baseline CPU
//
// This header is included once per kernel translation unit (through kernel.inc) and defines the
// types inside that kernel's own namespace, sudoku::<SUDOKU_KERNEL_NAMESPACE>, in an anonymous
// namespace, from the flags the translation unit was built with (__AVX512F__, __AVX2__,
// __SSE4_1__). Its code therefore never merges across kernels built with different flags.
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_H_
#define SUDOKU_SOLVER_SIMD_H_

#ifndef SUDOKU_KERNEL_NAMESPACE
#error "define SUDOKU_KERNEL_NAMESPACE (the kernel's namespace) before including simd.h"
#endif

#include <cstdint>

#if defined(__SSE4_1__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__)
#define SUDOKU_SIMD_AVX512 1
#elif defined(__AVX2__)
#define SUDOKU_SIMD_AVX2 1
#elif defined(__SSE4_1__)
#define SUDOKU_SIMD_SSE41 1
#else
#define SUDOKU_SIMD_PORTABLE 1
#endif

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

class U32x4;

// clang-format off
class U32x16 {
 public:
  U32x16() = default;

#if SUDOKU_SIMD_AVX512
  // AVX-512 operations are written in their zero-masking form with every lane selected: the
  // plain forms start from _mm512_undefined_epi32(), which g++ 12 flags as uninitialised
  // (GCC PR 105593) under -Werror. The compiler drops the all-ones mask.
  static constexpr __mmask16 kAllLanes = 0xffff;
#endif

  static U32x16 Zero() {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_setzero_si512();
#elif SUDOKU_SIMD_AVX2
    r.v_[0] = r.v_[1] = _mm256_setzero_si256();
#elif SUDOKU_SIMD_SSE41
    for (auto& x : r.v_) x = _mm_setzero_si128();
#else
    for (auto& x : r.v_) x = 0;
#endif
    return r;
  }

  // The same four lanes in every block.
  static U32x16 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_broadcast_i32x4(kAllLanes, _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3)));
#elif SUDOKU_SIMD_AVX2
    r.v_[0] = r.v_[1] = _mm256_setr_epi32(int(l0), int(l1), int(l2), int(l3),
                                          int(l0), int(l1), int(l2), int(l3));
#elif SUDOKU_SIMD_SSE41
    for (auto& x : r.v_) x = _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3));
#else
    for (int i = 0; i < 16; i += 4) {
      r.v_[i] = l0; r.v_[i + 1] = l1; r.v_[i + 2] = l2; r.v_[i + 3] = l3;
    }
#endif
    return r;
  }

  // Lanes 0-2 of every block = `band_value`, lane 3 = 0: a constant over the three bands.
  static U32x16 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  // As Bands(), in block 0 only; blocks 1-3 zero.
  static U32x16 FirstBlockBands(uint32_t band_value) {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_set1_epi32(0x0007, int(band_value));
#elif SUDOKU_SIMD_AVX2
    r.v_[0] = _mm256_setr_epi32(int(band_value), int(band_value), int(band_value), 0, 0, 0, 0, 0);
    r.v_[1] = _mm256_setzero_si256();
#elif SUDOKU_SIMD_SSE41
    r.v_[0] = _mm_setr_epi32(int(band_value), int(band_value), int(band_value), 0);
    r.v_[1] = r.v_[2] = r.v_[3] = _mm_setzero_si128();
#else
    for (auto& x : r.v_) x = 0;
    r.v_[0] = r.v_[1] = r.v_[2] = band_value;
#endif
    return r;
  }

  static U32x16 Load(const uint32_t* p) {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_loadu_si512(p);
#elif SUDOKU_SIMD_AVX2
    r.v_[0] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    r.v_[1] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8));
#elif SUDOKU_SIMD_SSE41
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * i));
#else
    for (int i = 0; i < 16; ++i) r.v_[i] = p[i];
#endif
    return r;
  }

  void Store(uint32_t* p) const {
#if SUDOKU_SIMD_AVX512
    _mm512_storeu_si512(p, v_);
#elif SUDOKU_SIMD_AVX2
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v_[0]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 8), v_[1]);
#elif SUDOKU_SIMD_SSE41
    for (int i = 0; i < 4; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 4 * i), v_[i]);
#else
    for (int i = 0; i < 16; ++i) p[i] = v_[i];
#endif
  }

#if SUDOKU_SIMD_AVX512
#define SUDOKU_SIMD_BINARY(name, avx512, avx2, sse, scalar)                 \
  friend U32x16 name(U32x16 a, U32x16 b) { U32x16 r; r.v_ = avx512(a.v_, b.v_); return r; }
#elif SUDOKU_SIMD_AVX2
#define SUDOKU_SIMD_BINARY(name, avx512, avx2, sse, scalar)                 \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    r.v_[0] = avx2(a.v_[0], b.v_[0]);                                       \
    r.v_[1] = avx2(a.v_[1], b.v_[1]);                                       \
    return r;                                                               \
  }
#elif SUDOKU_SIMD_SSE41
#define SUDOKU_SIMD_BINARY(name, avx512, avx2, sse, scalar)                 \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    for (int i = 0; i < 4; ++i) r.v_[i] = sse(a.v_[i], b.v_[i]);            \
    return r;                                                               \
  }
#else
#define SUDOKU_SIMD_BINARY(name, avx512, avx2, sse, scalar)                 \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    for (int i = 0; i < 16; ++i) r.v_[i] = scalar(a.v_[i], b.v_[i]);        \
    return r;                                                               \
  }
#endif

#define SUDOKU_SCALAR_AND(x, y) ((x) & (y))
#define SUDOKU_SCALAR_OR(x, y) ((x) | (y))
#define SUDOKU_SCALAR_XOR(x, y) ((x) ^ (y))
#define SUDOKU_SCALAR_ANDNOT(x, y) ((x) & ~(y))
// The intrinsics' andnot is (~first & second); ours reads "a without b".
#define SUDOKU_ANDNOT512(x, y) _mm512_maskz_andnot_epi32(kAllLanes, y, x)
#define SUDOKU_ANDNOT256(x, y) _mm256_andnot_si256(y, x)
#define SUDOKU_ANDNOT128(x, y) _mm_andnot_si128(y, x)

  SUDOKU_SIMD_BINARY(operator&, _mm512_and_si512, _mm256_and_si256, _mm_and_si128, SUDOKU_SCALAR_AND)
  SUDOKU_SIMD_BINARY(operator|, _mm512_or_si512, _mm256_or_si256, _mm_or_si128, SUDOKU_SCALAR_OR)
  SUDOKU_SIMD_BINARY(operator^, _mm512_xor_si512, _mm256_xor_si256, _mm_xor_si128, SUDOKU_SCALAR_XOR)
  // a & ~b: the bits of `a` not in `b`.
  SUDOKU_SIMD_BINARY(AndNot, SUDOKU_ANDNOT512, SUDOKU_ANDNOT256, SUDOKU_ANDNOT128, SUDOKU_SCALAR_ANDNOT)

#undef SUDOKU_SIMD_BINARY
#undef SUDOKU_SCALAR_AND
#undef SUDOKU_SCALAR_OR
#undef SUDOKU_SCALAR_XOR
#undef SUDOKU_SCALAR_ANDNOT
#undef SUDOKU_ANDNOT512
#undef SUDOKU_ANDNOT256
#undef SUDOKU_ANDNOT128

  U32x16& operator&=(U32x16 b) { return *this = *this & b; }
  U32x16& operator|=(U32x16 b) { return *this = *this | b; }

  // Each lane shifted by N bits.
  template <int N> U32x16 ShiftLeft() const {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_slli_epi32(kAllLanes, v_, N);
#elif SUDOKU_SIMD_AVX2
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_slli_epi32(v_[i], N);
#elif SUDOKU_SIMD_SSE41
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_slli_epi32(v_[i], N);
#else
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i] << N;
#endif
    return r;
  }
  template <int N> U32x16 ShiftRight() const {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_srli_epi32(kAllLanes, v_, N);
#elif SUDOKU_SIMD_AVX2
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_srli_epi32(v_[i], N);
#elif SUDOKU_SIMD_SSE41
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_srli_epi32(v_[i], N);
#else
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i] >> N;
#endif
    return r;
  }

  // Within every block, lanes 0-2 rotate: lane i takes lane (i + N) % 3; lane 3 stays.
  template <int N> U32x16 RotateBands() const {
    static_assert(N == 1 || N == 2);
    [[maybe_unused]] constexpr int kImm = N == 1 ? 0xC9 : 0xD2;  // lanes (1,2,0,3) or (2,0,1,3)
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_shuffle_epi32(kAllLanes, v_, static_cast<_MM_PERM_ENUM>(kImm));
#elif SUDOKU_SIMD_AVX2
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_shuffle_epi32(v_[i], kImm);
#elif SUDOKU_SIMD_SSE41
    for (int i = 0; i < 4; ++i) r.v_[i] = _mm_shuffle_epi32(v_[i], kImm);
#else
    for (int b = 0; b < 16; b += 4) {
      r.v_[b] = v_[b + N % 3];
      r.v_[b + 1] = v_[b + (1 + N) % 3];
      r.v_[b + 2] = v_[b + (2 + N) % 3];
      r.v_[b + 3] = v_[b + 3];
    }
#endif
    return r;
  }

  // Blocks (0,1,2,3) -> (1,0,3,2).
  U32x16 SwapAdjacentBlocks() const {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_shuffle_i32x4(kAllLanes, v_, v_, 0xB1);
#elif SUDOKU_SIMD_AVX2
    for (int i = 0; i < 2; ++i) r.v_[i] = _mm256_permute2x128_si256(v_[i], v_[i], 0x01);
#elif SUDOKU_SIMD_SSE41
    r.v_[0] = v_[1]; r.v_[1] = v_[0]; r.v_[2] = v_[3]; r.v_[3] = v_[2];
#else
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i ^ 4];
#endif
    return r;
  }

  // Blocks (0,1,2,3) -> (2,3,0,1).
  U32x16 SwapBlockPairs() const {
    U32x16 r;
#if SUDOKU_SIMD_AVX512
    r.v_ = _mm512_maskz_shuffle_i32x4(kAllLanes, v_, v_, 0x4E);
#elif SUDOKU_SIMD_AVX2
    r.v_[0] = v_[1]; r.v_[1] = v_[0];
#elif SUDOKU_SIMD_SSE41
    r.v_[0] = v_[2]; r.v_[1] = v_[3]; r.v_[2] = v_[0]; r.v_[3] = v_[1];
#else
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i ^ 8];
#endif
    return r;
  }

  bool IsZero() const {
#if SUDOKU_SIMD_AVX512
    return _mm512_test_epi32_mask(v_, v_) == 0;
#elif SUDOKU_SIMD_AVX2
    const __m256i x = _mm256_or_si256(v_[0], v_[1]);
    return _mm256_testz_si256(x, x) != 0;
#elif SUDOKU_SIMD_SSE41
    const __m128i x = _mm_or_si128(_mm_or_si128(v_[0], v_[1]), _mm_or_si128(v_[2], v_[3]));
    return _mm_testz_si128(x, x) != 0;
#else
    uint32_t x = 0;
    for (int i = 0; i < 16; ++i) x |= v_[i];
    return x == 0;
#endif
  }

  // Do `a` and `b` share a set bit?
  friend bool Intersects(U32x16 a, U32x16 b) {
#if SUDOKU_SIMD_AVX512
    return _mm512_test_epi32_mask(a.v_, b.v_) != 0;
#elif SUDOKU_SIMD_AVX2
    return !(_mm256_testz_si256(a.v_[0], b.v_[0]) && _mm256_testz_si256(a.v_[1], b.v_[1]));
#else
    return !(a & b).IsZero();
#endif
  }

  // Is every bit of `a` also in `b`?
  friend bool SubsetOf(U32x16 a, U32x16 b) { return AndNot(a, b).IsZero(); }

  // A block copied to all four blocks, or to block 0 with the others zero; block 0 (defined
  // after U32x4).
  static U32x16 Broadcast(U32x4 block);
  static U32x16 ZeroExtend(U32x4 block);
  U32x4 FirstBlock() const;
#if SUDOKU_SIMD_SSE41 || SUDOKU_SIMD_PORTABLE
  // Block i, as a U32x4 (free: the blocks are separate registers or arrays here).
  U32x4 Block(int i) const;
  void SetBlock(int i, U32x4 block);
#endif

 private:
#if SUDOKU_SIMD_AVX512
  __m512i v_;
#elif SUDOKU_SIMD_AVX2
  __m256i v_[2];
#elif SUDOKU_SIMD_SSE41
  __m128i v_[4];
#else
  uint32_t v_[16];
#endif
};
// clang-format on

// Boards: the candidates of the nine digits, as 27 words of 27 bits: word (d, b) holds digit d's
// board in band b (see kernel.inc for the bits).
//
// Laid out as three U32x16 of four 128-bit blocks, one block per digit and a lane per band, so
// that band rotations stay within 128-bit lanes:
//
//   v_[0] = digits 1-4 | v_[1] = digits 5-8 | last_ = digit 9 (one block, a U32x4)
//   block = (band 0, band 1, band 2, unused)
//
// Unused lanes are zero and stay zero: constants fill live words only, and no operation sets a
// bit that no live word had. (Packing the 27 words into two AVX-512 vectors instead measured
// 4-18% slower: band and digit rotations then cross 128-bit lanes, and those permutes cost more
// than the third vector saves.)
// U32x4: one 128-bit block of U32x16, for the ninth digit's board (see Boards).
class U32x4 {
 public:
  U32x4() = default;

  static U32x4 Zero() { return Blocks(0, 0, 0, 0); }
  static U32x4 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x4 r;
#if SUDOKU_SIMD_PORTABLE
    r.v_[0] = l0; r.v_[1] = l1; r.v_[2] = l2; r.v_[3] = l3;
#else
    r.v_ = _mm_setr_epi32(int(l0), int(l1), int(l2), int(l3));
#endif
    return r;
  }
  // Lanes 0-2 = `band_value`, lane 3 = 0.
  static U32x4 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  static U32x4 Load(const uint32_t* p) {
    U32x4 r;
#if SUDOKU_SIMD_PORTABLE
    for (int i = 0; i < 4; ++i) r.v_[i] = p[i];
#else
    r.v_ = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
#endif
    return r;
  }
  void Store(uint32_t* p) const {
#if SUDOKU_SIMD_PORTABLE
    for (int i = 0; i < 4; ++i) p[i] = v_[i];
#else
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v_);
#endif
  }

#if SUDOKU_SIMD_PORTABLE
#define SUDOKU_SIMD_BINARY4(name, sse, op)                                      \
  friend U32x4 name(U32x4 a, U32x4 b) {                                         \
    U32x4 r;                                                                    \
    for (int i = 0; i < 4; ++i) r.v_[i] = op;                                   \
    return r;                                                                   \
  }
#else
#define SUDOKU_SIMD_BINARY4(name, sse, op)                                      \
  friend U32x4 name(U32x4 a, U32x4 b) { U32x4 r; r.v_ = sse; return r; }
#endif
  SUDOKU_SIMD_BINARY4(operator&, _mm_and_si128(a.v_, b.v_), a.v_[i] & b.v_[i])
  SUDOKU_SIMD_BINARY4(operator|, _mm_or_si128(a.v_, b.v_), a.v_[i] | b.v_[i])
  SUDOKU_SIMD_BINARY4(AndNot, _mm_andnot_si128(b.v_, a.v_), a.v_[i] & ~b.v_[i])
#undef SUDOKU_SIMD_BINARY4
  U32x4& operator&=(U32x4 b) { return *this = *this & b; }
  U32x4& operator|=(U32x4 b) { return *this = *this | b; }

  template <int N> U32x4 ShiftLeft() const {
    U32x4 r;
#if SUDOKU_SIMD_PORTABLE
    for (int i = 0; i < 4; ++i) r.v_[i] = v_[i] << N;
#else
    r.v_ = _mm_slli_epi32(v_, N);
#endif
    return r;
  }
  template <int N> U32x4 ShiftRight() const {
    U32x4 r;
#if SUDOKU_SIMD_PORTABLE
    for (int i = 0; i < 4; ++i) r.v_[i] = v_[i] >> N;
#else
    r.v_ = _mm_srli_epi32(v_, N);
#endif
    return r;
  }
  // As U32x16::RotateBands.
  template <int N> U32x4 RotateBands() const {
    static_assert(N == 1 || N == 2);
    U32x4 r;
#if SUDOKU_SIMD_PORTABLE
    r.v_[0] = v_[N % 3];
    r.v_[1] = v_[(1 + N) % 3];
    r.v_[2] = v_[(2 + N) % 3];
    r.v_[3] = v_[3];
#else
    r.v_ = _mm_shuffle_epi32(v_, N == 1 ? 0xC9 : 0xD2);
#endif
    return r;
  }

  bool IsZero() const {
#if SUDOKU_SIMD_PORTABLE
    return (v_[0] | v_[1] | v_[2] | v_[3]) == 0;
#else
    return _mm_testz_si128(v_, v_) != 0;
#endif
  }
  friend bool Intersects(U32x4 a, U32x4 b) {
#if SUDOKU_SIMD_PORTABLE
    return !(a & b).IsZero();
#else
    return _mm_testz_si128(a.v_, b.v_) == 0;
#endif
  }

 private:
  friend class U32x16;
#if SUDOKU_SIMD_PORTABLE
  uint32_t v_[4];
#else
  __m128i v_;
#endif
};

// The block in all four blocks, and block 0 alone.
inline U32x16 U32x16::Broadcast(U32x4 block) {
  U32x16 r;
#if SUDOKU_SIMD_AVX512
  r.v_ = _mm512_maskz_broadcast_i32x4(kAllLanes, block.v_);
#elif SUDOKU_SIMD_AVX2
  r.v_[0] = r.v_[1] = _mm256_broadcastsi128_si256(block.v_);
#elif SUDOKU_SIMD_SSE41
  for (auto& x : r.v_) x = block.v_;
#else
  for (int i = 0; i < 16; ++i) r.v_[i] = block.v_[i % 4];
#endif
  return r;
}

inline U32x16 U32x16::ZeroExtend(U32x4 block) {
  U32x16 r;
#if SUDOKU_SIMD_AVX512
  r.v_ = _mm512_zextsi128_si512(block.v_);
#elif SUDOKU_SIMD_AVX2
  r.v_[0] = _mm256_zextsi128_si256(block.v_);
  r.v_[1] = _mm256_setzero_si256();
#elif SUDOKU_SIMD_SSE41
  r.v_[0] = block.v_;
  r.v_[1] = r.v_[2] = r.v_[3] = _mm_setzero_si128();
#else
  for (int i = 0; i < 16; ++i) r.v_[i] = i < 4 ? block.v_[i] : 0;
#endif
  return r;
}

#if SUDOKU_SIMD_SSE41
inline U32x4 U32x16::Block(int i) const {
  U32x4 r;
  r.v_ = v_[i];
  return r;
}
inline void U32x16::SetBlock(int i, U32x4 block) { v_[i] = block.v_; }
#elif SUDOKU_SIMD_PORTABLE
inline U32x4 U32x16::Block(int i) const { return U32x4::Load(v_ + 4 * i); }
inline void U32x16::SetBlock(int i, U32x4 block) { block.Store(v_ + 4 * i); }
#endif

inline U32x4 U32x16::FirstBlock() const {
  U32x4 r;
#if SUDOKU_SIMD_AVX512
  r.v_ = _mm512_maskz_extracti32x4_epi32(0xf, v_, 0);
#elif SUDOKU_SIMD_AVX2
  r.v_ = _mm256_castsi256_si128(v_[0]);
#elif SUDOKU_SIMD_SSE41
  r.v_ = v_[0];
#else
  for (int i = 0; i < 4; ++i) r.v_[i] = v_[i];
#endif
  return r;
}

// Lanes of block k all ones, for Boards::Digit().
constexpr uint32_t kDigitBlocks[4][16] = {
    {~0u, ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, ~0u, ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, ~0u, ~0u, ~0u, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ~0u, ~0u, ~0u, 0},
};

class Boards {
 public:
  Boards() = default;

  static Boards Zero() {
    Boards r;
    r.v_[0] = r.v_[1] = U32x16::Zero();
    r.last_ = U32x4::Zero();
    return r;
  }

  // `value` in every word: a constant that is the same for every digit and band.
  static Boards Bands(uint32_t value) {
    Boards r;
    r.v_[0] = r.v_[1] = U32x16::Bands(value);
    r.last_ = U32x4::Bands(value);
    return r;
  }

  // bandN in every digit's word for band N.
  static Boards PerBand(uint32_t band0, uint32_t band1, uint32_t band2) {
    Boards r;
    r.v_[0] = r.v_[1] = U32x16::Blocks(band0, band1, band2, 0);
    r.last_ = U32x4::Blocks(band0, band1, band2, 0);
    return r;
  }

  // All bits in the words of `digit` (0-8), none elsewhere.
  static Boards Digit(int digit) {
    Boards r = Zero();
    if (digit == 8) {
      r.last_ = U32x4::Bands(~0u);
    } else {
      r.v_[digit / 4] = U32x16::Load(kDigitBlocks[digit % 4]);
    }
    return r;
  }

  // The three band words of digit 8: all of a value that is the same for every digit.
  void StoreBands(uint32_t* bands) const {
    uint32_t lanes[4];
    last_.Store(lanes);
    bands[0] = lanes[0];
    bands[1] = lanes[1];
    bands[2] = lanes[2];
  }

  // From and to words[3 * digit + band].
  static Boards Load(const uint32_t* words) {
    uint32_t lanes[36] = {};
    for (int d = 0; d < 9; ++d) {
      for (int b = 0; b < 3; ++b) lanes[4 * d + b] = words[3 * d + b];
    }
    Boards r;
    r.v_[0] = U32x16::Load(lanes);
    r.v_[1] = U32x16::Load(lanes + 16);
    r.last_ = U32x4::Load(lanes + 32);
    return r;
  }
  void Store(uint32_t* words) const {
    uint32_t lanes[36];
    v_[0].Store(lanes);
    v_[1].Store(lanes + 16);
    last_.Store(lanes + 32);
    for (int d = 0; d < 9; ++d) {
      for (int b = 0; b < 3; ++b) words[3 * d + b] = lanes[4 * d + b];
    }
  }

#define SUDOKU_BOARDS_BINARY(name, op)                            \
  friend Boards name(const Boards& a, const Boards& b) {          \
    Boards r;                                                     \
    r.v_[0] = op(a.v_[0], b.v_[0]);                               \
    r.v_[1] = op(a.v_[1], b.v_[1]);                               \
    r.last_ = op(a.last_, b.last_);                               \
    return r;                                                     \
  }
#define SUDOKU_AND(x, y) ((x) & (y))
#define SUDOKU_OR(x, y) ((x) | (y))
  SUDOKU_BOARDS_BINARY(operator&, SUDOKU_AND)
  SUDOKU_BOARDS_BINARY(operator|, SUDOKU_OR)
  // a & ~b: the bits of `a` not in `b`.
  SUDOKU_BOARDS_BINARY(AndNot, AndNot)
#undef SUDOKU_BOARDS_BINARY
#undef SUDOKU_AND
#undef SUDOKU_OR
  Boards& operator&=(const Boards& b) { return *this = *this & b; }
  Boards& operator|=(const Boards& b) { return *this = *this | b; }

  template <int N> Boards ShiftLeft() const {
    Boards r;
    r.v_[0] = v_[0].ShiftLeft<N>();
    r.v_[1] = v_[1].ShiftLeft<N>();
    r.last_ = last_.ShiftLeft<N>();
    return r;
  }
  template <int N> Boards ShiftRight() const {
    Boards r;
    r.v_[0] = v_[0].ShiftRight<N>();
    r.v_[1] = v_[1].ShiftRight<N>();
    r.last_ = last_.ShiftRight<N>();
    return r;
  }
  // Word (d, b) takes word (d, (b + N) % 3).
  template <int N> Boards RotateBands() const {
    Boards r;
    r.v_[0] = v_[0].RotateBands<N>();
    r.v_[1] = v_[1].RotateBands<N>();
    r.last_ = last_.RotateBands<N>();
    return r;
  }

  bool IsZero() const { return (v_[0] | v_[1] | U32x16::ZeroExtend(last_)).IsZero(); }
  friend bool Intersects(const Boards& a, const Boards& b) {
    return !((a.v_[0] & b.v_[0]) | (a.v_[1] & b.v_[1]) |
             U32x16::ZeroExtend(a.last_ & b.last_)).IsZero();
  }
  friend bool SubsetOf(const Boards& a, const Boards& b) { return AndNot(a, b).IsZero(); }

  // f applied to matching parts of `boards`, a part at a time: f is generic over the part types
  // (U32x16, U32x4), which offer the same operations as Boards except the digit counts. Steps
  // that stay within a digit's block run this way, so that only a part's working set is live
  // at once: with AVX-512 and AVX2 the parts are two U32x16 and a U32x4; with SSE and the
  // portable code (16 xmm registers) nine U32x4.
  template <typename F, typename... B> static Boards Map(F f, const B&... boards) {
#if SUDOKU_SIMD_AVX512 || SUDOKU_SIMD_AVX2
    Boards r;
    r.v_[0] = f(boards.v_[0]...);
    r.v_[1] = f(boards.v_[1]...);
    r.last_ = f(boards.last_...);
    return r;
#else
    Boards r;
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < 4; ++i) r.v_[k].SetBlock(i, f(boards.v_[k].Block(i)...));
    }
    r.last_ = f(boards.last_...);
    return r;
#endif
  }

  // Across the nine digits, for every band and bit: out[i] = "at least i + 1 digits have it",
  // the same in every digit's words.
  template <int N> friend void CountDigits(const Boards& x, Boards (&out)[N]) {
    U32x16 count[N];
    count[0] = x.v_[0] | x.v_[1];
    if constexpr (N > 1) count[1] = x.v_[0] & x.v_[1];
    for (int i = 2; i < N; ++i) count[i] = U32x16::Zero();
    // Per block so far (digits d and d + 4); fold the four blocks, then add digit 8.
    for (int step = 0; step < 2; ++step) {
      U32x16 other[N];
      for (int i = 0; i < N; ++i) {
        other[i] = step == 0 ? count[i].SwapAdjacentBlocks() : count[i].SwapBlockPairs();
      }
      for (int i = N - 1; i >= 0; --i) {
        U32x16 sum = count[i] | other[i];
        for (int j = 0; j < i; ++j) sum = sum | (count[j] & other[i - 1 - j]);
        count[i] = sum;
      }
    }
    const U32x16 last = U32x16::Broadcast(x.last_);
    for (int i = N - 1; i > 0; --i) count[i] = count[i] | (count[i - 1] & last);
    count[0] = count[0] | last;
    for (int i = 0; i < N; ++i) {
      out[i].v_[0] = out[i].v_[1] = count[i];
      out[i].last_ = count[i].FirstBlock();
    }
  }

 private:
  U32x16 v_[2];  // digits 0-7, a block each
  U32x4 last_;   // digit 8
};

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#undef SUDOKU_SIMD_AVX512
#undef SUDOKU_SIMD_AVX2
#undef SUDOKU_SIMD_SSE41
#undef SUDOKU_SIMD_PORTABLE

#endif  // SUDOKU_SOLVER_SIMD_H_
