// Copy as PM grid: the board as it is shown (its digits, and the candidates of its empty cells)
// written as HoDoKu's "Copy PM grid" writes it, put on the clipboard. Where the browser does not
// let the page copy, the grid shows in a box under the button, selected, to copy by hand. Pasted
// into the text box and loaded, it gives the same board back.

import { $, hasPuzzle } from './state.js';
import { cellName, pmGridOf } from './sudoku.js';
import { boardView } from './board.js';

const COPIED = 'Copied as a PM grid: paste it into HoDoKu, or into the text box here to load this board.';
const BY_HAND = 'The browser does not let the page copy: the PM grid is below, selected, to copy yourself.';

// The board's grid (or why it has none) when Copy was last pressed, while the board still
// shows the same; null otherwise.
let copied = null;

// The board shown as a PM grid: {text}, or {error} when a PM grid cannot show it; `key` is
// either.
function boardGrid() {
  const view = boardView();
  const text = pmGridOf(view.digits, view.candidates);
  if (text !== null) return { text, key: text };
  const cell = view.digits.findIndex((digit, c) => !digit && !view.candidates[c]);
  const error = `${cellName(cell)} has no candidate left: a PM grid cannot show it.`;
  return { error, key: error };
}

function say(text) {
  $('copy-message').textContent = text;
}

function showBox(text) {
  const box = $('pm-grid');
  box.value = text || '';
  box.hidden = !text;
}

export async function copyPmGrid() {
  const grid = boardGrid();
  copied = grid.key;
  if (grid.error) {
    showBox('');
    say(grid.error);
    return;
  }
  try {
    // Only a secure context (https, or the loopback address) has navigator.clipboard; the
    // browser may refuse there too (a permission, a page without the focus).
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(grid.text);
    showBox('');
    say(COPIED);
  } catch (_) {
    showBox(grid.text);
    say(BY_HAND);
    const box = $('pm-grid');
    box.focus({ preventScroll: true });
    box.select();
    box.scrollIntoView({ block: 'nearest' });
  }
}

// With the page: Copy works while there is a board; what a copy said, and the box, go once the
// board shows something else.
export function renderCopy() {
  $('copy-pm').disabled = !hasPuzzle();
  if (copied === null) return;
  if (hasPuzzle() && boardGrid().key === copied) return;
  copied = null;
  showBox('');
  say('');
}
