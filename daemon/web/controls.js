// render(): the whole page drawn from the state; and what goes with the board beside it: which
// buttons work, the play tools, the help in words.

import { $, state } from './state.js';
import { saveGame } from './address.js';
import { renderVerdict } from './puzzle.js';
import { focusCell, renderBoard } from './board.js';
import { renderStepList, renderSteps } from './explain.js';
import { clock, elapsedOf } from './play.js';
import { renderCopy } from './copy.js';

// What Explain from here does, said in the help of play rather than in a tooltip.
const EXPLAIN_HERE = 'Explain from here explains your board from your digits and notes; Back returns to the game.';

const HELP = {
  editing: [
    'Editing: click a cell, then <kbd>1</kbd>–<kbd>9</kbd> enter a digit, <kbd>0</kbd> or <kbd>⌫</kbd> clear it, arrow keys move.',
    'Editing: tap a cell, then a digit below; ⌫ clears it.',
  ],
  viewing: [
    'Viewing the explanation: <kbd>←</kbd> <kbd>→</kbd> step (on a cell, the arrows move between cells), <kbd>Home</kbd> <kbd>End</kbd> start and end, <kbd>Esc</kbd> edit the puzzle.',
    'Viewing the explanation: the arrows under Explanation step, the list of steps jumps, Edit puzzle changes it.',
  ],
  playing: [
    'Playing: <kbd>1</kbd>–<kbd>9</kbd> place a digit (with Notes on, or <kbd>Shift</kbd>, toggle a candidate), <kbd>⌫</kbd> clear, <kbd>N</kbd> notes, <kbd>U</kbd> or <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo, <kbd>Ctrl</kbd>+<kbd>Y</kbd> or <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Z</kbd> redo, <kbd>H</kbd> hint, <kbd>Esc</kbd> stop. ' + EXPLAIN_HERE,
    'Playing: tap a cell, then a digit below; with Notes on, a digit toggles a candidate. ' + EXPLAIN_HERE,
  ],
  pencil: [
    'A pencilmark puzzle: change it in the text box.',
    'A pencilmark puzzle: change it in the text box.',
  ],
};

export function renderControls() {
  const working = state.busy > 0;
  const explanation = state.explanation;
  const last = explanation ? explanation.steps.length : 0;
  const playing = state.mode === 'playing';
  for (const id of ['load', 'generate', 'solve', 'explain', 'clear', 'play']) $(id).disabled = working;
  // Play while playing only once solved: a new game.
  $('play').disabled = working || (playing && !state.play.solved);
  const stepping = state.mode === 'viewing' && explanation;
  $('first').disabled = !stepping || state.position === 0;
  $('back').disabled = !stepping || state.position === 0;
  $('forward').disabled = !stepping || state.position >= last;
  $('last').disabled = !stepping || state.position >= last;
  $('edit').hidden = state.mode === 'editing';
  $('edit').textContent = playing ? 'Stop playing' : 'Edit puzzle';
  // A pencilmark puzzle is changed in the text box, not on the board; in play it takes digits.
  const pencilEditing = Boolean(state.pencil) && state.mode === 'editing';
  $('keypad').hidden = state.mode === 'viewing' || pencilEditing;
  $('play-tools').hidden = !playing;
  if (playing) {
    const p = state.play;
    $('notes').setAttribute('aria-pressed', String(p.notes));
    $('undo').disabled = !p.history.length || p.solved;
    $('redo').disabled = !p.future.length || p.solved;
    $('explain-here').disabled = working || p.solved;
    $('play-message').textContent = p.message;
    $('timer').textContent = clock(elapsedOf(p));
  }
  for (let d = 1; d <= 9; ++d) {
    $(`highlight-${d}`).setAttribute('aria-pressed', String(state.highlight === d));
  }
  const help = HELP[pencilEditing ? 'pencil' : state.mode];
  $('help-keys').innerHTML = help[0];
  $('help-touch').textContent = help[1];
}

// A button that held the focus and is now disabled would drop it to the page, where Space and
// Enter do nothing: the focus goes to its counterpart instead (End to Back, Start to Forward).
const FOCUS_INSTEAD = {
  last: ['back', 'first'], forward: ['back', 'first'], first: ['forward', 'last'],
  back: ['forward', 'last'], undo: ['redo', 'hint'], redo: ['undo', 'hint'], play: ['edit'],
};

export function render() {
  const active = document.activeElement;
  renderBoard();
  renderVerdict();
  renderStepList();
  renderSteps();
  renderControls();
  renderCopy();
  saveGame();
  if (active && active.disabled && FOCUS_INSTEAD[active.id]) {
    const next = FOCUS_INSTEAD[active.id].map($).find((b) => b && !b.disabled && !b.hidden);
    if (next) next.focus({ preventScroll: true });
    else focusCell(state.cursor);
  }
}
