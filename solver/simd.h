// The vector types of the solving kernel, with the few named operations it needs. Only the
// simd headers in solver/ call intrinsics.
//
//   U32x16  sixteen 32-bit lanes, seen as four 128-bit blocks of four lanes
//   U32x4   one such block
//   Boards  the nine digits' candidate boards (two U32x16 and a U32x4; with AVX-512, two
//           registers: see SUDOKU_SIMD_SPARE_LANES), the value kernel.inc
//           works on: bitwise operations, shifts, band rotations, counts across digits, and
//           Map() to run a step a part at a time
//
// U32x16 and U32x4 come from one header per instruction set, each the narrowest natural mapping
// of U32x16, with the same operations and one code path each:
//
//   simd_avx512.h    one __m512i
//   simd_avx2.h      two __m256i     (blocks 0-1, blocks 2-3)
//   simd_sse41.h     four __m128i    (one per block; block swaps are renames)
//   simd_portable.h  sixteen uint32_t, in loops the compiler may vectorise for the baseline CPU
//
// (U32x4 is an __m128i in the first three: simd_block_sse41.h.) Boards, below, is written once
// over them. Adding an instruction set adds its header and a line in solver/isa.def.
//
// This header is included once per kernel translation unit (through kernel.inc), which
// sudoku_add_isa_sources() (solver/CMakeLists.txt) generates from solver/isa.def: it defines
// SUDOKU_KERNEL_SIMD, the header to use, and SUDOKU_KERNEL_NAMESPACE. The types live in that
// kernel's own namespace, sudoku::<SUDOKU_KERNEL_NAMESPACE>, in an anonymous namespace, so their
// code never merges across kernels built with different flags.
//
// Thread-safety: values only; no state.
#ifndef SUDOKU_SOLVER_SIMD_H_
#define SUDOKU_SOLVER_SIMD_H_

#ifndef SUDOKU_KERNEL_NAMESPACE
#error "define SUDOKU_KERNEL_NAMESPACE (the kernel's namespace) before including simd.h"
#endif
#ifndef SUDOKU_KERNEL_SIMD
#error "define SUDOKU_KERNEL_SIMD (the kernel's simd_<isa>.h) before including simd.h"
#endif

#include <cstdint>

#include SUDOKU_KERNEL_SIMD

#ifndef SUDOKU_SIMD_MAP_BY_BLOCK
#error "the kernel's simd_<isa>.h must say how Boards::Map splits a step (SUDOKU_SIMD_MAP_BY_BLOCK)"
#endif
#ifndef SUDOKU_SIMD_SPARE_LANES
#error "simd_<isa>.h must say where Boards keeps the ninth digit (SUDOKU_SIMD_SPARE_LANES)"
#endif

namespace sudoku::SUDOKU_KERNEL_NAMESPACE {
namespace {

// Lanes of block k all ones, for Boards::Digit().
constexpr uint32_t kDigitBlocks[4][16] = {
    {~0u, ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, ~0u, ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, ~0u, ~0u, ~0u, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ~0u, ~0u, ~0u, 0},
};

// For lanes in blocks of four (one block per digit): bit k set when lanes 0-2 of block k hold a
// set bit, from the blocks' NonZeroLanes().
inline uint32_t BlocksMeeting(uint32_t lanes) {
  const uint32_t t = (lanes | lanes >> 1 | lanes >> 2) & 0x1111u;
  return (t & 1u) | (t >> 3 & 2u) | (t >> 6 & 4u) | (t >> 9 & 8u);
}

// For every lane: count[i] = "at least i + 1 of the nine digits have the bit", where `first` and
// `second` hold eight digits a block each and `ninth` the last one in every block; the counts
// come out the same in every block. Per block first (digits d and d + 4), then the four blocks
// folded, then the ninth digit added.
template <int N>
inline void CountAcrossDigits(const U32x16& first, const U32x16& second, const U32x16& ninth,
                              U32x16 (&count)[N]) {
  count[0] = first | second;
  if constexpr (N > 1) count[1] = first & second;
  for (int i = 2; i < N; ++i) count[i] = U32x16::Zero();
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
  for (int i = N - 1; i > 0; --i) count[i] = count[i] | (count[i - 1] & ninth);
  count[0] = count[0] | ninth;
}

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
// bit that no live word had. The 27 words are not packed into two vectors: band and digit
// rotations would then cross 128-bit lanes, and those permutes cost more than the third vector
// saves.
//
// With AVX-512 (SUDOKU_SIMD_SPARE_LANES), digit 9 lives in the unused lanes of the first register
// instead, lane 3 of blocks 0-2 (U32x16Spare), and Boards is two registers: each operation takes
// two instructions instead of three, and only that register's band rotations and the counts
// across digits cross blocks, one permute each; two registers measured faster than three.
#if SUDOKU_SIMD_SPARE_LANES

// Digit 9's lanes all ones, for Boards::Digit().
constexpr uint32_t kSpareDigit[16] = {0, 0, 0, ~0u, 0, 0, 0, ~0u, 0, 0, 0, ~0u, 0, 0, 0, 0};

class Boards {
 public:
  Boards() = default;

  static Boards Zero() {
    Boards r;
    r.low_ = U32x16Spare::Zero();
    r.high_ = U32x16::Zero();
    return r;
  }
  static Boards Bands(uint32_t value) {
    Boards r;
    r.low_ = U32x16Spare::Bands(value);
    r.high_ = U32x16::Bands(value);
    return r;
  }
  static Boards PerBand(uint32_t band0, uint32_t band1, uint32_t band2) {
    Boards r;
    r.low_ = U32x16Spare::PerBand(band0, band1, band2);
    r.high_ = U32x16::Blocks(band0, band1, band2, 0);
    return r;
  }
  static Boards Digit(int digit) {
    Boards r = Zero();
    if (digit == 8) {
      r.low_ = U32x16Spare::Load(kSpareDigit);
    } else if (digit < 4) {
      r.low_ = U32x16Spare::Load(kDigitBlocks[digit]);
    } else {
      r.high_ = U32x16::Load(kDigitBlocks[digit - 4]);
    }
    return r;
  }
  void StoreBands(uint32_t* bands) const {
    uint32_t lanes[16];
    high_.Store(lanes);
    bands[0] = lanes[0];
    bands[1] = lanes[1];
    bands[2] = lanes[2];
  }
  static Boards Load(const uint32_t* words) {
    uint32_t lanes[32] = {};
    for (int d = 0; d < 8; ++d) {
      for (int b = 0; b < 3; ++b) lanes[4 * d + b] = words[3 * d + b];
    }
    for (int b = 0; b < 3; ++b) lanes[4 * b + 3] = words[24 + b];
    Boards r;
    r.low_ = U32x16Spare::Load(lanes);
    r.high_ = U32x16::Load(lanes + 16);
    return r;
  }
  void Store(uint32_t* words) const {
    uint32_t lanes[32];
    low_.Store(lanes);
    high_.Store(lanes + 16);
    for (int d = 0; d < 8; ++d) {
      for (int b = 0; b < 3; ++b) words[3 * d + b] = lanes[4 * d + b];
    }
    for (int b = 0; b < 3; ++b) words[24 + b] = lanes[4 * b + 3];
  }

  friend Boards operator&(const Boards& a, const Boards& b) {
    return {a.low_ & b.low_, a.high_ & b.high_};
  }
  friend Boards operator|(const Boards& a, const Boards& b) {
    return {a.low_ | b.low_, a.high_ | b.high_};
  }
  friend Boards AndNot(const Boards& a, const Boards& b) {
    return {AndNot(a.low_, b.low_), AndNot(a.high_, b.high_)};
  }
  Boards& operator&=(const Boards& b) { return *this = *this & b; }
  Boards& operator|=(const Boards& b) { return *this = *this | b; }

  template <int N> Boards ShiftLeft() const {
    return {low_.ShiftLeft<N>(), high_.ShiftLeft<N>()};
  }
  template <int N> Boards ShiftRight() const {
    return {low_.ShiftRight<N>(), high_.ShiftRight<N>()};
  }
  template <int N> Boards RotateBands() const {
    return {low_.RotateBands<N>(), high_.RotateBands<N>()};
  }

  // Bit d set when digit d's words share a set bit with `x`'s.
  uint32_t DigitsMeeting(const Boards& x) const {
    const uint32_t low = (low_ & x.low_).NonZeroLanes();
    return BlocksMeeting(low) | BlocksMeeting((high_ & x.high_).NonZeroLanes()) << 4 |
           uint32_t{(low & 0x888u) != 0} << 8;
  }

  bool IsZero() const { return (low_.AllLanes() | high_).IsZero(); }
  friend bool Intersects(const Boards& a, const Boards& b) {
    return !((a.low_ & b.low_).AllLanes() | (a.high_ & b.high_)).IsZero();
  }
  friend bool SubsetOf(const Boards& a, const Boards& b) { return AndNot(a, b).IsZero(); }

  template <typename F, typename... B> static Boards Map(F f, const B&... boards) {
    return {f(boards.low_...), f(boards.high_...)};
  }

  // As below: the ninth digit comes out of the spare lanes as a block of its own, and the
  // counts go back into them.
  template <int N> friend void CountDigits(const Boards& x, Boards (&out)[N]) {
    U32x16 count[N];
    CountAcrossDigits(x.low_.WithoutSpare(), x.high_, x.low_.SpareAsBlocks(), count);
    for (int i = 0; i < N; ++i) {
      out[i].low_ = U32x16Spare::FromBlocks(count[i]);
      out[i].high_ = count[i];
    }
  }

 private:
  Boards(U32x16Spare low, U32x16 high) : low_(low), high_(high) {}

  U32x16Spare low_;  // digits 1-4, a block each, and digit 9 in lanes 3, 7 and 11
  U32x16 high_;      // digits 5-8
};

#else  // !SUDOKU_SIMD_SPARE_LANES

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

  // Bit d set when digit d's words share a set bit with `x`'s.
  uint32_t DigitsMeeting(const Boards& x) const {
    return BlocksMeeting((v_[0] & x.v_[0]).NonZeroLanes()) |
           BlocksMeeting((v_[1] & x.v_[1]).NonZeroLanes()) << 4 |
           uint32_t{(last_ & x.last_).NonZeroLanes() != 0} << 8;
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
  // portable code (16 xmm registers) nine U32x4, as SUDOKU_SIMD_MAP_BY_BLOCK in their headers
  // says. (A U32x16::Map per header in place of this #if added a call level that changed g++
  // 12's inlining: the AVX2 kernel's ChooseBranch came out of line and the SSE4.1 kernel's
  // EliminateLocked grew by 30%.)
  template <typename F, typename... B> static Boards Map(F f, const B&... boards) {
    Boards r;
#if SUDOKU_SIMD_MAP_BY_BLOCK
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < 4; ++i) r.v_[k].SetBlock(i, f(boards.v_[k].Block(i)...));
    }
#else
    r.v_[0] = f(boards.v_[0]...);
    r.v_[1] = f(boards.v_[1]...);
#endif
    r.last_ = f(boards.last_...);
    return r;
  }

  // Across the nine digits, for every band and bit: out[i] = "at least i + 1 digits have it",
  // the same in every digit's words.
  template <int N> friend void CountDigits(const Boards& x, Boards (&out)[N]) {
    U32x16 count[N];
    CountAcrossDigits(x.v_[0], x.v_[1], U32x16::Broadcast(x.last_), count);
    for (int i = 0; i < N; ++i) {
      out[i].v_[0] = out[i].v_[1] = count[i];
      out[i].last_ = count[i].FirstBlock();
    }
  }

 private:
  U32x16 v_[2];  // digits 0-7, a block each
  U32x4 last_;   // digit 8
};

#endif  // SUDOKU_SIMD_SPARE_LANES

}  // namespace
}  // namespace sudoku::SUDOKU_KERNEL_NAMESPACE

#undef SUDOKU_SIMD_MAP_BY_BLOCK
#undef SUDOKU_SIMD_SPARE_LANES

#endif  // SUDOKU_SOLVER_SIMD_H_
