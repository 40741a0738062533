// The board's geometry and the puzzle's texts: cells and their names (r1c1), units, peers, the
// candidates digits leave, and a board as text: 81 characters, 729 pencilmarks, HoDoKu's PM grid.

export const CELLS = 81;

// Each cell's 20 peers (same row, column or box).
export const PEERS = Array.from({ length: CELLS }, (_, cell) => {
  const row = Math.floor(cell / 9), col = cell % 9;
  const box = Math.floor(row / 3) * 3 + Math.floor(col / 3);
  const peers = [];
  for (let other = 0; other < CELLS; ++other) {
    if (other === cell) continue;
    const r = Math.floor(other / 9), c = other % 9;
    if (r === row || c === col || Math.floor(r / 3) * 3 + Math.floor(c / 3) === box) peers.push(other);
  }
  return peers;
});

export const cellName = (cell) => `r${Math.floor(cell / 9) + 1}c${cell % 9 + 1}`;

export const cellIndex = (name) => (name.charCodeAt(1) - 49) * 9 + (name.charCodeAt(3) - 49);

export function unitCells(name) {
  const [kind, number] = name.split(' ');
  const index = Number(number) - 1;
  const cells = [];
  for (let i = 0; i < 9; ++i) {
    if (kind === 'row') cells.push(index * 9 + i);
    else if (kind === 'column') cells.push(i * 9 + index);
    else cells.push((Math.floor(index / 3) * 3 + Math.floor(i / 3)) * 9 + (index % 3) * 3 + (i % 3));
  }
  return cells;
}

export const lineOf = (digits) => digits.map((d) => (d ? String(d) : '.')).join('');

// The digits cell `cell` may still take beside `digits`.
function candidatesOf(digits, cell) {
  const used = new Set(PEERS[cell].map((p) => digits[p]));
  let text = '';
  for (let d = 1; d <= 9; ++d) if (!used.has(d)) text += d;
  return text;
}

// Every cell's candidates from the digits alone (what the daemon starts from).
export function initialCandidates(digits) {
  return digits.map((digit, cell) => (digit ? '' : candidatesOf(digits, cell)));
}

// The player's board as a 729-character pencilmark puzzle, nine characters a cell: a digit's
// cell holds it alone, an empty cell the candidates the player left. The daemon explains from
// those candidates, so a hint never repeats what the player's notes already show.
export function pencilOf(digits, candidates) {
  let text = '';
  for (let cell = 0; cell < CELLS; ++cell) {
    const has = digits[cell] ? String(digits[cell]) : candidates[cell];
    for (let d = 1; d <= 9; ++d) text += has.includes(String(d)) ? String(d) : '.';
  }
  return text;
}

// The board as HoDoKu's PM grid, as its "Copy PM grid" writes one (and sudoku-client reads one):
// a cell's digit, or else its candidates, each column as wide as its widest cell and a space
// between cells, '|' between the boxes, rulers of '-' with '.' above, ':' and '+' between the
// bands and '\'' below. `digits` (0 for none) and `candidates` per cell; null when an empty
// cell has no candidate left, which a PM grid cannot show.
export function pmGridOf(digits, candidates) {
  const cells = digits.map((digit, cell) => (digit ? String(digit) : candidates[cell]));
  if (cells.some((text) => !text)) return null;
  const widths = Array.from({ length: 9 }, (_, col) =>
    Math.max(...Array.from({ length: 9 }, (_, row) => cells[row * 9 + col].length)));
  const BOXES = [0, 3, 6];
  // A box's columns, the spaces between them and one space each side.
  const ruler = (edge, joint) => edge +
    BOXES.map((c) => '-'.repeat(widths[c] + widths[c + 1] + widths[c + 2] + 4)).join(joint) + edge;
  const lines = [ruler('.', '.')];
  for (let row = 0; row < 9; ++row) {
    if (row === 3 || row === 6) lines.push(ruler(':', '+'));
    const boxes = BOXES.map((c) => [c, c + 1, c + 2]
      .map((col) => cells[row * 9 + col].padEnd(widths[col])).join(' '));
    lines.push(`| ${boxes.join(' | ')} |`);
  }
  lines.push(ruler('\'', '\''));
  return `${lines.join('\n')}\n`;
}
