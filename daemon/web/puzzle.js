// The puzzle: read from the text box through the daemon (any layout sudoku-client reads),
// solved, explained, generated, cleared, typed on the board while editing; and its verdict and
// ratings in the Solve card.

import { $, currentPuzzleText, hasPuzzle, note, pencilCandidates, puzzleLine, state } from './state.js';
import { CELLS } from './sudoku.js';
import { hardestName } from './techniques.js';
import { Unreachable, api, busy, showError } from './api.js';
import { writeAddress } from './address.js';
import { focusCell } from './board.js';
import { mayDropGame } from './play.js';
import { render } from './controls.js';

const VERDICTS = {
  solved: 'One (unique)',
  multiple: 'Several',
  unsolvable: 'None',
};

// Said when a button that needs a puzzle is pressed on an empty page.
const nothingTo = (what) =>
  `There is no puzzle to ${what} yet: type or paste one, enter it on the board, or press Generate.`;

function forgetAnswers() {
  state.explanation = null;
  state.solution = null;
  state.position = 0;
  state.showSolution = false;
  state.play = null;
  state.mode = 'editing';
}

function setPuzzle(text) {
  forgetAnswers();
  if (text.length === 729) {
    // A cell with one candidate is a given: the daemon counts it as placed too.
    state.pencil = text;
    state.givens = Array.from({ length: CELLS }, (_, cell) => {
      const left = pencilCandidates(cell);
      return left.length === 1 ? Number(left) : 0;
    });
  } else {
    state.pencil = null;
    state.givens = Array.from(text, (c) => (c >= '1' && c <= '9' ? Number(c) : 0));
  }
}

// After a puzzle the daemon refused, nothing of the one before stays on the page: its board,
// verdict, rating and explanation would read as the new text's.
function dropPuzzle() {
  state.pencil = null;
  state.givens = new Array(CELLS).fill(0);
  forgetAnswers();
  note('');
  render();
  writeAddress(false);
}

// Reads the text box through the daemon (any layout the CLI reads) and shows its verdict.
// Another text ends a game in play, after asking (unless the caller `asked` already); the
// same one keeps it.
export async function load(asked = false) {
  const text = $('puzzle-text').value;
  if (!text.trim()) {
    showError('Type or paste a puzzle first, or generate one.');
    return false;
  }
  if (!asked && text !== state.loadedText && !mayDropGame()) return false;
  const answer = await busy('Reading the puzzle…', () =>
    api('/api/solve', { puzzle: text, unique: true, rate: true }));
  if (!answer) {
    // No answer says nothing of the text: the board, the ratings and the address stay, and
    // the next button pressed asks again.
    if (state.failure instanceof Unreachable) return false;
    state.loadedText = text;
    state.loaded = false;
    dropPuzzle();
    return false;
  }
  state.loadedText = text;
  state.loaded = true;
  const fresh = answer.puzzle !== (state.pencil || puzzleLine());
  if (!fresh && state.mode === 'playing') {
    state.solution = answer;
    render();
    return true;
  }
  setPuzzle(answer.puzzle);
  state.solution = answer;
  note('');
  render();
  writeAddress(fresh);
  return true;
}

// The text box changed since it was read, or its last reading was refused or got no answer:
// read it (again). Whatever error shows, from Play or a request that failed, does not matter:
// only whether the daemon read this text.
export async function ensureLoaded() {
  if ($('puzzle-text').value === state.loadedText && state.loaded) return true;
  return load(true);
}

// Whether there is anything to work on; says so when there is not.
export function needPuzzle(what) {
  if ($('puzzle-text').value.trim() || hasPuzzle()) return true;
  showError(nothingTo(what));
  return false;
}

export async function solve() {
  if (!needPuzzle('solve') || !mayDropGame() || !(await ensureLoaded())) return;
  if (!state.solution) {
    const answer = await busy('Solving…', () =>
      api('/api/solve', { puzzle: currentPuzzleText(), unique: true, rate: true }));
    if (!answer) return;
    state.solution = answer;
  }
  if (!state.solution.solution) {
    render();
    return;
  }
  // The answer was at hand: no request cleared an error shown before (Play's, say).
  showError('');
  state.mode = 'viewing';
  state.play = null;
  if (state.explanation) {
    state.position = state.explanation.steps.length;
  } else {
    state.showSolution = true;
  }
  render();
  writeAddress(false);
}

export async function explain() {
  if (!needPuzzle('explain') || !mayDropGame() || !(await ensureLoaded())) return false;
  const puzzle = currentPuzzleText();
  const answer = await busy('Explaining…', async () => {
    const explanation = await api('/api/explain', { puzzle });
    if (!state.solution) {
      state.solution = await api('/api/solve', { puzzle, unique: true, rate: true });
    }
    return explanation;
  });
  if (!answer) return false;
  if (answer.verdict === 'unsolvable') {
    render();
    showError('This puzzle has no solution: there is nothing to explain.');
    return false;
  }
  state.explanation = answer;
  state.position = 0;
  state.showSolution = false;
  state.play = null;
  state.mode = 'viewing';
  note('');
  render();
  writeAddress(false);
  $('forward').focus({ preventScroll: true });
  return true;
}

export async function generate() {
  if (!mayDropGame()) return;
  // A level is QQWing's, or HoDoKu's ("hodoku:hard"); an SE bound left empty is no bound; a
  // technique needed, one the explanation takes a step of ("any technique" sends none).
  // The daemon checks them all and says what it refuses, in its words.
  const level = $('level').value;
  const body = { count: 1 };
  if (level.startsWith('hodoku:')) body.hodoku_level = level.slice('hodoku:'.length);
  else if (level) body.level = level;
  for (const [id, key] of [['se-min', 'se_min'], ['se-max', 'se_max']]) {
    const text = $(id).value.trim();
    if (text) body[key] = Number(text);
  }
  if ($('needs').value) body.needs = $('needs').value;
  const made = await busy('Generating…', () => api('/api/generate', body));
  if (!made) return;
  if (!made.puzzles.length) {
    showError(made.failures.length ? made.failures[0].message : 'No puzzle came back.');
    return;
  }
  $('puzzle-text').value = made.puzzles[0].puzzle;
  if (await load(true)) focusCell(state.cursor);
}

export function clearAll() {
  if (!mayDropGame()) return;
  $('puzzle-text').value = '';
  state.loadedText = '';
  state.loaded = true;
  state.pencil = null;
  state.givens = new Array(CELLS).fill(0);
  forgetAnswers();
  showError('');
  note('');
  render();
  writeAddress(true);
}

export function edit() {
  if (!mayDropGame()) return;
  state.mode = 'editing';
  state.showSolution = false;
  state.play = null;
  note('');
  render();
  writeAddress(false);
  focusCell(state.cursor);
}

export function setDigit(cell, digit) {
  if (state.mode !== 'editing' || state.pencil || state.givens[cell] === digit) return;
  state.givens[cell] = digit;
  forgetAnswers();
  const line = puzzleLine();
  $('puzzle-text').value = line;
  // The board's digits are the puzzle already: the check below asks for its verdict, and a
  // request for it reports any error itself.
  state.loadedText = line;
  state.loaded = true;
  render();
  writeAddress(false);
  scheduleCheck();
}

// A short while after the last edit, asks the daemon for the verdict (and any error).
function scheduleCheck() {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(async () => {
    if (!state.givens.some((d) => d)) {
      showError('');
      render();
      return;
    }
    const serial = ++state.checkSerial;
    const puzzle = puzzleLine();
    try {
      const answer = await api('/api/solve', { puzzle, unique: true, rate: true });
      if (serial !== state.checkSerial || puzzle !== puzzleLine()) return;
      state.solution = answer;
      showError('');
    } catch (error) {
      if (serial !== state.checkSerial) return;
      showError(error.message);
    }
    render();
  }, 350);
}

export function renderVerdict() {
  const solution = state.solution;
  let verdict = '–';
  if (solution) verdict = VERDICTS[solution.verdict] || solution.verdict;
  $('verdict').textContent = verdict;
  const rating = (state.explanation && state.explanation.rating) || (solution && solution.rating);
  $('rating-level').textContent = rating ? rating.level : '–';
  $('rating-hardest').textContent = rating
    ? hardestName(rating, state.explanation && state.explanation.steps) : '–';
  // HoDoKu's level and score, and the Sudoku Explainer rating with its pearl and diamond
  // (ER/EP/ED), as those programs print them.
  $('rating-hodoku').textContent = rating && rating.hodoku_level
    ? `${rating.hodoku_level} (${rating.hodoku_score})` : '–';
  $('rating-se').textContent = rating && rating.se !== undefined
    ? [rating.se, rating.se_pearl, rating.se_diamond]
        .filter((value) => value !== undefined).map((value) => Number(value).toFixed(1)).join('/')
    : '–';
  $('rating-steps').textContent = rating
    ? `${rating.steps}${rating.logic_guesses ? ` (${rating.logic_guesses} ${rating.logic_guesses === 1 ? 'trial' : 'trials'})` : ''}`
    : '–';
}
