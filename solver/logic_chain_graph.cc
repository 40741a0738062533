// The chain graphs of logic_chain_graph.h.
#include "solver/logic_chain_graph.h"

#include <array>
#include <bit>
#include <utility>
#include <vector>

namespace sudoku::logic::internal {
namespace {

int AddNode(ChainGraph& graph, int digit, const uint8_t* cells, int size) {
  // Filled in place: a node built aside and copied in stalled on reading back its own stores.
  ChainNode& node = graph.nodes.emplace_back();
  node.digit = digit;
  node.size = size;
  for (int i = 0; i < size; ++i) {
    node.list[i] = cells[i];
    node.cells.Add(cells[i]);
  }
  return static_cast<int>(graph.nodes.size()) - 1;
}

// The grouped nodes of `digit`: its cells in each box-line intersection, when two or more.
void AddGroups(const Board& board, ChainGraph& graph, int digit) {
  for (int box = 0; box < 9; ++box) {
    const uint16_t places = board.Places(18 + box, digit);  // positions in the box, row-major
    if (Count(places) < 2) continue;
    // The three rows, then the three columns, through the box.
    for (const uint16_t line : {0007, 0070, 0700, 0111, 0222, 0444}) {
      std::array<uint8_t, 3> cells{};
      int size = 0;
      for (uint16_t p = places & line; p; p = WithoutLowest(p)) {
        cells[size++] = Table().cells[18 + box][std::countr_zero(p)];
      }
      if (size >= 2) AddNode(graph, digit, cells.data(), size);
    }
  }
}

// The cells before `cell`.
CellSet Before(int cell) {
  if (cell < 64) return {(uint64_t{1} << cell) - 1, 0};
  return {~uint64_t{0}, (uint32_t{1} << (cell - 64)) - 1};
}

// The most grouped nodes of one digit: six a box (its three rows and three columns).
constexpr size_t kMaxGroups = 9 * 6;

// The grouped nodes of one digit: they follow one another in the graph's nodes.
struct Groups {
  int first = 0;
  size_t count = 0;
  size_t size() const { return count; }
  int operator[](size_t g) const { return first + static_cast<int>(g); }
};

// The nodes of one digit: its one-cell nodes by cell, and its grouped nodes.
struct DigitNodes {
  std::array<int, kCells> single{};  // by cell; valid where the cell holds the digit
  Groups groups;
};

// The node of `digit` whose cells are exactly `cells`, or -1.
int FindNode(const ChainGraph& graph, const DigitNodes& nodes, const CellSet& cells) {
  int only = -1, count = 0;
  cells.ForEach([&](int cell) { only = cell, ++count; });
  if (count == 1) return nodes.single[only];
  for (size_t g = 0; g < nodes.groups.size(); ++g) {
    if (graph.nodes[nodes.groups[g]].cells == cells) return nodes.groups[g];
  }
  return -1;
}

// Strong links of one digit: a unit whose places split into two nodes. For a line, split by box;
// for a box, by row and by column.
void AddStrongLinks(const Board& board, const ChainGraph& graph, const DigitNodes& nodes,
                    int digit, std::vector<std::pair<int, int>>& strong) {
  for (int unit = 0; unit < kUnits; ++unit) {
    const uint16_t places = board.Places(unit, digit);
    if (Count(places) < 2) continue;
    for (int split = 0; split < (unit >= 18 ? 2 : 1); ++split) {
      // The places by key (box, row or column), in the order the keys first occur.
      std::array<CellSet, 2> parts;
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
        parts[key == keys[0] ? 0 : 1].Add(cell);
      }
      if (!two || count != 2) continue;
      const int a = FindNode(graph, nodes, parts[0]);
      const int b = FindNode(graph, nodes, parts[1]);
      if (a >= 0 && b >= 0) strong.push_back({a, b});
    }
  }
}

}  // namespace

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

ChainGraph BuildGraph(const Board& board, bool grouped) {
  ChainGraph graph;
  graph.nodes.reserve(400);
  std::array<DigitNodes, 10> by_digit;
  for (int cell = 0; cell < kCells; ++cell) {
    const uint8_t one_cell[1] = {static_cast<uint8_t>(cell)};
    for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
      by_digit[LowestDigit(d)].single[cell] = AddNode(graph, LowestDigit(d), one_cell, 1);
    }
  }
  graph.single_nodes = graph.nodes.size();
  for (int digit = 1; digit <= 9 && grouped; ++digit) {
    const size_t first = graph.nodes.size();
    AddGroups(board, graph, digit);
    by_digit[digit].groups = {static_cast<int>(first), graph.nodes.size() - first};
  }
  graph.strong.reserve(graph.nodes.size() * 2);
  graph.weak.reserve(graph.nodes.size() * 12);
  for (int digit = 1; digit <= 9; ++digit) {
    AddStrongLinks(board, graph, by_digit[digit], digit, graph.strong);
    // Weak links of one digit: disjoint nodes whose cells all see each other, each pair once,
    // in the order of the digit's nodes (one-cell nodes by cell, then groups). A one-cell
    // node's partners among the one-cell nodes after it are the cells after its own it sees;
    // among the groups, those whose cells all see it: the groups it lies in the common peers
    // of, marked per cell beforehand (bit g for the digit's group g).
    const DigitNodes& nodes = by_digit[digit];
    std::array<CellSet, kMaxGroups> group_peers;  // the cells seeing all of group g
    std::array<uint64_t, kCells> groups_seen{};
    for (size_t g = 0; g < nodes.groups.size(); ++g) {
      const ChainNode& node = graph.nodes[nodes.groups[g]];
      CellSet seen = Table().peer_set[node.list[0]];
      for (int k = 1; k < node.size; ++k) seen = seen & Table().peer_set[node.list[k]];
      group_peers[g] = seen;
      (board.CellsWith(digit) & seen).ForEach([&](int cell) {
        groups_seen[cell] |= uint64_t{1} << g;
      });
    }
    board.CellsWith(digit).ForEach([&](int cell) {
      const CellSet seen = board.CellsWith(digit) & Table().peer_set[cell];
      seen.Without(Before(cell)).ForEach([&](int other) {
        graph.weak.push_back({nodes.single[cell], nodes.single[other]});
      });
      for (uint64_t bits = groups_seen[cell]; bits; bits &= bits - 1) {
        graph.weak.push_back({nodes.single[cell], nodes.groups[std::countr_zero(bits)]});
      }
    });
    for (size_t g = 0; g < nodes.groups.size(); ++g) {
      for (size_t h = g + 1; h < nodes.groups.size(); ++h) {
        const CellSet& other = graph.nodes[nodes.groups[h]].cells;
        if ((other & group_peers[g]) == other) {
          graph.weak.push_back({nodes.groups[g], nodes.groups[h]});
        }
      }
    }
  }
  // Within a cell: any two candidates are weakly linked, a bivalue cell's two strongly too. The
  // one-cell nodes come first, a cell's candidates side by side.
  for (size_t a = 0; a < graph.single_nodes; ++a) {
    const int cell = graph.nodes[a].list[0];
    for (size_t b = a + 1; b < graph.single_nodes && graph.nodes[b].list[0] == cell; ++b) {
      const std::pair<int, int> link{static_cast<int>(a), static_cast<int>(b)};
      if (Count(board.open[cell]) == 2) graph.strong.push_back(link);
      graph.weak.push_back(link);
    }
  }
  return graph;
}

bool InChains(ChainKind kind, const ChainGraph& graph, const Board& board, int node) {
  const ChainNode& n = graph.nodes[node];
  switch (kind) {
    case ChainKind::kX: return n.size == 1;
    case ChainKind::kXY: return n.size == 1 && Count(board.open[n.list[0]]) == 2;
    case ChainKind::kAic: return true;
  }
  return false;
}

bool InChains(ChainKind kind, const ChainGraph& graph, const Board& board,
              const std::pair<int, int>& link, bool strong) {
  if (kind == ChainKind::kAic) return true;
  if (!InChains(kind, graph, board, link.first) || !InChains(kind, graph, board, link.second)) {
    return false;
  }
  // A link of one digit joins two cells; of two digits, two candidates of one cell.
  const bool one_digit = graph.nodes[link.first].digit == graph.nodes[link.second].digit;
  return kind == ChainKind::kXY && strong ? !one_digit : one_digit;
}

}  // namespace sudoku::logic::internal
