// Internal to the chain techniques (logic_chains.cc): the graph a chain is searched on. Its
// nodes are candidates (and, for alternating inference chains, grouped nodes); its links are
// strong (the two nodes are not both off) or weak (not both on).
//
// Thread-safety: values built per call.
#ifndef SUDOKU_SOLVER_LOGIC_CHAIN_GRAPH_H_
#define SUDOKU_SOLVER_LOGIC_CHAIN_GRAPH_H_

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {

// x-chains link one digit's candidates; xy-chains the candidates of bivalue cells; alternating
// inference chains every candidate and the grouped nodes.
enum class ChainKind { kX, kXY, kAic };

struct ChainNode {
  int digit = 0;
  CellSet cells;
  std::array<uint8_t, 3> list{};  // the cells, ascending
  int size = 0;
};

// The nodes and links of every kind of chain: the alternating inference chains' graph, of which
// the x-chains and xy-chains take a part (see InChains()).
struct ChainGraph {
  std::vector<ChainNode> nodes;
  size_t single_nodes = 0;  // nodes [0, single_nodes) are one-cell nodes, the rest grouped
  // The links as (a, b) pairs, each linking both ways, in the order found: a search visits a
  // node's links in this order, which decides between chains of one length.
  std::vector<std::pair<int, int>> strong;
  std::vector<std::pair<int, int>> weak;
};

// What `node` takes off when on, per digit: the open cells holding the digit that are weakly
// linked to it (the node's digit in a cell seeing all the node's cells, or another digit of a
// one-cell node's cell).
std::array<CellSet, 10> WeakTargets(const Board& board, const ChainNode& node);

// The graph of the board's chains. Nodes: the one-cell nodes, cell by cell (a cell's candidates
// side by side, by digit), then the grouped nodes, digit by digit. Strong links: digit by digit,
// a unit whose places split into two nodes; then a bivalue cell's two candidates. Weak links:
// digit by digit, disjoint nodes whose cells all see each other; then any two candidates of a
// cell. Without `grouped`, the one-cell nodes alone.
ChainGraph BuildGraph(const Board& board, bool grouped = true);

// Whether `kind`'s chains use `node`: x-chains the one-cell nodes, xy-chains the one-cell nodes
// of bivalue cells, alternating inference chains every node.
bool InChains(ChainKind kind, const ChainGraph& graph, const Board& board, int node);
// Whether `kind`'s chains use the strong (or weak) link `link`: x-chains the links between two
// of their nodes of one digit; xy-chains the strong links within a cell and the weak links
// between nodes of one digit; alternating inference chains every link.
bool InChains(ChainKind kind, const ChainGraph& graph, const Board& board,
              const std::pair<int, int>& link, bool strong);

}  // namespace sudoku::logic::internal

#endif  // SUDOKU_SOLVER_LOGIC_CHAIN_GRAPH_H_
