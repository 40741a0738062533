// Play: the person fills the board in. Digits placed (each leaving its row, column and box),
// candidates noted and struck by hand, undo and redo, the clock, and the board locked once
// solved. Hints are hint.js's.

import { currentPuzzleText, note, pencilCandidates, state } from './state.js';
import { PEERS, cellName, initialCandidates } from './sudoku.js';
import { api, busy, showError } from './api.js';
import { KEPT, forgetGame, keptGame, writeAddress } from './address.js';
import { edit, ensureLoaded, needPuzzle } from './puzzle.js';
import { focusCell } from './board.js';
import { render } from './controls.js';

// The player's board starts from the givens with every candidate they leave, as a person
// would pencil them in; each change keeps the board before it for Undo. Play on a solved
// board starts a new game; otherwise a game kept in the browser for this puzzle goes on
// (`resumeSolved`: even a solved one, as the page was left).
export async function play(resumeSolved = false) {
  if (!needPuzzle('play') || !mayDropGame() || !(await ensureLoaded())) return;
  if (!state.solution) {
    const answer = await busy('Solving…', () =>
      api('/api/solve', { puzzle: currentPuzzleText(), unique: true, rate: true }));
    if (!answer) return;
    state.solution = answer;
  }
  if (state.solution.verdict !== 'solved') {
    showError(state.solution.verdict === 'multiple'
      ? 'This puzzle has more than one solution: play needs one with exactly one.'
      : 'This puzzle has no solution: there is nothing to play.');
    render();
    return;
  }
  showError('');
  const kept = state.mode === 'playing' ? null : keptGame();
  const resume = kept && (resumeSolved === true || !kept.solved);
  // A pencilmark puzzle starts from its own candidates: those it lacks and no given rules out
  // count as struck by hand.
  const candidates = state.pencil
    ? state.givens.map((digit, cell) => (digit ? '' : pencilCandidates(cell)))
    : initialCandidates(state.givens);
  const possible = initialCandidates(state.givens);
  state.play = {
    digits: state.givens.slice(),
    candidates,
    // Per cell, the candidates the player struck by hand (Notes), until noted again: clearing
    // a digit gives back what it struck, never these (see unplace).
    struck: possible.map((left, cell) => [...left].filter((d) => !candidates[cell].includes(d)).join('')),
    history: [],
    future: [],       // the boards Undo went back from, for Redo
    solved: false,    // every digit right: the board is locked until a new game
    notes: false,
    hint: null,       // the next step from the player's board, shown until the next change
    grade: 0,         // how much of the hint shows: 1 where to look, 2 its cells, 3 its result
    wrong: new Set(), // cells a hint found wrong
    message: 'Fill the board in: a digit places it, Notes (or Shift) toggles a candidate.',
    elapsed: 0,       // the time played in milliseconds, up to `since`
    since: null,      // when the clock last started (performance.now()), null while it stands
  };
  if (resume) {
    for (const key of KEPT) state.play[key] = kept[key];
    state.play.message = state.play.solved ? SOLVED : 'Your game goes on where you left it.';
  }
  if (!state.play.solved) state.play.since = performance.now();
  state.mode = 'playing';
  state.showSolution = false;
  note('');
  render();
  writeAddress(false);
  focusCell(state.cursor);
}

export function playSay(text) {
  state.play.message = text;
}

export const SOLVED = 'Solved: every digit is right.';

const LOCKED = 'Solved: the board no longer changes. Press Play to play it again.';

// A game in progress (moves made, not solved) that an action would end: asks the player
// first. True when there is none to lose, or the player lets it go.
// A game let go is no longer kept in the browser either (a game that goes on after all is
// kept again at its next change).
export function mayDropGame() {
  const p = state.play;
  // Back or Forward has changed the address already: there is nothing left to ask, and the
  // game stays kept, to go on when the player comes back to its puzzle.
  if (state.restoring || state.mode !== 'playing' || !p) return true;
  if (!p.solved && (p.history.length || p.future.length) &&
      !window.confirm('This ends your game: the digits and notes you entered will be lost.')) {
    return false;
  }
  forgetGame();
  return true;
}

// The time played so far, in milliseconds.
export const elapsedOf = (p) => p.elapsed + (p.since === null ? 0 : performance.now() - p.since);

export function clock(milliseconds) {
  const seconds = Math.floor(milliseconds / 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

// The clock runs while the page is in sight: a game left in another tab does not count it.
export function pauseClock() {
  const p = state.play;
  if (!p || p.since === null) return;
  p.elapsed = elapsedOf(p);
  p.since = null;
}

export function resumeClock() {
  const p = state.play;
  if (p && !p.solved && p.since === null) p.since = performance.now();
}

// The board as it is, for Undo and Redo.
function snapshot() {
  const p = state.play;
  return { digits: p.digits.slice(), candidates: p.candidates.slice(), struck: p.struck.slice() };
}

function restore(board) {
  const p = state.play;
  p.digits = board.digits;
  p.candidates = board.candidates;
  p.struck = board.struck;
  p.hint = null;
  p.wrong = new Set();
}

// Keeps the board as it is for Undo, and forgets a hint shown for it and what Redo held.
function remember() {
  const p = state.play;
  p.history.push(snapshot());
  p.future = [];
  p.hint = null;
  p.wrong = new Set();
}

// Whether a digit on the board other than in `cell` rules `digit` out of it.
function excluded(cell, digit) {
  return PEERS[cell].some((peer) => state.play.digits[peer] === digit);
}

// Whether `digit` may come back as a candidate of empty `cell`: no digit on the board rules
// it out and the player has not struck it there by hand.
function mayReturn(cell, digit) {
  return !excluded(cell, digit) && !state.play.struck[cell].includes(String(digit));
}

// Takes the placed digit out of `cell` and gives back what digits took (the rule is in
// daemon/web/README.md): the digit to each empty peer, and to the cell every digit, where
// mayReturn says so. Candidates kept by hand stay as they are.
function unplace(cell) {
  const p = state.play;
  const digit = p.digits[cell];
  p.digits[cell] = 0;
  for (const peer of PEERS[cell]) {
    const back = !p.digits[peer] && !p.candidates[peer].includes(String(digit));
    if (back && mayReturn(peer, digit)) {
      p.candidates[peer] = [...p.candidates[peer], String(digit)].sort().join('');
    }
  }
  let candidates = '';
  for (let d = 1; d <= 9; ++d) if (mayReturn(cell, d)) candidates += d;
  p.candidates[cell] = candidates;
}

export function playDigit(cell, digit) {
  const p = state.play;
  if (p.solved) {
    playSay(LOCKED);
  } else if (state.givens[cell]) {
    playSay(`${cellName(cell)} is a given: it cannot change.`);
  } else if (p.notes) {
    toggleCandidate(cell, digit);
    return;
  } else if (p.digits[cell] !== digit) {
    remember();
    if (p.digits[cell]) unplace(cell);
    // The digit leaves its row, column and box, as it does on paper.
    p.digits[cell] = digit;
    p.candidates[cell] = '';
    for (const peer of PEERS[cell]) p.candidates[peer] = p.candidates[peer].replace(String(digit), '');
    const solution = state.solution.solution;
    p.solved = p.digits.every((d, c) => String(d) === solution[c]);
    if (p.solved) pauseClock();
    playSay(p.solved ? SOLVED : `${digit} placed in ${cellName(cell)}.`);
  }
  render();
}

export function toggleCandidate(cell, digit) {
  const p = state.play;
  if (p.solved) {
    playSay(LOCKED);
  } else if (p.digits[cell]) {
    playSay(`${cellName(cell)} holds a digit: clear it first to note candidates.`);
  } else {
    remember();
    const has = p.candidates[cell].includes(String(digit));
    const set = new Set(p.candidates[cell]);
    if (has) set.delete(String(digit));
    else set.add(String(digit));
    p.candidates[cell] = [...set].sort().join('');
    // A strike by hand stays when a digit is cleared; a note by hand lifts it.
    p.struck[cell] = has
      ? [...new Set([...p.struck[cell], String(digit)])].sort().join('')
      : p.struck[cell].replace(String(digit), '');
    playSay(`${has ? 'Removed' : 'Noted'} candidate ${digit} in ${cellName(cell)}.`);
  }
  render();
}

export function playClear(cell) {
  const p = state.play;
  if (p.solved) {
    playSay(LOCKED);
  } else if (state.givens[cell]) {
    playSay(`${cellName(cell)} is a given: it cannot change.`);
  } else if (p.digits[cell]) {
    remember();
    unplace(cell);
    playSay(`${cellName(cell)} cleared.`);
  }
  render();
}

// Undo and redo: the state goes back (or forward) one move, the one left kept for the way back.
function travel(from, to, nothing, done) {
  if (state.play.solved) {
    playSay(LOCKED);
  } else if (!from.length) {
    playSay(nothing);
  } else {
    to.push(snapshot());
    restore(from.pop());
    playSay(done);
  }
  render();
}

export function undo() {
  travel(state.play.history, state.play.future, 'Nothing to undo.', 'Undone.');
}

export function redo() {
  travel(state.play.future, state.play.history, 'Nothing to redo.', 'Redone.');
}

export function toggleNotes() {
  state.play.notes = !state.play.notes;
  playSay(state.play.notes
    ? 'Notes on: digits toggle candidates.'
    : 'Notes off: digits are placed.');
  render();
}

export function stopPlay() {
  edit();
}
