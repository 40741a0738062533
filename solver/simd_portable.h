// simd.h's U32x4 and U32x16 for the baseline CPU: arrays of uint32_t, in loops the compiler
// may vectorise for it (SSE2 on x86-64).
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_PORTABLE_H_
#define SUDOKU_SOLVER_SIMD_PORTABLE_H_

#include <cstdint>

// Boards::Map runs a step a block (a U32x4) at a time, as with SSE4.1.
#define SUDOKU_SIMD_MAP_BY_BLOCK 1
// Boards keeps the ninth digit in a block of its own.
#define SUDOKU_SIMD_SPARE_LANES 0

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

// clang-format off
class U32x4 {
 public:
  U32x4() = default;

  static U32x4 Zero() { return Blocks(0, 0, 0, 0); }
  static U32x4 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x4 r;
    r.v_[0] = l0; r.v_[1] = l1; r.v_[2] = l2; r.v_[3] = l3;
    return r;
  }
  // Lanes 0-2 = `band_value`, lane 3 = 0.
  static U32x4 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  static U32x4 Load(const uint32_t* p) {
    U32x4 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = p[i];
    return r;
  }
  void Store(uint32_t* p) const {
    for (int i = 0; i < 4; ++i) p[i] = v_[i];
  }

#define SUDOKU_PORTABLE_BINARY4(name, op)                                       \
  friend U32x4 name(U32x4 a, U32x4 b) {                                         \
    U32x4 r;                                                                    \
    for (int i = 0; i < 4; ++i) r.v_[i] = op;                                   \
    return r;                                                                   \
  }
  SUDOKU_PORTABLE_BINARY4(operator&, a.v_[i] & b.v_[i])
  SUDOKU_PORTABLE_BINARY4(operator|, a.v_[i] | b.v_[i])
  SUDOKU_PORTABLE_BINARY4(AndNot, a.v_[i] & ~b.v_[i])
  // Lane by lane, modulo 2^32.
  SUDOKU_PORTABLE_BINARY4(operator+, a.v_[i] + b.v_[i])
  SUDOKU_PORTABLE_BINARY4(operator-, a.v_[i] - b.v_[i])
#undef SUDOKU_PORTABLE_BINARY4
  U32x4& operator&=(U32x4 b) { return *this = *this & b; }
  U32x4& operator|=(U32x4 b) { return *this = *this | b; }

  template <int N> U32x4 ShiftLeft() const {
    U32x4 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = v_[i] << N;
    return r;
  }
  template <int N> U32x4 ShiftRight() const {
    U32x4 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = v_[i] >> N;
    return r;
  }
  // As U32x16::RotateBands.
  template <int N> U32x4 RotateBands() const {
    static_assert(N == 1 || N == 2);
    U32x4 r;
    r.v_[0] = v_[N % 3];
    r.v_[1] = v_[(1 + N) % 3];
    r.v_[2] = v_[(2 + N) % 3];
    r.v_[3] = v_[3];
    return r;
  }

  bool IsZero() const { return (v_[0] | v_[1] | v_[2] | v_[3]) == 0; }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const {
    uint32_t lanes = 0;
    for (int i = 0; i < 4; ++i) lanes |= uint32_t{v_[i] != 0} << i;
    return lanes;
  }
  friend bool Intersects(U32x4 a, U32x4 b) { return !(a & b).IsZero(); }

 private:
  friend class U32x16;
  uint32_t v_[4];
};

class U32x16 {
 public:
  U32x16() = default;


  static U32x16 Zero() {
    U32x16 r;
    for (auto& x : r.v_) x = 0;
    return r;
  }

  // The same four lanes in every block.
  static U32x16 Blocks(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
    U32x16 r;
    for (int i = 0; i < 16; i += 4) {
      r.v_[i] = l0; r.v_[i + 1] = l1; r.v_[i + 2] = l2; r.v_[i + 3] = l3;
    }
    return r;
  }

  // Lanes 0-2 of every block = `band_value`, lane 3 = 0: a constant over the three bands.
  static U32x16 Bands(uint32_t band_value) { return Blocks(band_value, band_value, band_value, 0); }

  // As Bands(), in block 0 only; blocks 1-3 zero.
  static U32x16 FirstBlockBands(uint32_t band_value) {
    U32x16 r;
    for (auto& x : r.v_) x = 0;
    r.v_[0] = r.v_[1] = r.v_[2] = band_value;
    return r;
  }

  static U32x16 Load(const uint32_t* p) {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = p[i];
    return r;
  }

  void Store(uint32_t* p) const {
    for (int i = 0; i < 16; ++i) p[i] = v_[i];
  }

#define SUDOKU_PORTABLE_BINARY(name, op)                                    \
  friend U32x16 name(U32x16 a, U32x16 b) {                                  \
    U32x16 r;                                                               \
    for (int i = 0; i < 16; ++i) r.v_[i] = op;                              \
    return r;                                                               \
  }
  SUDOKU_PORTABLE_BINARY(operator&, a.v_[i] & b.v_[i])
  SUDOKU_PORTABLE_BINARY(operator|, a.v_[i] | b.v_[i])
  SUDOKU_PORTABLE_BINARY(operator^, a.v_[i] ^ b.v_[i])
  // Lane by lane, modulo 2^32.
  SUDOKU_PORTABLE_BINARY(operator+, a.v_[i] + b.v_[i])
  SUDOKU_PORTABLE_BINARY(operator-, a.v_[i] - b.v_[i])
  // a & ~b: the bits of `a` not in `b`.
  SUDOKU_PORTABLE_BINARY(AndNot, a.v_[i] & ~b.v_[i])
#undef SUDOKU_PORTABLE_BINARY

  U32x16& operator&=(U32x16 b) { return *this = *this & b; }
  U32x16& operator|=(U32x16 b) { return *this = *this | b; }

  // Each lane shifted by N bits.
  template <int N> U32x16 ShiftLeft() const {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i] << N;
    return r;
  }
  template <int N> U32x16 ShiftRight() const {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i] >> N;
    return r;
  }

  // Within every block, lanes 0-2 rotate: lane i takes lane (i + N) % 3; lane 3 stays.
  template <int N> U32x16 RotateBands() const {
    static_assert(N == 1 || N == 2);
    U32x16 r;
    for (int b = 0; b < 16; b += 4) {
      r.v_[b] = v_[b + N % 3];
      r.v_[b + 1] = v_[b + (1 + N) % 3];
      r.v_[b + 2] = v_[b + (2 + N) % 3];
      r.v_[b + 3] = v_[b + 3];
    }
    return r;
  }

  // Blocks (0,1,2,3) -> (1,0,3,2).
  U32x16 SwapAdjacentBlocks() const {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i ^ 4];
    return r;
  }

  // Blocks (0,1,2,3) -> (2,3,0,1).
  U32x16 SwapBlockPairs() const {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = v_[i ^ 8];
    return r;
  }

  bool IsZero() const {
    uint32_t x = 0;
    for (int i = 0; i < 16; ++i) x |= v_[i];
    return x == 0;
  }
  // Bit i set when lane i is not zero.
  uint32_t NonZeroLanes() const {
    uint32_t lanes = 0;
    for (int i = 0; i < 16; ++i) lanes |= uint32_t{v_[i] != 0} << i;
    return lanes;
  }

  // Do `a` and `b` share a set bit?
  friend bool Intersects(U32x16 a, U32x16 b) { return !(a & b).IsZero(); }

  // Is every bit of `a` also in `b`?
  friend bool SubsetOf(U32x16 a, U32x16 b) { return AndNot(a, b).IsZero(); }

  // The block in all four blocks, and block 0 alone; block 0.
  static U32x16 Broadcast(U32x4 block) {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = block.v_[i % 4];
    return r;
  }
  static U32x16 ZeroExtend(U32x4 block) {
    U32x16 r;
    for (int i = 0; i < 16; ++i) r.v_[i] = i < 4 ? block.v_[i] : 0;
    return r;
  }
  U32x4 FirstBlock() const {
    U32x4 r;
    for (int i = 0; i < 4; ++i) r.v_[i] = v_[i];
    return r;
  }
  // Block i, as a U32x4 (free: the blocks are separate arrays).
  U32x4 Block(int i) const { return U32x4::Load(v_ + 4 * i); }
  void SetBlock(int i, U32x4 block) { block.Store(v_ + 4 * i); }

 private:
  uint32_t v_[16];
};
// clang-format on

// Bit i set where p[i] == value, for the 32 bytes at p (the kernel reads a band's 27 cells).
inline uint32_t MatchBytes(const uint8_t* p, uint8_t value) {
  uint32_t bits = 0;
  for (int i = 0; i < 32; ++i) bits |= uint32_t{p[i] == value} << i;
  return bits;
}

// Writes 32 bytes at `out`: byte i is '1' + d for the digit d whose word words[3 * d + band] has
// bit i, or 0 when none has (bits 27-31 are never set: those bytes are 0).
inline void WriteDigits(const uint32_t* words, int band, char* out) {
  for (int i = 0; i < 32; ++i) out[i] = 0;
  for (int d = 0; d < 9; ++d) {
    for (uint32_t bits = words[3 * d + band]; bits != 0; bits &= bits - 1) {
      out[__builtin_ctz(bits)] = static_cast<char>('1' + d);
    }
  }
}

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#endif  // SUDOKU_SOLVER_SIMD_PORTABLE_H_
