// What the page keeps outside itself: the address (#puzzle=TEXT&step=N), so that a reload or a
// shared link opens the same view and Back returns to the puzzle before; and the game in play,
// kept in localStorage under its puzzle, so that a reload goes on with it.

import { $, currentPuzzleText, hasPuzzle, puzzleLine, state } from './state.js';
import { CELLS } from './sudoku.js';
import { clearAll, edit, explain, load } from './puzzle.js';
import { step } from './explain.js';
import { elapsedOf, play } from './play.js';

// "puzzle=...&step=N" for what is shown, "" for an empty page.
function addressOf() {
  if (!hasPuzzle()) return '';
  let text = `puzzle=${encodeURIComponent(state.pencil || puzzleLine())}`;
  if (state.mode === 'viewing' && state.explanation) text += `&step=${state.position}`;
  return text;
}

// Writes the view into the address: `push` for a new puzzle (a history entry of its own),
// else the current entry is replaced, so that stepping does not fill the history.
export function writeAddress(push) {
  if (state.restoring) return;
  const hash = addressOf();
  if (location.hash.slice(1) === hash) return;
  const url = hash ? `#${hash}` : location.pathname + location.search;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

// Opens the view the address names: on start, and on Back and Forward.
export async function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const puzzle = params.get('puzzle');
  state.restoring = true;
  try {
    if (!puzzle) {
      if (hasPuzzle() || $('puzzle-text').value) clearAll();
      return;
    }
    if (puzzle !== (state.pencil || puzzleLine()) || !state.solution) {
      $('puzzle-text').value = puzzle;
      if (!(await load())) return;
    }
    if (params.has('step')) {
      if (!state.explanation && !(await explain())) return;
      step(Number(params.get('step')) || 0);
    } else if (state.mode === 'playing' && puzzle === currentPuzzleText()) {
      // The puzzle in play: the game goes on.
    } else if (keptGame()) {
      // A game left in play (the page reloaded, or closed and opened again) goes on.
      await play(true);
    } else if (state.mode !== 'editing') {
      edit();
    }
  } finally {
    state.restoring = false;
  }
}

// ---- The game kept in the browser ----

// What of a game localStorage keeps, under its puzzle, so that a reload (or the page closed
// and opened again) goes on with it. A hint is not kept: Hint asks again.
export const KEPT = ['digits', 'candidates', 'struck', 'history', 'future', 'solved', 'notes', 'elapsed'];

const gameKey = () => `sudokud.game:${currentPuzzleText()}`;

// Storage may be off or full (a private window): the game then goes on unkept.
export function saveGame() {
  const p = state.play;
  if (state.mode !== 'playing' || !p) return;
  const kept = {};
  for (const key of KEPT) kept[key] = p[key];
  kept.elapsed = elapsedOf(p);
  try {
    localStorage.setItem(gameKey(), JSON.stringify(kept));
  } catch (_) {
    // Not kept: nothing else to do.
  }
}

export function forgetGame() {
  try {
    localStorage.removeItem(gameKey());
  } catch (_) {
    // Nothing was kept.
  }
}

// The game kept for the puzzle shown, or null (none, or not one this page can read).
export function keptGame() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(gameKey()) || 'null');
  } catch (_) {
    return null;
  }
  const valid = kept && KEPT.every((key) => key in kept) && Array.isArray(kept.digits) &&
    kept.digits.length === CELLS && Array.isArray(kept.history) && Array.isArray(kept.future);
  return valid ? kept : null;
}
