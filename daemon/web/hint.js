// Hints in play: the next step from the player's own digits and candidates, in three grades,
// or the digit the solution contradicts; and Explain from here.

import { $, state } from './state.js';
import { cellIndex, cellName, pencilOf } from './sudoku.js';
import { displayName } from './techniques.js';
import { api, busy } from './api.js';
import { saveGame } from './address.js';
import { explain, load } from './puzzle.js';
import { SOLVED, playSay } from './play.js';
import { render } from './controls.js';

// "an X-Wing", "a Naked Single": the article goes by the sound of the name's first letter.
const withArticle = (name) => `${/^[AEIOX]/.test(name) ? 'an' : 'a'} ${name}`;

// A list of names as written in words: "r3c3, r3c9 and r5c3".
const inWords = (names) => names.join(', ').replace(/, ([^,]*)$/, ' and $1');

// Where a hint's first grade sends the player: the step's first unit, or else the box of the
// cell it starts from (a single or a chain names no unit).
export function hintUnit(next) {
  if (next.units.length) return next.units[0];
  const first = next.cells[0] || [...next.placements, ...next.eliminations].map((p) => p.cell)[0];
  if (!first) return 'the board';
  const cell = cellIndex(first);
  return `box ${Math.floor(cell / 27) * 3 + Math.floor((cell % 9) / 3) + 1}`;
}

// What a hint says at each grade: 1 where to look (a unit and the technique), 2 the cells it
// rests on, 3 what it places or removes.
function hintWords(next, grade) {
  const name = withArticle(displayName(next.technique, next.hodoku_name));
  if (grade === 1) return `Look at ${hintUnit(next)}: ${name}. Hint again shows its cells.`;
  const cells = next.cells.length ? inWords(next.cells) : hintUnit(next);
  if (grade === 2) return `Look at ${cells}: ${name}. Hint again shows what it does.`;
  return `Hint: ${next.text}`;
}

// A digit or a candidate of the player's the solution contradicts (no step could follow from
// it), or a board with nothing left to do: said, and true.
function sayProblem() {
  const p = state.play;
  const solution = state.solution.solution;
  const wrongDigit = p.digits.findIndex((d, c) => d && String(d) !== solution[c]);
  const missing = p.digits.findIndex((d, c) => !d && !p.candidates[c].includes(solution[c]));
  if (wrongDigit >= 0) {
    p.hint = null;
    p.wrong = new Set([wrongDigit]);
    playSay(`Hint: ${cellName(wrongDigit)} holds ${p.digits[wrongDigit]}, which is not its digit: undo it or clear it.`);
  } else if (missing >= 0) {
    p.hint = null;
    p.wrong = new Set([missing]);
    playSay(`Hint: ${cellName(missing)} lost a candidate it needs: its digit is among those removed there.`);
  } else if (p.digits.every((d) => d)) {
    playSay(SOLVED);
  } else {
    return false;
  }
  render();
  return true;
}

// The whole explanation from the player's board: it opens as a pencilmark puzzle of its own
// (a new entry in the history), while the game stays kept, so that Back goes on with it.
export async function explainFromHere() {
  if (state.busy || sayProblem()) return;
  const p = state.play;
  saveGame();
  $('puzzle-text').value = pencilOf(p.digits, p.candidates);
  if (await load(true)) await explain();
}

// The next step from the player's board, in three grades (each press of Hint goes one
// further), drawn on it and named, not applied. A digit or a candidate the solution
// contradicts comes first: no step could follow from it.
export async function hint() {
  if (state.busy) return;
  const p = state.play;
  if (p.hint && p.grade < 3) {
    p.grade += 1;
    playSay(hintWords(p.hint, p.grade));
    render();
    return;
  }
  if (sayProblem()) return;
  const board = pencilOf(p.digits, p.candidates);
  // A failure is said under the board, beside the keypad the player is using, not in the
  // Puzzle card (a screen away on a phone).
  const answer = await busy('Finding a hint…', () => api('/api/explain', { puzzle: board }),
    (message) => playSay(message));
  if (!answer || state.mode !== 'playing' ||
      pencilOf(state.play.digits, state.play.candidates) !== board) return;
  p.wrong = new Set();
  // The checks above leave the daemon little to refuse; it has the last word all the same.
  if (answer.verdict === 'unsolvable') {
    p.hint = null;
    // The daemon names what it sees at once ("r1c3 holds only 5, as r1c1 does, in row 1").
    playSay(answer.reason
      ? `Your notes leave no solution: ${answer.reason}.`
      : 'Your notes leave no solution: a digit you struck or placed is wrong.');
  } else if (!answer.steps.length) {
    // The daemon counts a cell with one candidate as placed: nothing is left to explain.
    p.hint = null;
    playSay('Hint: every empty cell has one candidate left: place it.');
  } else {
    p.hint = answer.steps[0];
    p.grade = 1;
    playSay(hintWords(p.hint, p.grade));
  }
  render();
}
