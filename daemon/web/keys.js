// The keyboard, in each mode (the keys are listed in daemon/web/README.md and main.js).

import { $, note, state } from './state.js';
import { edit } from './puzzle.js';
import { focusCell, typeDigit } from './board.js';
import { step } from './explain.js';
import { redo, stopPlay, toggleNotes, undo } from './play.js';
import { hint } from './hint.js';
import { render } from './controls.js';

const VIEWING_DIGIT =
  'The board shows the explanation: press Play to fill it in yourself, or Esc to change the puzzle.';

export function onKey(event) {
  const target = event.target;
  const inField = target instanceof HTMLElement &&
    (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT');
  if (inField) return;
  // Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo, as in editors on each system.
  const letter = event.key.toLowerCase();
  if (state.mode === 'playing' && (event.ctrlKey || event.metaKey) && !event.altKey &&
      (letter === 'z' || letter === 'y')) {
    event.preventDefault();
    if (letter === 'z' && !event.shiftKey) undo();
    else redo();
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  // A cell that has the focus takes the arrows, in every mode: they move between cells.
  const onCell = target instanceof HTMLElement && target.classList.contains('cell');
  if (state.mode === 'viewing' && !(onCell && event.key.startsWith('Arrow'))) {
    const moves = {
      ArrowRight: () => step(state.position + 1),
      ArrowLeft: () => step(state.position - 1),
      Home: () => step(0),
      End: () => step(Infinity),
      Escape: () => edit(),
    };
    const move = moves[event.key];
    if (move && (state.explanation || event.key === 'Escape')) {
      event.preventDefault();
      move();
    } else if (/^[0-9]$/.test(event.key)) {
      // The board takes no digits while it shows an explanation: say so, not nothing.
      note(VIEWING_DIGIT);
    }
    return;
  }
  const playing = state.mode === 'playing';
  if (playing) {
    const keys = { n: toggleNotes, u: undo, h: hint, Escape: stopPlay };
    const action = keys[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (action) {
      event.preventDefault();
      action();
      return;
    }
    // Keys on a button keep their meaning there (Enter, Space); the board's keys work anywhere.
    if (target instanceof HTMLButtonElement && (event.key === 'Enter' || event.key === ' ')) return;
  } else if (state.mode === 'editing' && !$('board').contains(target)) {
    // Editing: only while the board has the focus, so that keys elsewhere keep their meaning.
    return;
  }
  const row = Math.floor(state.cursor / 9), col = state.cursor % 9;
  const arrows = {
    ArrowUp: [row - 1, col], ArrowDown: [row + 1, col],
    ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1],
  };
  if (arrows[event.key]) {
    event.preventDefault();
    const [r, c] = arrows[event.key];
    state.cursor = ((r + 9) % 9) * 9 + ((c + 9) % 9);
    render();
    focusCell(state.cursor);
    return;
  }
  // Shift with a digit gives '!' and the like as the key: the key's place names the digit.
  const digitCode = /^(?:Digit|Numpad)([1-9])$/.exec(event.code || '');
  if (/^[1-9]$/.test(event.key) || (event.shiftKey && digitCode)) {
    event.preventDefault();
    typeDigit(Number(digitCode ? digitCode[1] : event.key), event.shiftKey);
    focusCell(state.cursor);
    return;
  }
  if (['0', '.', 'Backspace', 'Delete', ' '].includes(event.key)) {
    event.preventDefault();
    typeDigit(0, false);
    focusCell(state.cursor);
  }
}
