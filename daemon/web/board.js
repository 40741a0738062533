// Drawing the board: its cells, labels, keypad and highlight buttons, built once; then, at every
// render, each cell's digit or candidates and the marks of the step shown (or of a hint).

import { $, pencilCandidates, state } from './state.js';
import { CELLS, PEERS, cellIndex, cellName, initialCandidates, unitCells } from './sudoku.js';
import { kindOf } from './techniques.js';
import { setDigit } from './puzzle.js';
import { linkedStep, renderLinks, selectedBranch } from './explain.js';
import { playClear, playDigit, toggleCandidate } from './play.js';
import { hintUnit } from './hint.js';
import { render } from './controls.js';

// The board as it stands: digits, how each came, candidates, and the step whose marks to draw.
export function boardView() {
  const view = {
    digits: state.givens.slice(),
    kinds: state.givens.map((d) => (d ? 'given' : '')),
    candidates: new Array(CELLS).fill(''),
    marks: null,
    grade: 3,  // a hint's grade: below 3 the step's result and links stay hidden
  };
  const explanation = state.explanation;
  if (state.mode === 'playing' && state.play) {
    const p = state.play;
    view.digits = p.digits.slice();
    view.kinds = p.digits.map((d, cell) => (state.givens[cell] ? 'given' : d ? 'player' : ''));
    view.candidates = p.candidates.map((c, cell) => (p.digits[cell] ? '' : c));
    if (p.hint) {
      view.marks = p.hint;
      view.grade = p.grade;
    }
    return view;
  }
  if (state.mode === 'viewing' && explanation) {
    const steps = explanation.steps;
    for (let i = 0; i < state.position; ++i) {
      for (const p of steps[i].placements) {
        const cell = cellIndex(p.cell);
        view.digits[cell] = p.digit;
        view.kinds[cell] = kindOf(steps[i]) === 'choice' ? 'chosen' : 'placed';
      }
    }
    if (state.position < steps.length) {
      const shown = steps[state.position];
      view.candidates = shown.candidates.map((c, cell) => (view.digits[cell] ? '' : c));
      view.marks = shown;
    }
    return view;
  }
  if (state.mode === 'viewing' && state.showSolution && state.solution && state.solution.solution) {
    const solution = state.solution.solution;
    for (let cell = 0; cell < CELLS; ++cell) {
      if (!view.digits[cell]) {
        view.digits[cell] = Number(solution[cell]);
        view.kinds[cell] = 'solution';
      }
    }
    return view;
  }
  if (state.pencil) {
    for (let cell = 0; cell < CELLS; ++cell) {
      if (!view.digits[cell]) view.candidates[cell] = pencilCandidates(cell);
    }
    return view;
  }
  // An empty board shows no candidates: nine in every cell says nothing.
  if (view.digits.some((d) => d)) view.candidates = initialCandidates(view.digits);
  return view;
}

// Cells whose digit a peer repeats: the puzzle being typed, or the player's board.
function clashes(view) {
  const bad = new Set();
  if (state.mode === 'viewing') return bad;
  view.digits.forEach((digit, cell) => {
    if (digit && PEERS[cell].some((p) => view.digits[p] === digit)) bad.add(cell);
  });
  return bad;
}

export const cellElements = [];

export function buildBoard() {
  const board = $('board');
  for (let row = 0; row < 9; ++row) {
    const rowElement = document.createElement('div');
    rowElement.setAttribute('role', 'row');
    for (let col = 0; col < 9; ++col) {
      const cell = row * 9 + col;
      const element = document.createElement('div');
      element.className = 'cell';
      element.id = `cell-${cellName(cell)}`;
      element.dataset.cell = cellName(cell);
      element.setAttribute('role', 'gridcell');
      element.tabIndex = -1;
      element.addEventListener('click', () => {
        state.cursor = cell;
        // In play, a digit's cell picks the digit to highlight, as puzzle apps do.
        if (state.mode === 'playing' && state.play.digits[cell]) state.highlight = state.play.digits[cell];
        render();
        focusCell(cell);
      });
      rowElement.appendChild(element);
      cellElements.push(element);
    }
    board.appendChild(rowElement);
  }
  const cols = document.querySelector('.col-labels');
  const rows = document.querySelector('.row-labels');
  for (let i = 1; i <= 9; ++i) {
    cols.appendChild(Object.assign(document.createElement('span'), { textContent: i }));
    rows.appendChild(Object.assign(document.createElement('span'), { textContent: i }));
  }
  const keypad = $('keypad');
  for (let d = 1; d <= 10; ++d) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = d === 10 ? '⌫' : String(d);
    button.setAttribute('aria-label', d === 10 ? 'Clear the cell' : `Enter ${d}`);
    button.addEventListener('click', () => {
      typeDigit(d === 10 ? 0 : d, false);
      focusCell(state.cursor);
    });
    keypad.appendChild(button);
  }
  const highlight = $('highlight');
  for (let d = 1; d <= 9; ++d) {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = `highlight-${d}`;
    button.textContent = String(d);
    button.setAttribute('aria-label', `Highlight ${d} everywhere`);
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      state.highlight = state.highlight === d ? 0 : d;
      render();
    });
    highlight.appendChild(button);
  }
}

// A digit (0: clear) from a key or the keypad, as the mode takes it.
export function typeDigit(digit, asCandidate) {
  if (state.mode === 'playing') {
    if (!digit) playClear(state.cursor);
    else if (asCandidate) toggleCandidate(state.cursor, digit);
    else playDigit(state.cursor, digit);
  } else {
    setDigit(state.cursor, digit);
  }
}

export function focusCell(cell) {
  const element = cellElements[cell];
  if (element) element.focus({ preventScroll: true });
}

// What one step marks on the board. `candidates` are those shown with it (the step's own
// while viewing, the player's in play); `digits` the board's. With a trial's branch open, its
// links are drawn and its candidate is the one tried.
function stepMarks(shown, digits, candidates) {
  if (!shown) return null;
  const branch = selectedBranch(shown);
  const marks = {
    choice: kindOf(shown) === 'choice',
    trial: kindOf(shown) === 'trial',
    unitCells: new Set(),
    patternCells: new Set(shown.cells.map(cellIndex)),
    placements: new Map(),
    eliminations: new Map(),
    tried: branch ? branch.tries.digit : shown.technique === 'trial' ? shown.digits[0] : 0,
    triedCell: branch ? cellIndex(branch.tries.cell)
      : shown.technique === 'trial' ? cellIndex(shown.cells[0]) : -1,
    follows: new Map(),  // removed from the peers by this step's placement
    keys: new Map(),     // the candidates the pattern rests on (the 8s of an x-wing)
    ends: new Map(),     // a chain's two ends: its first node and its last
    contradiction: -1,   // the cell where a refutation's contradiction shows
  };
  const add = (map, cell, digit) => {
    if (!map.has(cell)) map.set(cell, []);
    if (!map.get(cell).includes(digit)) map.get(cell).push(digit);
  };
  for (const unit of shown.units) for (const cell of unitCells(unit)) marks.unitCells.add(cell);
  for (const p of shown.placements) marks.placements.set(cellIndex(p.cell), p.digit);
  for (const e of shown.eliminations) add(marks.eliminations, cellIndex(e.cell), e.digit);
  for (const [cell, digit] of marks.placements) {
    for (const peer of PEERS[cell]) {
      if (!digits[peer] && candidates[peer].includes(String(digit)) &&
          !(marks.eliminations.get(peer) || []).includes(digit)) {
        add(marks.follows, peer, digit);
      }
    }
  }
  // A chain's nodes: the candidates its links join.
  for (const link of (branch || shown).links || []) {
    for (const node of [link.from, link.to]) {
      for (const name of node.cells) {
        const cell = cellIndex(name);
        if (!digits[cell] && !marks.placements.has(cell) &&
            !(marks.eliminations.get(cell) || []).includes(node.digit)) {
          add(marks.keys, cell, node.digit);
        }
      }
    }
  }
  // The chain's ends; a chain that refutes its own start (a trial, or a branch of one, or a
  // forcing chain from a candidate) ends where the contradiction shows. A trial with nested
  // ones shows its contradictions in its branches.
  const chain = (branch || shown).links || [];
  if (chain.length) {
    const first = chain[0].from, last = chain[chain.length - 1].to;
    for (const node of [first, last]) {
      for (const name of node.cells) if (!digits[cellIndex(name)]) add(marks.ends, cellIndex(name), node.digit);
    }
    const refutes = branch ? !branch.nesting_cell : !(shown.branches || []).length &&
      shown.eliminations.some((e) => e.cell === first.cells[0] && e.digit === first.digit);
    if (refutes && last.cells.length === 1) marks.contradiction = cellIndex(last.cells[0]);
  }
  // A nested trial's second cell rests on the digits after the one tried.
  const restsOn = (cell) => (shown.technique !== 'trial' ? shown.digits
    : cell === marks.triedCell ? shown.digits.slice(0, 1) : shown.digits.slice(1));
  for (const cell of marks.patternCells) {
    if (digits[cell] || marks.placements.has(cell)) continue;
    for (const digit of restsOn(cell)) {
      if (candidates[cell].includes(String(digit)) &&
          !(marks.eliminations.get(cell) || []).includes(digit)) {
        add(marks.keys, cell, digit);
      }
    }
  }
  return marks;
}

function renderCell(cell, view, marks, bad) {
  const element = cellElements[cell];
  const digit = view.digits[cell];
  const kind = view.kinds[cell];
  const classes = ['cell'];
  const col = cell % 9, row = Math.floor(cell / 9);
  if (col % 3 === 2 && col < 8) classes.push('box-right');
  if (row % 3 === 2 && row < 8) classes.push('box-bottom');
  if (col === 8) classes.push('last-col');
  if (row === 8) classes.push('last-row');
  if (kind) classes.push(kind);
  if (bad.has(cell)) classes.push('clash');
  if (state.mode === 'playing' && state.play.wrong.has(cell)) classes.push('wrong');
  if (state.mode !== 'viewing' && cell === state.cursor) classes.push('cursor');
  if (state.highlight && digit === state.highlight) classes.push('highlight');

  let place = 0;
  const removed = marks && marks.eliminations.get(cell) || [];
  const follows = marks && marks.follows.get(cell) || [];
  const keys = marks && marks.keys.get(cell) || [];
  const ends = marks && marks.ends.get(cell) || [];
  let about = '';
  if (marks) {
    if (marks.unitCells.has(cell)) classes.push('unit');
    if (marks.patternCells.has(cell)) classes.push('pattern');
    if (marks.placements.has(cell)) {
      place = marks.placements.get(cell);
      classes.push(marks.choice ? 'choice-target' : 'target');
      about = marks.choice ? `; chosen here: ${place}` : `; this step places ${place} here`;
    }
    if (marks.trial && marks.triedCell === cell) about += `; ${marks.tried} is tried here`;
    if (removed.length) about += `; this step removes ${removed.join(', ')} here`;
    if (follows.length) about += `; the placement removes ${follows.join(', ')} here`;
    if (marks.patternCells.has(cell)) about += '; one of the cells the step rests on';
    if (ends.length) about += `; an end of the chain (${ends.join(', ')})`;
    if (marks.contradiction === cell) {
      classes.push('contradiction');
      about += '; the contradiction shows here';
    }
  }
  element.className = classes.join(' ');

  const where = `Row ${row + 1}, column ${col + 1}`;
  if (digit) {
    element.replaceChildren(Object.assign(document.createElement('span'), {
      className: 'digit',
      textContent: String(digit),
    }));
    const how = {
      given: 'given', placed: 'placed', chosen: 'chosen', solution: 'from the solution',
      player: 'yours',
    }[kind] || '';
    element.setAttribute('aria-label', `${where}: ${digit}${how ? `, ${how}` : ''}${about}`);
    element.dataset.value = String(digit);
    element.dataset.candidates = '';
    return;
  }
  let candidates = view.candidates[cell];
  // A hint's placement is drawn even where the player had crossed the digit out.
  if (place && !candidates.includes(String(place))) candidates = [...candidates, String(place)].sort().join('');
  const grid = document.createElement('div');
  grid.className = 'cands';
  for (let d = 1; d <= 9; ++d) {
    const span = document.createElement('span');
    span.className = 'cand';
    if (candidates.includes(String(d))) {
      span.textContent = String(d);
      if (d === place) span.classList.add(marks.choice ? 'chosen' : 'place');
      if (marks && marks.trial && marks.triedCell === cell && marks.tried === d) span.classList.add('tried');
      if (removed.includes(d)) span.classList.add('elim');
      if (follows.includes(d)) span.classList.add('follow');
      if (keys.includes(d)) span.classList.add('key');
      if (ends.includes(d)) span.classList.add('end');
      if (d === state.highlight) span.classList.add('highlight');
    }
    grid.appendChild(span);
  }
  element.replaceChildren(grid);
  element.dataset.value = '';
  element.dataset.candidates = candidates;
  const list = candidates ? `candidates ${candidates.split('').join(' ')}` : 'no candidates shown';
  element.setAttribute('aria-label', `${where}: empty, ${list}${about}`);
}

// A hint short of its last grade marks only where to look: at grade 1 the unit it names, at
// grade 2 the cells it rests on and their units; what it places, removes or links waits.
function gradeMarks(marks, view) {
  if (!marks || view.grade >= 3) return marks;
  const named = hintUnit(view.marks);
  const unit = view.grade === 1 && named !== 'the board' ? new Set(unitCells(named)) : marks.unitCells;
  return {
    ...marks, choice: false, trial: false, tried: 0, triedCell: -1, unitCells: unit,
    patternCells: view.grade === 1 ? new Set() : marks.patternCells,
    placements: new Map(), eliminations: new Map(), follows: new Map(), keys: new Map(),
    ends: new Map(), contradiction: -1,
  };
}

export function renderBoard() {
  const view = boardView();
  const marks = gradeMarks(stepMarks(view.marks, view.digits, view.candidates), view);
  const bad = clashes(view);
  for (let cell = 0; cell < CELLS; ++cell) renderCell(cell, view, marks, bad);
  renderLinks(linkedStep(view));
  for (let cell = 0; cell < CELLS; ++cell) {
    cellElements[cell].tabIndex = cell === state.cursor ? 0 : -1;
  }
  const board = $('board');
  board.classList.toggle('editing', state.mode === 'playing' || (state.mode === 'editing' && !state.pencil));
  board.dataset.mode = state.mode;
  document.body.classList.toggle('viewing', state.mode === 'viewing');
  document.body.classList.toggle('playing', state.mode === 'playing');
}
