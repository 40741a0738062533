// Internal to the chain techniques (logic_chains.cc): how long a start's shortest chain is,
// learnt a breadth-first layer at a time on bitsets of the graph's nodes (logic_chain_graph.h).
//
// The links are kept as a bitset of neighbours per node, so that a layer is the union of its
// nodes' neighbour sets instead of a walk of each link. The sets are W words wide, W fixed at
// compile time (Chains() picks the least that holds the graph): the unions are then a few
// straight-line operations on values kept in registers, where a width known only at run time
// made them loops through memory, the hottest code of the chain searches.
//
// Thread-safety: values built per call.
#ifndef SUDOKU_SOLVER_LOGIC_CHAIN_LAYERS_H_
#define SUDOKU_SOLVER_LOGIC_CHAIN_LAYERS_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/logic_board.h"
#include "solver/logic_chain_graph.h"

namespace sudoku::logic::internal {

// The most nodes a graph can have: every candidate, and six groups per digit and box (its three
// rows and three columns).
inline constexpr size_t kMaxChainNodes = kCells * 9 + 9 * 9 * 6;

// Layers are built once for the three kinds of chain; Select() masks the links down to one
// kind's.
template <size_t W>
class Layers {
 public:
  using Set = std::array<uint64_t, W>;  // bit n for node n
  static_assert(W >= 1 && W <= (kMaxChainNodes + 63) / 64);

  explicit Layers(const ChainGraph& graph)
      : nodes_(graph.nodes.size()),
        all_strong_(nodes_),
        all_weak_(nodes_),
        useful_(nodes_),
        useful_known_(nodes_) {
    for (const auto& [a, b] : graph.strong) Add(all_strong_[a], b), Add(all_strong_[b], a);
    for (const auto& [a, b] : graph.weak) Add(all_weak_[a], b), Add(all_weak_[b], a);
    // What a node removes when on is a candidate it is weakly linked to (WeakTargets()), and a
    // candidate is its one-cell node: node n's removals are its weak neighbours among the
    // one-cell nodes, and the nodes that remove candidate c are c's weak neighbours.
    for (size_t node = 0; node < graph.single_nodes; ++node) Add(singles_, node);
  }

  // From now on, ShortestLength() follows only `kind`'s links.
  void Select(ChainKind kind, const ChainGraph& graph, const Board& board) {
    kept_ = Set{};
    for (size_t node = 0; node < nodes_; ++node) {
      if (InChains(kind, graph, board, static_cast<int>(node))) Add(kept_, node);
    }
    if (kind == ChainKind::kAic) {
      strong_ = &all_strong_;
      weak_ = &all_weak_;
      return;
    }
    // The kind's nodes of each digit: a kind's link is an AIC link between two of its nodes, of
    // one digit or (xy-chains' strong links) of two.
    std::array<Set, 10> by_digit{};
    for (size_t node = 0; node < nodes_; ++node) {
      if (Selected(node)) Add(by_digit[static_cast<size_t>(graph.nodes[node].digit)], node);
    }
    kind_strong_.assign(nodes_, Set{});
    kind_weak_.assign(nodes_, Set{});
    for (size_t node = 0; node < nodes_; ++node) {
      if (!Selected(node)) continue;
      const Set& digit = by_digit[static_cast<size_t>(graph.nodes[node].digit)];
      for (size_t w = 0; w < W; ++w) {
        const uint64_t other_digits = kept_[w] & ~digit[w];
        kind_strong_[node][w] =
            all_strong_[node][w] & (kind == ChainKind::kX ? digit[w] : other_digits);
        kind_weak_[node][w] = all_weak_[node][w] & digit[w];
      }
    }
    strong_ = &kind_strong_;
    weak_ = &kind_weak_;
  }

  // The ends whose removals share a candidate with `start`'s, kept for the other kinds and the
  // second round.
  const Set& Useful(size_t start) {
    Set& useful = useful_[start];
    if (!useful_known_[start]) {
      useful_known_[start] = true;
      for (size_t w = 0; w < W; ++w) {
        for (uint64_t bits = all_weak_[start][w] & singles_[w]; bits; bits &= bits - 1) {
          Or(useful, all_weak_[w * 64 + static_cast<size_t>(std::countr_zero(bits))]);
        }
      }
    }
    return useful;
  }
  static bool Has(const Set& set, size_t node) { return set[node / 64] >> (node % 64) & 1; }

  // Whether the selected kind's chains use `node`.
  bool Selected(size_t node) const { return Has(kept_, node); }

  // The links of the shortest chain from `start` (off) of at most `longest` links whose ends
  // remove something, or 0 if there is none: a link-by-link breadth-first search's answer, a
  // layer at a time. Sets *exhausted when there is none of any length (the search ran out of
  // nodes).
  int ShortestLength(size_t start, int longest, bool* exhausted) {
    *exhausted = false;
    if (Empty((*strong_)[start])) {
      *exhausted = true;  // no strong link to begin with
      return 0;
    }
    // Empty exactly when the start removes nothing: a candidate it removes is weakly linked
    // back to it.
    const Set& useful = Useful(start);
    if (Empty(useful)) {
      *exhausted = true;
      return 0;
    }
    // The nodes reached off, and on; the layer's nodes are off at even depths, on at odd.
    Set seen_off{}, seen_on{}, layer{};
    Add(layer, start);
    Add(seen_off, start);
    for (int depth = 0; depth < longest; ++depth) {
      const bool on = depth % 2 == 1;
      const std::vector<Set>& links = on ? *weak_ : *strong_;
      Set next{};
      for (size_t w = 0; w < W; ++w) {
        for (uint64_t bits = layer[w]; bits; bits &= bits - 1) {
          Or(next, links[w * 64 + static_cast<size_t>(std::countr_zero(bits))]);
        }
      }
      Set& seen = on ? seen_off : seen_on;
      uint64_t any = 0, hit = 0;
      for (size_t w = 0; w < W; ++w) {
        next[w] &= ~seen[w];
        seen[w] |= next[w];
        any |= next[w];
        hit |= next[w] & useful[w];
      }
      if (!on && hit) return depth + 1;
      if (!any) {
        *exhausted = true;
        return 0;
      }
      layer = next;
    }
    return 0;
  }

 private:
  static void Add(Set& set, size_t node) { set[node / 64] |= uint64_t{1} << (node % 64); }
  static void Or(Set& into, const Set& from) {
    for (size_t w = 0; w < W; ++w) into[w] |= from[w];
  }
  static bool Empty(const Set& set) {
    uint64_t any = 0;
    for (size_t w = 0; w < W; ++w) any |= set[w];
    return any == 0;
  }

  size_t nodes_;
  // Each node's neighbours by every link, and by the selected kind's (strong_ and weak_ point
  // to one or the other).
  std::vector<Set> all_strong_, all_weak_, kind_strong_, kind_weak_;
  Set kept_{};  // the selected kind's nodes
  const std::vector<Set>* strong_ = &all_strong_;
  const std::vector<Set>* weak_ = &all_weak_;
  Set singles_{};  // the one-cell nodes, which are the open candidates
  std::vector<Set> useful_;  // per node, the ends useful to it, where useful_known_
  std::vector<bool> useful_known_;
};

}  // namespace sudoku::logic::internal

#endif  // SUDOKU_SOLVER_LOGIC_CHAIN_LAYERS_H_
