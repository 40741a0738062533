// The sudokud page: a board that shows givens, placed digits and every empty cell's candidates,
// and steps through the daemon's explanation. Everything it knows about Sudoku comes from the
// JSON API (daemon/web_api.h); the page only draws it. Plain JavaScript, no build step.
//
// Two modes:
//   editing  (no explanation or solution shown): the board takes the puzzle. With the board
//            focused, the arrow keys move, 1-9 enter a digit, 0 . Backspace Delete clear it.
//   viewing  (after Explain or Solve, until Edit puzzle or Esc): the board shows the
//            explanation at one step. Left/Right step back and forward, Home/End go to the start
//            and the end, from anywhere on the page but a text field.
'use strict';

(() => {
  const CELLS = 81;
  const $ = (id) => document.getElementById(id);

  // What each technique does, in words, for the step panel.
  const ABOUT = {
    'naked single': 'The cell has one candidate left.',
    'hidden single': 'The digit has one place left in a row, column or box.',
    'pointing': 'Inside a box the digit lies on one line, so the rest of that line cannot hold it.',
    'claiming': 'Inside a line the digit lies in one box, so the rest of that box cannot hold it.',
    'naked pair': 'Two cells of a unit hold only the same two digits; no other cell of the unit can.',
    'hidden pair': 'Two digits can go only in the same two cells of a unit; those cells hold nothing else.',
    'naked triple': 'Three cells of a unit hold only three digits between them; no other cell of the unit can.',
    'hidden triple': 'Three digits can go only in three cells of a unit; those cells hold nothing else.',
    'x-wing': 'In two lines the digit has the same two places across, so it goes nowhere else on those cross lines.',
    'swordfish': 'In three lines the digit has the same three places across, so it goes nowhere else on those cross lines.',
    'guess': 'No technique applies. The digit is taken from the solution, so the explanation can go on.',
  };

  const VERDICTS = {
    solved: 'One (unique)',
    multiple: 'Several',
    unsolvable: 'None',
  };

  // Each cell's 20 peers (same row, column or box).
  const PEERS = Array.from({ length: CELLS }, (_, cell) => {
    const row = Math.floor(cell / 9), col = cell % 9;
    const box = Math.floor(row / 3) * 3 + Math.floor(col / 3);
    const peers = [];
    for (let other = 0; other < CELLS; ++other) {
      if (other === cell) continue;
      const r = Math.floor(other / 9), c = other % 9;
      if (r === row || c === col || Math.floor(r / 3) * 3 + Math.floor(c / 3) === box) peers.push(other);
    }
    return peers;
  });

  const state = {
    givens: new Array(CELLS).fill(0),  // the puzzle being edited
    pencil: null,                      // a pencilmark puzzle's 729 characters, when one is loaded
    loadedText: '',                    // the text box's content when it was last loaded or written
    viewing: false,
    explanation: null,                 // /api/explain's answer for the current puzzle
    position: 0,                       // steps applied, 0..steps.length
    solution: null,                    // /api/solve's answer for the current puzzle
    showSolution: false,               // Solve pressed without an explanation
    cursor: 40,
    busy: 0,
    checkTimer: 0,
    checkSerial: 0,
  };

  const cellName = (cell) => `r${Math.floor(cell / 9) + 1}c${cell % 9 + 1}`;
  const cellIndex = (name) => (name.charCodeAt(1) - 49) * 9 + (name.charCodeAt(3) - 49);

  function unitCells(name) {
    const [kind, number] = name.split(' ');
    const index = Number(number) - 1;
    const cells = [];
    for (let i = 0; i < 9; ++i) {
      if (kind === 'row') cells.push(index * 9 + i);
      else if (kind === 'column') cells.push(i * 9 + index);
      else cells.push((Math.floor(index / 3) * 3 + Math.floor(i / 3)) * 9 + (index % 3) * 3 + (i % 3));
    }
    return cells;
  }

  function puzzleLine() {
    return state.givens.map((d) => (d ? String(d) : '.')).join('');
  }

  // The digits a cell may still take, from the givens alone (what the daemon starts from).
  function initialCandidates(givens) {
    return givens.map((digit, cell) => {
      if (digit) return '';
      const used = new Set(PEERS[cell].map((p) => givens[p]));
      let text = '';
      for (let d = 1; d <= 9; ++d) if (!used.has(d)) text += d;
      return text;
    });
  }

  // ---- Talking to the daemon ----

  async function api(path, body) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
      throw new Error(message);
    }
    return data;
  }

  // Runs `work` with the buttons disabled and its errors shown; returns its value or undefined.
  async function busy(what, work) {
    state.busy += 1;
    setStatus(what);
    renderControls();
    try {
      const value = await work();
      showError('');
      return value;
    } catch (error) {
      showError(error.message);
      return undefined;
    } finally {
      state.busy -= 1;
      if (!state.busy) setStatus('');
      renderControls();
    }
  }

  function showError(message) {
    const box = $('error');
    box.textContent = message;
    box.hidden = !message;
  }

  function setStatus(text) {
    $('status').textContent = text;
  }

  // ---- What the puzzle is ----

  function forgetAnswers() {
    state.explanation = null;
    state.solution = null;
    state.position = 0;
    state.showSolution = false;
    state.viewing = false;
  }

  function setPuzzle(text) {
    forgetAnswers();
    if (text.length === 729) {
      state.pencil = text;
      state.givens = new Array(CELLS).fill(0);
    } else {
      state.pencil = null;
      state.givens = Array.from(text, (c) => (c >= '1' && c <= '9' ? Number(c) : 0));
    }
  }

  // Reads the text box through the daemon (any layout the CLI reads) and shows its verdict.
  async function load() {
    const text = $('puzzle-text').value;
    if (!text.trim()) {
      showError('Type or paste a puzzle first, or generate one.');
      return false;
    }
    const answer = await busy('Reading the puzzle…', () =>
      api('/api/solve', { puzzle: text, unique: true, rate: true }));
    state.loadedText = text;
    if (!answer) return false;
    setPuzzle(answer.puzzle);
    state.solution = answer;
    render();
    return true;
  }

  // The text box changed since it was read: read it first.
  async function ensureLoaded() {
    if ($('puzzle-text').value === state.loadedText) return !$('error').textContent;
    return load();
  }

  function currentPuzzleText() {
    return state.pencil || puzzleLine();
  }

  async function solve() {
    if (!(await ensureLoaded())) return;
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
    state.viewing = true;
    if (state.explanation) {
      state.position = state.explanation.steps.length;
    } else {
      state.showSolution = true;
    }
    render();
  }

  async function explain() {
    if (!(await ensureLoaded())) return;
    if (state.pencil) {
      showError('Explanations start from givens; a pencilmark puzzle can be solved, not explained.');
      return;
    }
    const puzzle = currentPuzzleText();
    const answer = await busy('Explaining…', async () => {
      const explanation = await api('/api/explain', { puzzle });
      if (!state.solution) {
        state.solution = await api('/api/solve', { puzzle, unique: true, rate: true });
      }
      return explanation;
    });
    if (!answer) return;
    if (answer.verdict === 'unsolvable') {
      render();
      showError('This puzzle has no solution: there is nothing to explain.');
      return;
    }
    state.explanation = answer;
    state.position = 0;
    state.showSolution = false;
    state.viewing = true;
    render();
    $('forward').focus({ preventScroll: true });
  }

  async function generate() {
    const level = $('level').value;
    const body = { count: 1 };
    if (level) body.level = level;
    const made = await busy('Generating…', () => api('/api/generate', body));
    if (!made) return;
    if (!made.puzzles.length) {
      showError(made.failures.length ? made.failures[0].message : 'No puzzle came back.');
      return;
    }
    $('puzzle-text').value = made.puzzles[0].puzzle;
    await load();
  }

  function clearAll() {
    $('puzzle-text').value = '';
    state.loadedText = '';
    state.pencil = null;
    state.givens = new Array(CELLS).fill(0);
    forgetAnswers();
    showError('');
    render();
  }

  function edit() {
    state.viewing = false;
    state.showSolution = false;
    render();
    focusCell(state.cursor);
  }

  // ---- Editing ----

  function setDigit(cell, digit) {
    if (state.viewing || state.pencil || state.givens[cell] === digit) return;
    state.givens[cell] = digit;
    forgetAnswers();
    const line = puzzleLine();
    $('puzzle-text').value = line;
    state.loadedText = line;
    render();
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

  // ---- Stepping ----

  function step(to) {
    if (!state.explanation) return;
    const last = state.explanation.steps.length;
    state.position = Math.max(0, Math.min(last, to));
    state.viewing = true;
    state.showSolution = false;
    render();
  }

  // ---- Drawing ----

  // The board as it stands: digits, how each came, candidates, and the marks of the step shown.
  function boardView() {
    const view = {
      digits: state.givens.slice(),
      kinds: state.givens.map((d) => (d ? 'given' : '')),
      candidates: new Array(CELLS).fill(''),
      marks: null,
    };
    const explanation = state.explanation;
    if (state.viewing && explanation) {
      const steps = explanation.steps;
      for (let i = 0; i < state.position; ++i) {
        for (const p of steps[i].placements) {
          const cell = cellIndex(p.cell);
          view.digits[cell] = p.digit;
          view.kinds[cell] = steps[i].technique === 'guess' ? 'guessed' : 'placed';
        }
      }
      if (state.position < steps.length) {
        const shown = steps[state.position];
        view.candidates = shown.candidates.map((c, cell) => (view.digits[cell] ? '' : c));
        view.marks = shown;
      }
      return view;
    }
    if (state.viewing && state.showSolution && state.solution && state.solution.solution) {
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
        view.candidates[cell] = state.pencil.slice(cell * 9, cell * 9 + 9).replace(/[.0]/g, '');
      }
      return view;
    }
    // An empty board shows no candidates: nine in every cell says nothing.
    if (view.digits.some((d) => d)) view.candidates = initialCandidates(view.digits);
    return view;
  }

  function clashes() {
    const bad = new Set();
    if (state.viewing) return bad;
    state.givens.forEach((digit, cell) => {
      if (digit && PEERS[cell].some((p) => state.givens[p] === digit)) bad.add(cell);
    });
    return bad;
  }

  let cellElements = [];

  function buildBoard() {
    const board = $('board');
    for (let row = 0; row < 9; ++row) {
      const rowElement = document.createElement('div');
      rowElement.setAttribute('role', 'row');
      for (let col = 0; col < 9; ++col) {
        const cell = row * 9 + col;
        const element = document.createElement('div');
        element.className = 'cell';
        if (col % 3 === 2 && col < 8) element.classList.add('box-right');
        if (row % 3 === 2 && row < 8) element.classList.add('box-bottom');
        if (col === 8) element.classList.add('last-col');
        if (row === 8) element.classList.add('last-row');
        element.id = `cell-${cellName(cell)}`;
        element.dataset.cell = cellName(cell);
        element.setAttribute('role', 'gridcell');
        element.tabIndex = -1;
        element.addEventListener('click', () => {
          state.cursor = cell;
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
        setDigit(state.cursor, d === 10 ? 0 : d);
        focusCell(state.cursor);
      });
      keypad.appendChild(button);
    }
  }

  function focusCell(cell) {
    const element = cellElements[cell];
    if (element) element.focus({ preventScroll: true });
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
    if (!state.viewing && cell === state.cursor) classes.push('cursor');

    let place = 0;
    const removed = [];
    let note = '';
    if (marks) {
      if (marks.unitCells.has(cell)) classes.push('unit');
      if (marks.patternCells.has(cell)) classes.push('pattern');
      if (marks.placements.has(cell)) {
        place = marks.placements.get(cell);
        classes.push(marks.guess ? 'guess-target' : 'target');
        note = marks.guess ? `; guessed here: ${place}` : `; this step places ${place} here`;
      }
      if (marks.eliminations.has(cell)) {
        removed.push(...marks.eliminations.get(cell));
        note += `; this step removes ${removed.join(', ')} here`;
      }
      if (marks.patternCells.has(cell)) note += '; one of the cells the step rests on';
    }
    element.className = classes.join(' ');

    const where = `Row ${row + 1}, column ${col + 1}`;
    if (digit) {
      element.replaceChildren(Object.assign(document.createElement('span'), {
        className: 'digit',
        textContent: String(digit),
      }));
      const how = { given: 'given', placed: 'placed', guessed: 'guessed', solution: 'from the solution' }[kind] || '';
      element.setAttribute('aria-label', `${where}: ${digit}${how ? `, ${how}` : ''}${note}`);
      element.dataset.value = String(digit);
      element.dataset.candidates = '';
      return;
    }
    const candidates = view.candidates[cell];
    const grid = document.createElement('div');
    grid.className = 'cands';
    for (let d = 1; d <= 9; ++d) {
      const span = document.createElement('span');
      span.className = 'cand';
      if (candidates.includes(String(d))) {
        span.textContent = String(d);
        if (d === place) span.classList.add(marks.guess ? 'guess' : 'place');
        if (removed.includes(d)) span.classList.add('elim');
      }
      grid.appendChild(span);
    }
    element.replaceChildren(grid);
    element.dataset.value = '';
    element.dataset.candidates = candidates;
    const list = candidates ? `candidates ${candidates.split('').join(' ')}` : 'no candidates shown';
    element.setAttribute('aria-label', `${where}: empty, ${list}${note}`);
  }

  function stepMarks(shown) {
    if (!shown) return null;
    const marks = {
      guess: shown.technique === 'guess',
      unitCells: new Set(),
      patternCells: new Set(shown.cells.map(cellIndex)),
      placements: new Map(),
      eliminations: new Map(),
    };
    for (const unit of shown.units) for (const cell of unitCells(unit)) marks.unitCells.add(cell);
    for (const p of shown.placements) marks.placements.set(cellIndex(p.cell), p.digit);
    for (const e of shown.eliminations) {
      const cell = cellIndex(e.cell);
      if (!marks.eliminations.has(cell)) marks.eliminations.set(cell, []);
      marks.eliminations.get(cell).push(e.digit);
    }
    return marks;
  }

  function renderBoard() {
    const view = boardView();
    const marks = stepMarks(view.marks);
    const bad = clashes();
    for (let cell = 0; cell < CELLS; ++cell) renderCell(cell, view, marks, bad);
    for (let cell = 0; cell < CELLS; ++cell) {
      cellElements[cell].tabIndex = cell === state.cursor ? 0 : -1;
    }
    const board = $('board');
    board.classList.toggle('editing', !state.viewing && !state.pencil);
    board.dataset.mode = state.viewing ? 'viewing' : 'editing';
    document.body.classList.toggle('viewing', state.viewing);
  }

  function renderVerdict() {
    const answer = state.explanation || state.solution;
    const solution = state.solution;
    let verdict = '–';
    if (solution) verdict = VERDICTS[solution.verdict] || solution.verdict;
    $('verdict').textContent = verdict;
    const rating = (state.explanation && state.explanation.rating) || (solution && solution.rating);
    $('rating-level').textContent = rating ? rating.level : '–';
    $('rating-hardest').textContent = rating ? rating.hardest : '–';
    $('rating-steps').textContent = rating
      ? `${rating.steps}${rating.logic_guesses ? ` (${rating.logic_guesses} ${rating.logic_guesses === 1 ? 'guess' : 'guesses'})` : ''}`
      : '–';
    return answer;
  }

  function capitalized(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function renderSteps() {
    const explanation = state.explanation;
    const technique = $('technique');
    technique.classList.remove('guess');
    if (!explanation) {
      $('step-count').textContent = 'No explanation yet';
      technique.textContent = '';
      $('technique-about').textContent = state.showSolution
        ? 'The board shows the solution. Press Explain to see how it is reached.'
        : 'Press Explain to see how the puzzle solves, one step at a time.';
      $('step-text').textContent = '';
      return;
    }
    const steps = explanation.steps;
    const position = state.position;
    if (position >= steps.length) {
      $('step-count').textContent = `Solved in ${steps.length} steps`;
      technique.textContent = explanation.verdict === 'multiple'
        ? 'Solved (one of several solutions)'
        : 'Solved';
      $('technique-about').textContent = `Every cell is filled. Hardest technique: ${explanation.rating.hardest}.`;
      $('step-text').textContent = `solution: ${explanation.solution}`;
      return;
    }
    const shown = steps[position];
    $('step-count').textContent = `Step ${position + 1} of ${steps.length}`;
    technique.textContent = shown.technique === 'guess'
      ? 'Guess: logic has run out'
      : capitalized(shown.technique);
    technique.classList.toggle('guess', shown.technique === 'guess');
    $('technique-about').textContent = ABOUT[shown.technique] || '';
    $('step-text').textContent = shown.text;
  }

  function renderControls() {
    const working = state.busy > 0;
    const explanation = state.explanation;
    const last = explanation ? explanation.steps.length : 0;
    for (const id of ['load', 'generate', 'solve', 'explain', 'clear']) $(id).disabled = working;
    $('explain').disabled = working || Boolean(state.pencil);
    $('explain').title = state.pencil ? 'Explanations start from givens, not pencilmarks' : '';
    $('first').disabled = !explanation || state.position === 0;
    $('back').disabled = !explanation || state.position === 0;
    $('forward').disabled = !explanation || state.position >= last;
    $('last').disabled = !explanation || state.position >= last;
    $('edit').hidden = !state.viewing;
    $('keypad').hidden = state.viewing || Boolean(state.pencil);
    $('board-help').innerHTML = state.viewing
      ? 'Viewing the explanation: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd> <kbd>End</kbd> start and end, <kbd>Esc</kbd> edit the puzzle.'
      : state.pencil
        ? 'A pencilmark puzzle: change it in the text box.'
        : 'Editing: click a cell, then <kbd>1</kbd>–<kbd>9</kbd> enter a digit, <kbd>0</kbd> or <kbd>⌫</kbd> clear it, arrow keys move.';
  }

  function render() {
    renderBoard();
    renderVerdict();
    renderSteps();
    renderControls();
  }

  // ---- Keys ----

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const inField = target instanceof HTMLElement &&
      (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT');
    if (inField) return;
    if (state.viewing) {
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
      }
      return;
    }
    // Editing: only while the board has the focus, so that keys elsewhere keep their meaning.
    if (!$('board').contains(target)) return;
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
    if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      setDigit(state.cursor, Number(event.key));
      focusCell(state.cursor);
      return;
    }
    if (['0', '.', 'Backspace', 'Delete', ' '].includes(event.key)) {
      event.preventDefault();
      setDigit(state.cursor, 0);
      focusCell(state.cursor);
    }
  }

  // ---- Start ----

  function start() {
    buildBoard();
    $('load').addEventListener('click', load);
    $('clear').addEventListener('click', clearAll);
    $('generate').addEventListener('click', generate);
    $('solve').addEventListener('click', solve);
    $('explain').addEventListener('click', explain);
    $('edit').addEventListener('click', edit);
    $('first').addEventListener('click', () => step(0));
    $('back').addEventListener('click', () => step(state.position - 1));
    $('forward').addEventListener('click', () => step(state.position + 1));
    $('last').addEventListener('click', () => step(Infinity));
    document.addEventListener('keydown', onKey);
    render();
  }

  start();
})();
