// The sudokud page: a board that shows givens, placed digits and every empty cell's candidates,
// steps through the daemon's explanation, and lets a person play. Everything it knows about
// Sudoku's logic comes from the JSON API (daemon/web_api.h); the page only draws it and keeps
// the player's own digits and candidates. Plain JavaScript modules, no build step; this one, the
// entry, wires the others to the page and starts it.
//
// Three modes:
//   editing  (no explanation or solution shown): the board takes the puzzle. With the board
//            focused, the arrow keys move, 1-9 enter a digit, 0 . Backspace Delete clear it.
//   viewing  (after Explain or Solve, until Edit puzzle or Esc): the board shows the
//            explanation at one step. Left/Right step back and forward, Home/End go to the start
//            and the end, from anywhere on the page but a text field; the list of steps jumps.
//   playing  (after Play, until Stop or Esc): the person fills the board in: digits, their own
//            candidates (Notes, or Shift with a digit), undo, and a hint (the next step from their
//            digits and candidates, in three grades, shown on the board, not applied).
// The puzzle and the step shown live in the address (#puzzle=...&step=N), so that a reload or a
// shared link opens the same view; a new puzzle is a new history entry, steps replace it.
//
// The modules, one concern each:
//   state.js       what the page holds: the puzzle, the mode, the daemon's answers, the game
//   sudoku.js      the board's geometry, and a board as text (81 characters, 729 pencilmarks)
//   api.js         the daemon's JSON API: requests, the buttons held meanwhile, errors in words
//   address.js     the address (#puzzle=...&step=N) and the game kept in localStorage
//   puzzle.js      the puzzle read, solved, explained, generated, typed on the board; its ratings
//   board.js       the board drawn: digits, candidates, the marks of a step or a hint
//   explain.js     the explanation: stepping, the list of steps, a trial's branches, chains drawn
//   techniques.js  the techniques in words: their names as players write them, what each does
//   play.js        play: digits, notes, undo and redo, the clock, the board locked once solved
//   hint.js        hints in three grades, and Explain from here
//   controls.js    render(): the page drawn from the state; which buttons work; the help
//   keys.js        the keyboard
//   copy.js        Copy as PM grid: the board as HoDoKu's candidate grid, on the clipboard

import { $, state } from './state.js';
import { readAddress, saveGame } from './address.js';
import { clearAll, edit, explain, generate, load, solve } from './puzzle.js';
import { boardView, buildBoard, focusCell } from './board.js';
import { linkedStep, renderLinks, step } from './explain.js';
import { clock, elapsedOf, pauseClock, play, redo, resumeClock, toggleNotes, undo } from './play.js';
import { explainFromHere, hint } from './hint.js';
import { render } from './controls.js';
import { onKey } from './keys.js';
import { copyPmGrid } from './copy.js';
import { NEEDABLE, displayName } from './techniques.js';

function start() {
  buildBoard();
  // Generate's "Needs": the techniques /api/generate takes, as players write them.
  for (const technique of NEEDABLE) $('needs').add(new Option(displayName(technique), technique));
  // After Load, the board takes the keys; after a refusal, the text box, to correct it.
  $('load').addEventListener('click', async () => {
    if (await load()) focusCell(state.cursor);
    else $('puzzle-text').focus({ preventScroll: true });
  });
  $('clear').addEventListener('click', clearAll);
  $('generate').addEventListener('click', generate);
  $('solve').addEventListener('click', solve);
  $('explain').addEventListener('click', explain);
  $('play').addEventListener('click', () => play());
  $('edit').addEventListener('click', edit);
  $('first').addEventListener('click', () => step(0));
  $('back').addEventListener('click', () => step(state.position - 1));
  $('forward').addEventListener('click', () => step(state.position + 1));
  $('last').addEventListener('click', () => step(Infinity));
  $('notes').addEventListener('click', () => {
    toggleNotes();
    focusCell(state.cursor);
  });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('explain-here').addEventListener('click', explainFromHere);
  $('copy-pm').addEventListener('click', copyPmGrid);
  document.addEventListener('keydown', onKey);
  window.addEventListener('popstate', readAddress);
  // The time played, each second; kept as the page is left (a reload, a closed tab).
  setInterval(() => {
    if (state.mode === 'playing' && state.play) $('timer').textContent = clock(elapsedOf(state.play));
  }, 1000);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) pauseClock();
    else resumeClock();
    saveGame();
  });
  window.addEventListener('pagehide', saveGame);
  window.addEventListener('resize', () => renderLinks(linkedStep(boardView())));
  render();
  readAddress();
}

start();
