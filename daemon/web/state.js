// What the page holds: the puzzle (its givens, or a pencilmark puzzle's 729 characters), the
// mode (editing, viewing or playing), the daemon's answers for it, the step shown and the
// player's game. Every module reads and changes this one object; render() (controls.js) draws
// the page from it.

import { CELLS, lineOf } from './sudoku.js';

export const $ = (id) => document.getElementById(id);

export const state = {
  givens: new Array(CELLS).fill(0),  // the puzzle being edited
  pencil: null,                      // a pencilmark puzzle's 729 characters, when one is loaded
  loadedText: '',                    // the text box's content when it was last loaded or written
  mode: 'editing',                   // 'editing', 'viewing' or 'playing'
  explanation: null,                 // /api/explain's answer for the current puzzle
  position: 0,                       // steps applied, 0..steps.length
  solution: null,                    // /api/solve's answer for the current puzzle
  showSolution: false,               // Solve pressed without an explanation
  play: null,                        // the player's board (see play() in play.js)
  highlight: 0,                      // the digit shown everywhere, 0 for none
  cursor: 40,
  busy: 0,
  checkTimer: 0,
  checkSerial: 0,
  restoring: false,                  // the address is being read: do not write it meanwhile
  loaded: false,                     // the daemon read loadedText (a refusal leaves it false)
  failure: null,                     // the error of the last request busy() ran, if it failed
  branch: null,                      // the trial's branch opened last: {step, path}
};

export const puzzleLine = () => lineOf(state.givens);

export const hasPuzzle = () => Boolean(state.pencil) || state.givens.some((d) => d);

export function currentPuzzleText() {
  return state.pencil || puzzleLine();
}

// The candidates a pencilmark puzzle leaves in `cell`.
export const pencilCandidates = (cell) => state.pencil.slice(cell * 9, cell * 9 + 9).replace(/[.0]/g, '');

// A word under the board about the last key or action there ("" to clear it).
export function note(text) {
  $('board-note').textContent = text;
}
