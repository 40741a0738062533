// The chain techniques of logic_board.h: x-chains (one digit), xy-chains (bivalue cells),
// alternating inference chains with grouped nodes, and als-xz.
//
// A chain is searched breadth first over node states: from a node off, a strong link turns the
// next node on; from a node on, a weak link turns the next one off. A chain from a start S (off)
// to a node E (on) proves that S or E is true, so a candidate weakly linked to both goes.
// Breadth first finds each start's shortest such chain; the step keeps the shortest of all.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

enum class ChainKind { kX, kXY, kAic };

// The longest chain searched in each round, in links: past the last, a forcing chain reads
// better.
constexpr std::array<int, 2> kChainRounds = {9, 21};

struct ChainNode {
  int digit = 0;
  CellSet cells;
  std::array<uint8_t, 3> list{};  // the cells, ascending
  int size = 0;
};

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

// The nodes of one kind of chain and their links.
struct ChainGraph {
  std::vector<ChainNode> nodes;
  std::vector<std::array<CellSet, 10>> targets;  // per node, WeakTargets()
  Adjacency strong;
  Adjacency weak;
};

// A candidate is weakly linked to a node when the node on takes it off: the node's digit in a
// cell seeing all the node's cells, or another digit of a one-cell node's cell. As per-digit
// sets of the open cells holding it.
std::array<CellSet, 10> WeakTargets(const Board& board, const ChainNode& node) {
  std::array<CellSet, 10> targets;
  CellSet seen = board.CellsWith(node.digit);
  for (int i = 0; i < node.size; ++i) seen = seen & Table().peer_set[node.list[i]];
  targets[node.digit] = seen;
  if (node.size == 1) {
    const int cell = node.list[0];
    for (uint16_t d = board.open[cell] & ~Bit(node.digit); d; d = WithoutLowest(d)) {
      targets[LowestDigit(d)].Add(cell);
    }
  }
  return targets;
}

int AddNode(ChainGraph& graph, int digit, const uint8_t* cells, int size) {
  ChainNode node;
  node.digit = digit;
  node.size = size;
  for (int i = 0; i < size; ++i) {
    node.list[i] = cells[i];
    node.cells.Add(cells[i]);
  }
  graph.nodes.push_back(node);
  return static_cast<int>(graph.nodes.size()) - 1;
}

// The grouped nodes of `digit`: its cells in each box-line intersection, when two or more.
void AddGroups(const Board& board, ChainGraph& graph, int digit) {
  for (int box = 0; box < 9; ++box) {
    if (Count(board.Places(18 + box, digit)) < 2) continue;
    // The three rows, then the three columns, through the box.
    for (const int line : {box / 3 * 3, box / 3 * 3 + 1, box / 3 * 3 + 2, 9 + box % 3 * 3,
                           10 + box % 3 * 3, 11 + box % 3 * 3}) {
      std::array<uint8_t, 3> cells{};
      int size = 0;
      for (uint8_t cell : Table().cells[18 + box]) {
        if ((board.open[cell] & Bit(digit)) && Table().unit_set[line].Has(cell)) {
          cells[size++] = cell;
        }
      }
      if (size >= 2) AddNode(graph, digit, cells.data(), size);
    }
  }
}

// The node among `nodes` (indices) whose cells are exactly `cells`, or -1.
int FindNode(const ChainGraph& graph, const std::vector<int>& nodes, const CellSet& cells) {
  for (int node : nodes) {
    if (graph.nodes[node].cells == cells) return node;
  }
  return -1;
}

// Strong links of one digit: a unit whose places split into two nodes. For a line, split by box;
// for a box, by row and by column. Without groups, only two single places qualify.
void AddStrongLinks(const Board& board, const ChainGraph& graph, const std::vector<int>& nodes,
                    int digit, bool groups, std::vector<std::pair<int, int>>& strong) {
  for (int unit = 0; unit < kUnits; ++unit) {
    const uint16_t places = board.Places(unit, digit);
    if (Count(places) < 2 || (!groups && Count(places) > 2)) continue;
    for (int split = 0; split < (unit >= 18 ? 2 : 1); ++split) {
      std::array<CellSet, 9> parts{};
      int count = 0;
      std::array<int, 2> keys{-1, -1};
      bool two = true;
      for (uint16_t p = places; p; p = WithoutLowest(p)) {
        const int cell = Table().cells[unit][std::countr_zero(p)];
        const int key = unit < 18 ? BoxOf(cell) : split == 0 ? RowOf(cell) : ColumnOf(cell);
        if (key != keys[0] && key != keys[1]) {
          if (count == 2) {
            two = false;
            break;
          }
          keys[count++] = key;
        }
        parts[key].Add(cell);
      }
      if (!two || count != 2) continue;
      const int a = FindNode(graph, nodes, parts[keys[0]]);
      const int b = FindNode(graph, nodes, parts[keys[1]]);
      if (a >= 0 && b >= 0) strong.push_back({a, b});
    }
  }
}

ChainGraph BuildGraph(const Board& board, ChainKind kind) {
  ChainGraph graph;
  graph.nodes.reserve(400);
  std::array<std::vector<int>, 10> by_digit;
  for (int cell = 0; cell < kCells; ++cell) {
    if (kind == ChainKind::kXY && Count(board.open[cell]) != 2) continue;
    const uint8_t one_cell[1] = {static_cast<uint8_t>(cell)};
    for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
      by_digit[LowestDigit(d)].push_back(AddNode(graph, LowestDigit(d), one_cell, 1));
    }
  }
  const size_t single_nodes = graph.nodes.size();
  if (kind == ChainKind::kAic) {
    for (int digit = 1; digit <= 9; ++digit) {
      const size_t first = graph.nodes.size();
      AddGroups(board, graph, digit);
      for (size_t node = first; node < graph.nodes.size(); ++node) {
        by_digit[digit].push_back(static_cast<int>(node));
      }
    }
  }
  std::vector<std::pair<int, int>> strong, weak;
  for (int digit = 1; digit <= 9; ++digit) {
    const std::vector<int>& nodes = by_digit[digit];
    if (kind != ChainKind::kXY) {
      AddStrongLinks(board, graph, nodes, digit, kind == ChainKind::kAic, strong);
    }
    // Weak links of one digit: disjoint nodes whose cells all see each other.
    for (size_t i = 0; i < nodes.size(); ++i) {
      const ChainNode& node = graph.nodes[nodes[i]];
      CellSet seen = Table().peer_set[node.list[0]];
      for (int k = 1; k < node.size; ++k) seen = seen & Table().peer_set[node.list[k]];
      for (size_t j = i + 1; j < nodes.size(); ++j) {
        const CellSet& other = graph.nodes[nodes[j]].cells;
        if ((other & seen) == other) weak.push_back({nodes[i], nodes[j]});
      }
    }
  }
  // Within a cell: any two candidates are weakly linked, a bivalue cell's two strongly too. The
  // one-cell nodes come first, a cell's candidates side by side.
  if (kind != ChainKind::kX) {
    for (size_t a = 0; a < single_nodes; ++a) {
      const int cell = graph.nodes[a].list[0];
      for (size_t b = a + 1; b < single_nodes && graph.nodes[b].list[0] == cell; ++b) {
        const std::pair<int, int> link{static_cast<int>(a), static_cast<int>(b)};
        if (Count(board.open[cell]) == 2) strong.push_back(link);
        if (kind == ChainKind::kAic) weak.push_back(link);
      }
    }
  }
  graph.strong.Build(graph.nodes.size(), strong);
  graph.weak.Build(graph.nodes.size(), weak);
  graph.targets.reserve(graph.nodes.size());
  for (const ChainNode& node : graph.nodes) graph.targets.push_back(WeakTargets(board, node));
  return graph;
}

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
// from (-1 for the start, -2 for none yet), state = node * 2 + on.
struct Search {
  std::vector<int> parent;
  std::vector<int> depth;
  std::vector<int> queue;
};

// The shortest chain from `start` (off), of at most `longest` links, to a node on whose
// removals are not empty.
bool ShortestChainFrom(const ChainGraph& graph, int start, int longest, Search& search,
                       Chain* chain) {
  if (graph.strong.Empty(start)) return false;
  const std::array<CellSet, 10>& start_targets = graph.targets[start];
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
    const Adjacency& links = on ? graph.weak : graph.strong;
    for (int i = links.offsets[node]; i < links.offsets[node + 1]; ++i) {
      const int next = links.targets[i];
      const int next_state = next * 2 + !on;
      if (search.parent[next_state] != -2) continue;
      search.parent[next_state] = state;
      search.depth[next_state] = search.depth[state] + 1;
      search.queue.push_back(next_state);
      if (on) continue;
      const std::array<CellSet, 10>& end_targets = graph.targets[next];
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

Node PublicNode(const ChainNode& node) {
  return Node{static_cast<uint8_t>(node.digit),
              std::vector<uint8_t>(node.list.begin(), node.list.begin() + node.size)};
}

// The shortest chain of all, searched in rounds of growing length: most chains that remove
// anything are short, and a short search is cheap.
Chain ShortestChain(const ChainGraph& graph) {
  Search search{std::vector<int>(graph.nodes.size() * 2, -2),
                std::vector<int>(graph.nodes.size() * 2, 0), {}};
  Chain best;
  for (int round_longest : kChainRounds) {
    for (size_t start = 0; start < graph.nodes.size(); ++start) {
      // Only chains shorter than the best so far (chains have an odd number of links).
      const int longest =
          best.nodes.empty() ? round_longest : static_cast<int>(best.nodes.size()) - 3;
      Chain chain;
      if (ShortestChainFrom(graph, static_cast<int>(start), longest, search, &chain)) {
        best = std::move(chain);
        if (best.nodes.size() <= 4) return best;  // none shorter can remove anything
      }
    }
    if (!best.nodes.empty()) return best;
  }
  return best;
}

bool ChainStep(Board& board, Step* step, ChainKind kind, Technique technique) {
  const ChainGraph graph = BuildGraph(board, kind);
  Chain best = ShortestChain(graph);
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

bool XChain(Board& board, Step* step) {
  return ChainStep(board, step, ChainKind::kX, Technique::kXChain);
}

bool XYChain(Board& board, Step* step) {
  return ChainStep(board, step, ChainKind::kXY, Technique::kXYChain);
}

bool Aic(Board& board, Step* step) {
  return ChainStep(board, step, ChainKind::kAic, Technique::kAic);
}

}  // namespace sudoku::logic::internal
