// The chain techniques of logic_board.h: x-chains (one digit), xy-chains (bivalue cells) and
// alternating inference chains with grouped nodes, searched on the graphs of
// logic_chain_graph.h.
//
// A chain is searched breadth first over node states: from a node off, a strong link turns the
// next node on; from a node on, a weak link turns the next one off. A chain from a start S (off)
// to a node E (on) proves that S or E is true, so a candidate weakly linked to both goes.
// Breadth first finds each start's shortest such chain; the step keeps the shortest of all, or,
// on HoDoKu's path, the one HoDoKu's sort puts first: most removals (MostRemovingChain), so
// that one chain does what several shorter ones would, as in the path HoDoKu's users see.
// There, after its x- and xy-chains, HoDoKu's nice loops and AICs (NiceLoopStep) take the
// place of the alternating inference chains.
//
// Most starts have no chain, and most steps that get here find none, so the search is in two
// parts: Layers (logic_chain_layers.h) learns a start's shortest chain length a layer at a time
// on bitsets, and only a start whose chain wins is searched again link by link
// (ShortestChainFrom), which picks the chain among those of that length exactly as a search of
// every start link by link would.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include "solver/logic_board.h"
#include "solver/logic_chain_graph.h"
#include "solver/logic_chain_layers.h"

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

// Breadth-first search state, kept across starts: parent[state] is the state it was reached
// from (-1 for the start, -2 for none yet), state = node * 2 + on. With the graph's links as
// lists.
struct Search {
  std::vector<int> parent;
  std::vector<int> depth;
  std::vector<int> queue;
  Adjacency strong;
  Adjacency weak;

  // `one_cell_nodes`: of an AIC's links, only those between one-cell nodes (HoDoKu's nice loops
  // that are not grouped), so that no search visits a link it may not take.
  Search(ChainKind kind, const ChainGraph& graph, const Board& board, bool one_cell_nodes = false)
      : parent(graph.nodes.size() * 2, -2), depth(graph.nodes.size() * 2, 0) {
    const auto single = [&](int node) { return static_cast<size_t>(node) < graph.single_nodes; };
    for (const bool is_strong : {true, false}) {
      const std::vector<std::pair<int, int>>& all = is_strong ? graph.strong : graph.weak;
      if (kind == ChainKind::kAic && !one_cell_nodes) {  // every link: nothing to filter
        (is_strong ? strong : weak).Build(graph.nodes.size(), all);
        continue;
      }
      std::vector<std::pair<int, int>> links;
      links.reserve(all.size());
      for (const auto& link : all) {
        const bool taken = kind == ChainKind::kAic
                               ? single(link.first) && single(link.second)
                               : InChains(kind, graph, board, link, is_strong);
        if (taken) links.push_back(link);
      }
      (is_strong ? strong : weak).Build(graph.nodes.size(), links);
    }
  }

  // Forgets the last search (only the states it reached) and queues `start` off, at depth 0.
  void Restart(int start) {
    for (int state : queue) parent[state] = -2;
    queue.clear();
    queue.push_back(start * 2);
    parent[start * 2] = -1;
    depth[start * 2] = 0;
  }
};

// Breadth first from `start` (off), up to `longest` links: `on_end(state, removes)` sees each
// node on that one of `useful` reaches, by its shortest chain, with what that chain removes (the
// candidates that see both ends), and returns true to stop there.
template <typename Useful, typename OnEnd>
void ChainsFrom(const ChainGraph& graph, const Board& board, int start, int longest,
                const Useful& useful, Search& search, const OnEnd& on_end) {
  if (search.strong.Empty(start)) return;
  const std::array<CellSet, 10> start_targets = WeakTargets(board, graph.nodes[start]);
  search.Restart(start);
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
      if (on || !useful(next)) continue;
      const std::array<CellSet, 10> end_targets = WeakTargets(board, graph.nodes[next]);
      std::array<CellSet, 10> removes;
      for (int d = 1; d <= 9; ++d) removes[d] = start_targets[d] & end_targets[d];
      if (next == start && graph.nodes[start].size == 1) {
        // A loop from a candidate back to it proves it: its cell's other candidates go (the
        // peers' follow from the single left, as HoDoKu's discontinuous nice loop has it).
        removes[graph.nodes[start].digit] = CellSet{};
      }
      if (on_end(next_state, removes)) return;
    }
  }
}

// The chain that reaches `end_state` in the last search, with what it removes.
Chain ChainTo(const Search& search, int end_state, const std::array<CellSet, 10>& removes) {
  Chain chain;
  chain.removes = removes;
  for (int s = end_state; s >= 0; s = search.parent[s]) chain.nodes.push_back(s / 2);
  std::reverse(chain.nodes.begin(), chain.nodes.end());
  return chain;
}

// The shortest chain from `start` (off), of at most `longest` links, to a node on whose
// removals are not empty: one of `useful`, the ends whose removals meet the start's.
template <typename Useful>
bool ShortestChainFrom(const ChainGraph& graph, const Board& board, int start, int longest,
                       const Useful& useful, Search& search, Chain* chain) {
  bool found = false;
  ChainsFrom(graph, board, start, longest, useful, search,
             [&](int end_state, const std::array<CellSet, 10>& removes) {
               *chain = ChainTo(search, end_state, removes);
               found = true;
               return true;
             });
  return found;
}

Node PublicNode(const ChainNode& node) {
  return Node{static_cast<uint8_t>(node.digit),
              std::vector<uint8_t>(node.list.begin(), node.list.begin() + node.size)};
}

// The shortest chain of `kind`, searched in rounds of growing length: most chains that remove
// anything are short, and a short search is cheap. `aic_links[start]`, where known (not -1),
// is the length of the start's shortest alternating inference chain of at most the last
// round's links (0 for none): a chain of the other kinds is one too, so it is never shorter.
template <size_t W>
Chain ShortestChain(ChainKind kind, const ChainGraph& graph, const Board& board,
                    Layers<W>& layers, const std::vector<int>& aic_links) {
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
      const auto& useful = layers.Useful(start);
      const auto is_useful = [&](int end) { return layers.Has(useful, static_cast<size_t>(end)); };
      if (ShortestChainFrom(graph, board, static_cast<int>(start), longest, is_useful, *search,
                            &chain)) {
        best = std::move(chain);
        if (best.nodes.size() <= 4) return best;  // none shorter can remove anything
      }
    }
    if (!best.nodes.empty()) return best;
  }
  return best;
}

// What a chain removes, as HoDoKu lists and orders it: candidate cell * 10 + digit, ascending.
std::vector<int> RemovalKeys(const std::array<CellSet, 10>& removes) {
  std::vector<int> keys;
  for (int digit = 1; digit <= 9; ++digit) {
    removes[digit].ForEach([&](int cell) { keys.push_back(cell * 10 + digit); });
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Whether an x- or xy-chain removing `a` (of `a_links` links) comes before one removing `b`, as
// HoDoKu sorts the chains it found: most removals first; then the lowest sum of the removals'
// cells; then the shortest. (Its AICs and nice loops are sorted by NiceLoopStep's Offer.)
bool HodokuPrefers(const std::vector<int>& a, size_t a_links, const std::vector<int>& b,
                   size_t b_links) {
  if (a.size() != b.size()) return a.size() > b.size();
  int a_sum = 0, b_sum = 0;
  for (const int key : a) a_sum += key / 10;
  for (const int key : b) b_sum += key / 10;
  if (a_sum != b_sum) return a_sum < b_sum;
  return a_links < b_links;
}

// The x- or xy-chain HoDoKu would take: of every start's shortest chain to each end, up to the
// last round's links, the one it sorts first (HodokuPrefers).
template <size_t W>
Chain MostRemovingChain(ChainKind kind, const ChainGraph& graph, const Board& board,
                        Layers<W>& layers, const std::vector<int>& aic_links) {
  layers.Select(kind, graph, board);
  std::optional<Search> search;  // only once a start has a chain
  const int longest = kChainRounds.back();
  Chain best;
  std::vector<int> best_keys;
  for (size_t start = 0; start < graph.nodes.size(); ++start) {
    if (aic_links[start] == 0 || !layers.Selected(start)) continue;
    bool none = false;
    if (layers.ShortestLength(start, longest, &none) == 0) continue;
    if (!search) search.emplace(kind, graph, board);
    const auto& useful = layers.Useful(start);
    const auto is_useful = [&](int end) { return layers.Has(useful, static_cast<size_t>(end)); };
    ChainsFrom(graph, board, static_cast<int>(start), longest, is_useful, *search,
               [&](int end_state, const std::array<CellSet, 10>& removes) {
                 std::vector<int> keys = RemovalKeys(removes);
                 const size_t links = static_cast<size_t>(search->depth[end_state]);
                 if (keys.empty() ||
                     (!best.nodes.empty() &&
                      !HodokuPrefers(keys, links, best_keys, best.nodes.size() - 1))) {
                   return false;
                 }
                 best = ChainTo(*search, end_state, removes);
                 best_keys = std::move(keys);
                 return false;
               });
  }
  return best;
}

template <size_t W>
bool ChainStep(Board& board, Step* step, const ChainGraph& graph, Layers<W>& layers,
               const std::vector<int>& aic_links, ChainKind kind, Technique technique,
               bool most_removals) {
  Chain best = most_removals ? MostRemovingChain(kind, graph, board, layers, aic_links)
                             : ShortestChain(kind, graph, board, layers, aic_links);
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

// HoDoKu's nice loops and AICs (its TablingSolver), the chains its path takes after its x- and
// xy-chains: every start's shortest chain to each end, and its shortest loops back to its own
// cell, each counted as HoDoKu counts it. A continuous nice loop (an alternating cycle: each
// node has a strong link and a weak one, so that every weak link of the loop becomes strong)
// removes along each weak link: a digit seeing both nodes of a weak link between cells (the
// loop's cells kept), a cell's other candidates where the loop's weak link is within it. A
// discontinuous nice loop proves or disproves its start: a candidate off that leads back to
// itself on is placed (its cell's other candidates go); one on that leads to itself off, or to
// another candidate of its cell on, goes. An AIC removes what sees both its ends: HoDoKu's
// when its ends are candidates of two cells, with the same digit and two removals or more
// (type 1), or with two digits, each end's cell holding the other's digit, and seeing each other
// (type 2); any other chain removes only one candidate, as the discontinuous loop through it.
// HoDoKu takes the one that removes most, then the one it sorts first (Offer).
enum class Variant : uint8_t { kAic = 0, kContinuous = 1, kDiscontinuous = 2 };

// The one-cell node of `digit` in `cell`, or -1.
int FindSingle(const ChainGraph& graph, int cell, int digit) {
  for (size_t n = 0; n < graph.single_nodes; ++n) {
    if (graph.nodes[n].list[0] == cell && graph.nodes[n].digit == digit) {
      return static_cast<int>(n);
    }
  }
  return -1;
}

struct LoopFound {
  Variant variant = Variant::kAic;
  std::vector<int> nodes;     // for loops the first node again at the end
  std::vector<bool> strong;   // per link
  std::vector<int> keys;      // removals, cell * 10 + digit, as HoDoKu lists them
  // Where HoDoKu finds it first, of those it sorts alike: its loops by their start candidate
  // (cell * 10 + digit), then its AICs by theirs.
  int order = 0;
};

// The nodes of the last search on the way to `state`, from the start.
std::vector<int> NodesTo(const Search& search, int state) {
  std::vector<int> nodes(static_cast<size_t>(search.depth[state]) + 1);
  for (int s = state, i = search.depth[state]; s >= 0; s = search.parent[s], --i) {
    nodes[i] = s / 2;
  }
  return nodes;
}

// Whether a chain through `nodes` comes back to a cell it left (a lasso, which HoDoKu
// rejects): two nodes may share a cell only when they follow each other, both one-cell nodes.
// For a loop (its first node again at the end), the last and the first follow each other.
bool IsLasso(const ChainGraph& graph, std::vector<int> nodes, bool loop) {
  if (loop) nodes.pop_back();
  const size_t m = nodes.size();
  for (size_t i = 0; i < m; ++i) {
    const ChainNode& a = graph.nodes[nodes[i]];
    for (size_t j = i + 1; j < m; ++j) {
      const ChainNode& b = graph.nodes[nodes[j]];
      if ((a.cells & b.cells).Empty()) continue;
      const bool next = j == i + 1 || (loop && i == 0 && j == m - 1);
      if (!next || a.size != 1 || b.size != 1) return true;
    }
  }
  return false;
}

// What a continuous loop through `nodes` (first again at the end, links alternating as
// `strong` says) removes; `targets` holds each node's WeakTargets().
std::vector<int> ContinuousRemovals(const ChainGraph& graph, const Board& board,
                                    const std::vector<std::array<CellSet, 10>>& targets,
                                    const std::vector<int>& nodes,
                                    const std::vector<bool>& strong) {
  CellSet loop_cells;
  for (const int n : nodes) loop_cells = loop_cells | graph.nodes[n].cells;
  std::vector<int> keys;
  for (size_t i = 0; i + 1 < nodes.size(); ++i) {
    if (strong[i]) continue;
    const ChainNode& a = graph.nodes[nodes[i]];
    const ChainNode& b = graph.nodes[nodes[i + 1]];
    if (a.digit != b.digit) {
      // Within a cell: one of the two is its digit.
      const int cell = a.list[0];
      for (uint16_t d = board.open[cell] & ~Bit(a.digit) & ~Bit(b.digit); d;
           d = WithoutLowest(d)) {
        keys.push_back(cell * 10 + LowestDigit(d));
      }
      continue;
    }
    const CellSet seeing =
        (targets[nodes[i]][a.digit] & targets[nodes[i + 1]][a.digit]).Without(loop_cells);
    seeing.ForEach([&](int cell) { keys.push_back(cell * 10 + a.digit); });
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// Breadth first from `start` (off) over the search's links, up to `longest` links, as
// ChainsFrom; `blocked` nodes are never entered, but `on_blocked(from_state, node, on)` sees
// each link to one. `on_state(state)` sees each state reached.
template <typename Blocked, typename OnState, typename OnBlocked>
void Explore(int start, int longest, Search& search, const Blocked& blocked,
             const OnState& on_state, const OnBlocked& on_blocked) {
  search.Restart(start);
  for (size_t head = 0; head < search.queue.size(); ++head) {
    const int state = search.queue[head];
    const int node = state / 2;
    const bool on = state % 2;
    if (search.depth[state] >= longest) break;
    const Adjacency& links = on ? search.weak : search.strong;
    for (int i = links.offsets[node]; i < links.offsets[node + 1]; ++i) {
      const int next = links.targets[i];
      if (blocked(next)) {
        on_blocked(state, next, !on);
        continue;
      }
      const int next_state = next * 2 + !on;
      if (search.parent[next_state] != -2) continue;
      search.parent[next_state] = state;
      search.depth[next_state] = search.depth[state] + 1;
      search.queue.push_back(next_state);
      on_state(next_state);
    }
  }
}

// LoopFound::order of an AIC: after every loop.
constexpr int kAicOrder = 1000;

// HoDoKu's sum of a step's removals, which sorts steps that remove as many but not the same:
// each removal's cell, times 1, 81, 161, ... in the order it lists them, plus its digit.
int IndexSum(const std::vector<int>& keys) {
  int sum = 0, weight = 1;
  for (const int key : keys) {
    sum += key / 10 * weight + key % 10;
    weight += 80;
  }
  return sum;
}

// Offers `found` to `best`, as HoDoKu sorts its nice loops and AICs: most removals first; then,
// removing others, the lowest IndexSum (the first found where even); then the shortest.
void Offer(LoopFound&& found, LoopFound* best) {
  if (found.keys.empty()) return;
  if (!best->nodes.empty()) {
    if (found.keys.size() != best->keys.size()) {
      if (found.keys.size() < best->keys.size()) return;
    } else {
      std::vector<int> a = found.keys, b = best->keys;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a != b || found.variant != best->variant) {
        const int found_sum = IndexSum(found.keys), best_sum = IndexSum(best->keys);
        if (found_sum > best_sum || (found_sum == best_sum && found.order >= best->order)) {
          return;
        }
      } else if (found.nodes.size() > best->nodes.size() ||
                 (found.nodes.size() == best->nodes.size() && found.order >= best->order)) {
        return;
      }
    }
  }
  *best = std::move(found);
}

// HoDoKu's best nice loop or AIC on the graph's one-cell nodes (or, `grouped`, on every node),
// whose links `search` holds (Search's `one_cell_nodes`).
LoopFound BestNiceLoop(const ChainGraph& graph, const Board& board, bool grouped, Search& search) {
  const int longest = kChainRounds.back();
  LoopFound best;
  // What each node takes off when on: every search reaches most nodes, so once per node.
  const size_t searched = grouped ? graph.nodes.size() : graph.single_nodes;
  std::vector<std::array<CellSet, 10>> targets(searched);
  for (size_t n = 0; n < searched; ++n) targets[n] = WeakTargets(board, graph.nodes[n]);
  for (size_t s = 0; s < graph.single_nodes; ++s) {
    const int start = static_cast<int>(s);
    const ChainNode& first = graph.nodes[start];
    const int start_cell = first.list[0];
    if (search.strong.Empty(start)) continue;
    const std::array<CellSet, 10>& start_targets = targets[s];
    // Chains to other cells: AICs, or the discontinuous loops through what they remove.
    Explore(
        start, longest, search, [](int) { return false; },
        [&](int state) {
          if (state % 2 == 0) return;
          const int end = state / 2;
          const ChainNode& last = graph.nodes[end];
          if (last.cells.Has(start_cell)) return;
          const std::array<CellSet, 10>& end_targets = targets[end];
          std::array<CellSet, 10> removes;
          CellSet any;
          for (int d = 1; d <= 9; ++d) {
            removes[d] = start_targets[d] & end_targets[d];
            any = any | removes[d];
          }
          if (any.Empty()) return;
          size_t count = 0;
          for (int d = 1; d <= 9; ++d) count += removes[d].Count();
          // Offer() takes nothing that removes less than the best so far.
          if (count < best.keys.size()) return;
          std::vector<int> keys;
          keys.reserve(count);
          for (int d = 1; d <= 9; ++d) {
            removes[d].ForEach([&](int c) { keys.push_back(c * 10 + d); });
          }
          std::sort(keys.begin(), keys.end());
          if (search.depth[state] < 3) return;  // four nodes at least
          std::vector<int> nodes = NodesTo(search, state);
          if (IsLasso(graph, nodes, false)) return;
          const bool single_end = last.size == 1;
          const bool type1 = single_end && last.digit == first.digit && keys.size() >= 2;
          const bool type2 = single_end && last.digit != first.digit && keys.size() == 2;
          if (type1 || type2) {
            // HoDoKu lists a type 2's removal from the start's cell first.
            if (type2 && keys[0] / 10 != start_cell) std::swap(keys[0], keys[1]);
            LoopFound found{Variant::kAic, nodes, {}, keys,
                            kAicOrder + std::min(start_cell * 10 + first.digit,
                                                 last.list[0] * 10 + last.digit)};
            for (size_t i = 0; i + 1 < nodes.size(); ++i) found.strong.push_back(i % 2 == 0);
            Offer(std::move(found), &best);
            return;
          }
          // Each removal is a discontinuous loop of its own (where the loop comes back to no
          // cell of its): HoDoKu takes the first it sorts.
          if (!best.nodes.empty() && best.keys.size() > 1) return;
          std::sort(keys.begin(), keys.end(), [](int a, int b) {
            return std::pair(a / 10 + a % 10, a) < std::pair(b / 10 + b % 10, b);
          });
          LoopFound found;
          for (const int key : keys) {
            const int target = FindSingle(graph, key / 10, key % 10);
            if (target < 0) continue;
            found = LoopFound{Variant::kDiscontinuous, {target}, {false}, {key}, key};
            for (size_t i = 0; i < nodes.size(); ++i) {
              found.nodes.push_back(nodes[i]);
              found.strong.push_back(i + 1 < nodes.size() ? i % 2 == 0 : false);
            }
            found.nodes.push_back(target);
            if (!IsLasso(graph, found.nodes, true)) break;
            found.nodes.clear();
          }
          if (found.nodes.empty()) return;
          Offer(std::move(found), &best);
        },
        [](int, int, bool) {});
    // Loops back to the start's cell, which no other link enters: to the start on (a
    // discontinuous loop that places it) or off by a weak link, or to another candidate of its
    // cell on (continuous loops: every weak link of the loop holds both ways).
    const auto blocked = [&](int node) { return graph.nodes[node].cells.Has(start_cell); };
    Explore(
        start, longest, search, blocked, [](int) {},
        [&](int from_state, int node, bool on) {
          const ChainNode& last = graph.nodes[node];
          if (last.size != 1 || (node != start && !on)) return;
          if (search.depth[from_state] < 2) return;  // three nodes at least
          std::vector<int> nodes = NodesTo(search, from_state);
          nodes.push_back(node);
          if (node != start) nodes.push_back(start);
          if (IsLasso(graph, nodes, true)) return;
          std::vector<bool> strong;
          for (size_t i = 0; i + 1 < nodes.size(); ++i) strong.push_back(i % 2 == 0);
          if (node == start && on) {
            std::vector<int> keys;
            for (uint16_t d = board.open[start_cell] & ~Bit(first.digit); d;
                 d = WithoutLowest(d)) {
              keys.push_back(start_cell * 10 + LowestDigit(d));
            }
            Offer(LoopFound{Variant::kDiscontinuous, std::move(nodes), std::move(strong),
                            std::move(keys), start_cell * 10 + first.digit},
                  &best);
            return;
          }
          std::vector<int> keys = ContinuousRemovals(graph, board, targets, nodes, strong);
          int order = kAicOrder;
          for (const int n : nodes) {
            const ChainNode& each = graph.nodes[n];
            if (each.size == 1) order = std::min(order, each.list[0] * 10 + each.digit);
          }
          Offer(LoopFound{Variant::kContinuous, std::move(nodes), std::move(strong),
                          std::move(keys), order},
                &best);
        });
  }
  return best;
}

// The HoDoKu step of its nice loops and AICs: on the one-cell nodes first, then (HoDoKu's
// grouped nice loops, searched only when those found none) on every node.
bool NiceLoopStep(Board& board, Step* step, const ChainGraph& graph) {
  Search one_cell(ChainKind::kAic, graph, board, /*one_cell_nodes=*/true);
  LoopFound best = BestNiceLoop(graph, board, false, one_cell);
  if (best.nodes.empty() && graph.nodes.size() > graph.single_nodes) {
    Search every(ChainKind::kAic, graph, board);
    best = BestNiceLoop(graph, board, true, every);
  }
  if (best.nodes.empty()) return false;
  Step found;
  found.technique = Technique::kAic;
  found.variant = static_cast<uint8_t>(best.variant);
  for (size_t i = 0; i + 1 < best.nodes.size(); ++i) {
    found.links.push_back(Link{PublicNode(graph.nodes[best.nodes[i]]),
                               PublicNode(graph.nodes[best.nodes[i + 1]]), best.strong[i]});
  }
  // Digit by digit, as the other chains list their removals.
  std::sort(best.keys.begin(), best.keys.end(),
            [](int a, int b) { return a % 10 * 100 + a / 10 < b % 10 * 100 + b / 10; });
  for (const int key : best.keys) Eliminate(board, &found, key / 10, Bit(key % 10));
  *step = std::move(found);
  return true;
}

// The chain steps on `graph`, with node sets W words wide.
template <size_t W>
bool ChainsOn(Board& board, Step* step, const ChainGraph& graph, bool most_removals) {
  Layers<W> layers(graph);
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
  return ChainStep(board, step, graph, layers, aic_links, ChainKind::kX, Technique::kXChain,
                   most_removals) ||
         ChainStep(board, step, graph, layers, aic_links, ChainKind::kXY, Technique::kXYChain,
                   most_removals) ||
         (most_removals ? NiceLoopStep(board, step, graph)
                        : ChainStep(board, step, graph, layers, aic_links, ChainKind::kAic,
                                    Technique::kAic, most_removals));
}

}  // namespace

bool Chains(Board& board, Step* step, bool hodoku) {
  // One graph for the three kinds: the x- and xy-chains' are parts of the AIC graph.
  const ChainGraph graph = BuildGraph(board, /*grouped=*/hodoku);
  const bool most_removals = hodoku;
  // The least width of those compiled that holds the nodes: each width is one more copy of
  // the searches, so the widths are dense where graphs are common and sparse above.
  const size_t words = (graph.nodes.size() + 63) / 64;
  if (words <= 3) return ChainsOn<3>(board, step, graph, most_removals);
  if (words <= 4) return ChainsOn<4>(board, step, graph, most_removals);
  if (words <= 5) return ChainsOn<5>(board, step, graph, most_removals);
  if (words <= 6) return ChainsOn<6>(board, step, graph, most_removals);
  if (words <= 8) return ChainsOn<8>(board, step, graph, most_removals);
  if (words <= 12) return ChainsOn<12>(board, step, graph, most_removals);
  return ChainsOn<(kMaxChainNodes + 63) / 64>(board, step, graph, most_removals);
}

}  // namespace sudoku::logic::internal
