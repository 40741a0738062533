// The board's geometry and the puzzle's texts: cells and their names (r1c1), units, peers, the
// candidates digits leave, and a board as the daemon reads it (81 characters, 729 pencilmarks).

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
