// The chain techniques of logic_board.h: x-chains (one digit), xy-chains (bivalue cells) and
// alternating inference chains with grouped nodes, searched on the graphs of
// logic_chain_graph.h.
//
// A chain is searched breadth first over node states: from a node off, a strong link turns the
// next node on; from a node on, a weak link turns the next one off. A chain from a start S (off)
// to a node E (on) proves that S or E is true, so a candidate weakly linked to both goes.
// Breadth first finds each start's shortest such chain; the step keeps the shortest of all.
//
// Most starts have no chain, and most steps that get here find none, so the search is in two
// parts: Layers learns a start's shortest chain length a layer at a time on bitsets, and only a
// start whose chain wins is searched again link by link (ShortestChainFrom), which picks the
// chain among those of that length exactly as a search of every start link by link would.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include "solver/logic_board.h"
#include "solver/logic_chain_graph.h"

namespace sudoku::logic::internal {
namespace {

// The longest chain searched in each round, in links: past the last, a forcing chain reads
// better.
constexpr std::array<int, 2> kChainRounds = {9, 21};

// Links as flat lists: node n's neighbours are targets[offsets[n] .. offsets[n + 1]).
struct Adjacency {
  std::vector<int> offsets;
  std::vector<int> targets;

  // From (a, b) pairs, each linking both ways.
  void Build(size_t nodes, const std::vector<std::pair<int, int>>& pairs) {
    offsets.assign(nodes + 1, 0);
    for (const auto& [a, b] : pairs) ++offsets[a + 1], ++offsets[b + 1];
    for (size_t n = 0; n < nodes; ++n) offsets[n + 1] += offsets[n];
    targets.resize(pairs.size() * 2);
    std::vector<int> next(offsets.begin(), offsets.end() - 1);
    for (const auto& [a, b] : pairs) targets[next[a]++] = b, targets[next[b]++] = a;
  }
  bool Empty(int node) const { return offsets[node] == offsets[node + 1]; }
};

// A chain found: its nodes from start to end (strong, weak, ..., strong) and what it removes.
struct Chain {
  std::vector<int> nodes;
  std::array<CellSet, 10> removes{};
};

bool AnyRemoval(const std::array<CellSet, 10>& removes) {
  for (const CellSet& cells : removes) {
    if (!cells.Empty()) return true;
  }
  return false;
}

// Breadth-first search state, kept across starts: parent[state] is the state it was reached
// from (-1 for the start, -2 for none yet), state = node * 2 + on. With the graph's links as
// lists.
struct Search {
  std::vector<int> parent;
  std::vector<int> depth;
  std::vector<int> queue;
  Adjacency strong;
  Adjacency weak;

  Search(ChainKind kind, const ChainGraph& graph, const Board& board)
      : parent(graph.nodes.size() * 2, -2), depth(graph.nodes.size() * 2, 0) {
    for (const bool is_strong : {true, false}) {
      const std::vector<std::pair<int, int>>& all = is_strong ? graph.strong : graph.weak;
      std::vector<std::pair<int, int>> links;
      links.reserve(all.size());
      for (const auto& link : all) {
        if (InChains(kind, graph, board, link, is_strong)) links.push_back(link);
      }
      (is_strong ? strong : weak).Build(graph.nodes.size(), links);
    }
  }
};

// The shortest chain from `start` (off), of at most `longest` links, to a node on whose
// removals are not empty.
bool ShortestChainFrom(const ChainGraph& graph, const Board& board, int start, int longest,
                       Search& search, Chain* chain) {
  if (search.strong.Empty(start)) return false;
  const std::array<CellSet, 10> start_targets = WeakTargets(board, graph.nodes[start]);
  for (int state : search.queue) search.parent[state] = -2;
  search.queue.clear();
  search.queue.push_back(start * 2);
  search.parent[start * 2] = -1;
  search.depth[start * 2] = 0;
  for (size_t head = 0; head < search.queue.size(); ++head) {
    const int state = search.queue[head];
    const int node = state / 2;
    const bool on = state % 2;
    if (search.depth[state] >= longest) break;
    const Adjacency& links = on ? search.weak : search.strong;
    for (int i = links.offsets[node]; i < links.offsets[node + 1]; ++i) {
      const int next = links.targets[i];
      const int next_state = next * 2 + !on;
      if (search.parent[next_state] != -2) continue;
      search.parent[next_state] = state;
      search.depth[next_state] = search.depth[state] + 1;
      search.queue.push_back(next_state);
      if (on) continue;
      const std::array<CellSet, 10> end_targets = WeakTargets(board, graph.nodes[next]);
      std::array<CellSet, 10> removes;
      for (int d = 1; d <= 9; ++d) removes[d] = start_targets[d] & end_targets[d];
      if (!AnyRemoval(removes)) continue;
      chain->removes = removes;
      chain->nodes.clear();
      for (int s = next_state; s >= 0; s = search.parent[s]) chain->nodes.push_back(s / 2);
      std::reverse(chain->nodes.begin(), chain->nodes.end());
      return true;
    }
  }
  return false;
}

// The links again, as a bitset of neighbours per node, to learn how long a start's shortest
// chain is without walking each link: a breadth-first layer is then the union of its nodes'
// neighbour sets. ShortestChain() asks this of every start and walks the links (to get the very
// chain ShortestChainFrom() finds) only from a start that has a chain short enough. Built once
// for the three kinds of chain; Select() masks the links down to one kind's.
class Layers {
 public:
  Layers(const Board& board, const ChainGraph& graph)
      : nodes_(graph.nodes.size()),
        words_((nodes_ + 63) / 64),
        all_strong_(nodes_ * words_),
        all_weak_(nodes_ * words_),
        useful_(nodes_ * words_), useful_known_(nodes_),
        seen_(2 * words_), layer_(words_), next_(words_) {
    for (const auto& [a, b] : graph.strong) {
      Add(&all_strong_[static_cast<size_t>(a) * words_], b);
      Add(&all_strong_[static_cast<size_t>(b) * words_], a);
    }
    for (const auto& [a, b] : graph.weak) {
      Add(&all_weak_[static_cast<size_t>(a) * words_], b);
      Add(&all_weak_[static_cast<size_t>(b) * words_], a);
    }
    // Per open candidate, the nodes that would remove it: an end is useful to a start when
    // they remove a candidate in common.
    std::array<int, kCells * 9> slot{};
    int candidates = 0;
    for (int cell = 0; cell < kCells; ++cell) {
      for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
        slot[cell * 9 + LowestDigit(d) - 1] = candidates++;
      }
    }
    removers_.assign(static_cast<size_t>(candidates) * words_, 0);
    removes_.reserve(nodes_ * 8);
    removes_from_.reserve(nodes_ + 1);
    for (size_t node = 0; node < nodes_; ++node) {
      removes_from_.push_back(removes_.size());
      const auto removes = [&](int cell, int digit) {
        const size_t row = static_cast<size_t>(slot[cell * 9 + digit - 1]);
        Add(&removers_[row * words_], static_cast<int>(node));
        removes_.push_back(row);
      };
      // WeakTargets(), without building its sets.
      const ChainNode& n = graph.nodes[node];
      CellSet seen = board.CellsWith(n.digit);
      for (int i = 0; i < n.size; ++i) seen = seen & Table().peer_set[n.list[i]];
      seen.ForEach([&](int cell) { removes(cell, n.digit); });
      if (n.size == 1) {
        for (uint16_t d = board.open[n.list[0]] & ~Bit(n.digit); d; d = WithoutLowest(d)) {
          removes(n.list[0], LowestDigit(d));
        }
      }
    }
    removes_from_.push_back(removes_.size());
  }

  // From now on, ShortestLength() follows only `kind`'s links.
  void Select(ChainKind kind, const ChainGraph& graph, const Board& board) {
    kept_.assign(words_, 0);
    for (size_t node = 0; node < nodes_; ++node) {
      if (InChains(kind, graph, board, static_cast<int>(node))) {
        Add(kept_.data(), static_cast<int>(node));
      }
    }
    if (kind == ChainKind::kAic) {
      strong_ = &all_strong_;
      weak_ = &all_weak_;
      return;
    }
    // The kind's nodes of each digit: a kind's link is an AIC link between two of its nodes, of
    // one digit or (xy-chains' strong links) of two.
    std::vector<uint64_t> by_digit(10 * words_);
    for (size_t node = 0; node < nodes_; ++node) {
      if (!Selected(node)) continue;
      const size_t digit = static_cast<size_t>(graph.nodes[node].digit);
      Add(&by_digit[digit * words_], static_cast<int>(node));
    }
    kind_strong_.assign(nodes_ * words_, 0);
    kind_weak_.assign(nodes_ * words_, 0);
    for (size_t node = 0; node < nodes_; ++node) {
      if (!Selected(node)) continue;
      const uint64_t* digit = &by_digit[static_cast<size_t>(graph.nodes[node].digit) * words_];
      for (size_t w = 0; w < words_; ++w) {
        const uint64_t other_digits = kept_[w] & ~digit[w];
        kind_strong_[node * words_ + w] =
            all_strong_[node * words_ + w] & (kind == ChainKind::kX ? digit[w] : other_digits);
        kind_weak_[node * words_ + w] = all_weak_[node * words_ + w] & digit[w];
      }
    }
    strong_ = &kind_strong_;
    weak_ = &kind_weak_;
  }

  // Whether the selected kind's chains use `node`.
  bool Selected(size_t node) const { return kept_[node / 64] >> (node % 64) & 1; }

  // The links of the shortest chain from `start` (off) of at most `longest` links whose ends
  // remove something, or 0 if there is none: ShortestChainFrom()'s search, a layer at a time.
  // Sets *exhausted when there is none of any length (the search ran out of nodes).
  int ShortestLength(size_t start, int longest, bool* exhausted) {
    *exhausted = false;
    const uint64_t* strong = &(*strong_)[start * words_];
    if (removes_from_[start] == removes_from_[start + 1] ||
        std::all_of(strong, strong + words_, [](uint64_t w) { return w == 0; })) {
      *exhausted = true;  // no strong link to begin with, or nothing to remove
      return 0;
    }
    // The ends useful to this start, kept for the other kinds and the second round.
    uint64_t* useful = &useful_[start * words_];
    if (!useful_known_[start]) {
      useful_known_[start] = true;
      for (size_t i = removes_from_[start]; i < removes_from_[start + 1]; ++i) {
        Or(useful, &removers_[removes_[i] * words_]);
      }
    }
    std::fill(seen_.begin(), seen_.end(), 0);
    std::fill(layer_.begin(), layer_.end(), 0);
    // The nodes reached off are seen_[0, words_), those reached on seen_[words_, 2 words_).
    Add(layer_.data(), static_cast<int>(start));
    Add(&seen_[0], static_cast<int>(start));
    for (int depth = 0; depth < longest; ++depth) {
      const bool on = depth % 2 == 1;  // the layer's nodes: off at even depths, on at odd
      const std::vector<uint64_t>& links = on ? *weak_ : *strong_;
      std::fill(next_.begin(), next_.end(), 0);
      for (size_t w = 0; w < words_; ++w) {
        for (uint64_t bits = layer_[w]; bits; bits &= bits - 1) {
          const size_t node = w * 64 + static_cast<size_t>(std::countr_zero(bits));
          Or(next_.data(), &links[node * words_]);
        }
      }
      uint64_t* seen = &seen_[on ? 0 : words_];
      uint64_t any = 0, hit = 0;
      for (size_t w = 0; w < words_; ++w) {
        next_[w] &= ~seen[w];
        seen[w] |= next_[w];
        any |= next_[w];
        hit |= next_[w] & useful[w];
      }
      if (!on && hit) return depth + 1;
      if (!any) {
        *exhausted = true;
        return 0;
      }
      std::swap(layer_, next_);
    }
    return 0;
  }

 private:
  static void Add(uint64_t* set, int node) {
    set[node / 64] |= uint64_t{1} << (node % 64);
  }
  void Or(uint64_t* into, const uint64_t* from) const {
    for (size_t w = 0; w < words_; ++w) into[w] |= from[w];
  }

  size_t nodes_;
  size_t words_;  // per set of nodes
  // Node n's neighbours at [n * words_, (n + 1) * words_): by every link, and by the selected
  // kind's (strong_ and weak_ point to one or the other).
  std::vector<uint64_t> all_strong_, all_weak_, kind_strong_, kind_weak_;
  std::vector<uint64_t> kept_;  // the selected kind's nodes
  const std::vector<uint64_t>* strong_ = &all_strong_;
  const std::vector<uint64_t>* weak_ = &all_weak_;
  std::vector<uint64_t> removers_;  // per open candidate, the nodes that remove it
  // Node n removes the candidates of rows removes_[removes_from_[n] .. removes_from_[n + 1]).
  std::vector<size_t> removes_, removes_from_;
  std::vector<uint64_t> useful_;     // per node, the ends useful to it, where useful_known_
  std::vector<bool> useful_known_;
  std::vector<uint64_t> seen_, layer_, next_;  // ShortestLength()'s state
};

Node PublicNode(const ChainNode& node) {
  return Node{static_cast<uint8_t>(node.digit),
              std::vector<uint8_t>(node.list.begin(), node.list.begin() + node.size)};
}

// The shortest chain of `kind`, searched in rounds of growing length: most chains that remove
// anything are short, and a short search is cheap. `aic_links[start]`, where known (not -1),
// is the length of the start's shortest alternating inference chain of at most the last
// round's links (0 for none): a chain of the other kinds is one too, so it is never shorter.
Chain ShortestChain(ChainKind kind, const ChainGraph& graph, const Board& board, Layers& layers,
                    const std::vector<int>& aic_links) {
  layers.Select(kind, graph, board);
  std::optional<Search> search;  // only once a start has a chain
  // Starts with no chain of any length, skipped in the second round.
  std::vector<bool> exhausted(graph.nodes.size());
  Chain best;
  for (int round_longest : kChainRounds) {
    for (size_t start = 0; start < graph.nodes.size(); ++start) {
      // Only chains shorter than the best so far (chains have an odd number of links).
      const int longest =
          best.nodes.empty() ? round_longest : static_cast<int>(best.nodes.size()) - 3;
      const bool known = aic_links[start] >= 0;
      if ((known && (aic_links[start] == 0 || aic_links[start] > longest)) ||
          exhausted[start] || !layers.Selected(start)) {
        continue;
      }
      bool none = false;
      const int length = kind == ChainKind::kAic && known
                             ? aic_links[start]
                             : layers.ShortestLength(start, longest, &none);
      exhausted[start] = none;
      if (length == 0) continue;
      if (!search) search.emplace(kind, graph, board);
      Chain chain;
      if (ShortestChainFrom(graph, board, static_cast<int>(start), longest, *search, &chain)) {
        best = std::move(chain);
        if (best.nodes.size() <= 4) return best;  // none shorter can remove anything
      }
    }
    if (!best.nodes.empty()) return best;
  }
  return best;
}

bool ChainStep(Board& board, Step* step, const ChainGraph& graph, Layers& layers,
               const std::vector<int>& aic_links, ChainKind kind, Technique technique) {
  Chain best = ShortestChain(kind, graph, board, layers, aic_links);
  if (best.nodes.empty()) return false;
  Step found;
  found.technique = technique;
  for (size_t i = 0; i + 1 < best.nodes.size(); ++i) {
    found.links.push_back(Link{PublicNode(graph.nodes[best.nodes[i]]),
                               PublicNode(graph.nodes[best.nodes[i + 1]]), i % 2 == 0});
  }
  for (int digit = 1; digit <= 9; ++digit) {
    best.removes[digit].ForEach([&](int cell) { Eliminate(board, &found, cell, Bit(digit)); });
  }
  *step = std::move(found);
  return true;
}

}  // namespace

bool Chains(Board& board, Step* step) {
  // One graph for the three kinds: the x- and xy-chains' are parts of the AIC graph.
  const ChainGraph graph = BuildGraph(board);
  Layers layers(board, graph);
  // The starts' shortest AICs first, up to the first start that has one: when none has, no
  // kind has a chain (the searches that fail cost one pass, not six); the starts before it
  // have none of any kind.
  std::vector<int> aic_links(graph.nodes.size(), -1);
  bool any = false;
  for (size_t start = 0; start < graph.nodes.size() && !any; ++start) {
    bool none = false;
    aic_links[start] = layers.ShortestLength(start, kChainRounds.back(), &none);
    any = aic_links[start] > 0;
  }
  if (!any) return false;
  return ChainStep(board, step, graph, layers, aic_links, ChainKind::kX, Technique::kXChain) ||
         ChainStep(board, step, graph, layers, aic_links, ChainKind::kXY,
                   Technique::kXYChain) ||
         ChainStep(board, step, graph, layers, aic_links, ChainKind::kAic, Technique::kAic);
}

}  // namespace sudoku::logic::internal
