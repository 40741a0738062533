// The sudokud page: a board that shows givens, placed digits and every empty cell's candidates,
// steps through the daemon's explanation, and lets a person play. Everything it knows about
// Sudoku's logic comes from the JSON API (daemon/web_api.h); the page only draws it and keeps
// the player's own digits and candidates. Plain JavaScript, no build step.
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
    'naked quad': 'Four cells of a unit hold only four digits between them; no other cell of the unit can.',
    'hidden quad': 'Four digits can go only in four cells of a unit; those cells hold nothing else.',
    'x-wing': 'In two lines the digit has the same two places across, so it goes nowhere else on those cross lines.',
    'swordfish': 'In three lines the digit has the same three places across, so it goes nowhere else on those cross lines.',
    'jellyfish': 'In four lines the digit has the same four places across, so it goes nowhere else on those cross lines.',
    'skyscraper': 'Two lines hold the digit in two places each, one end of each in the same cross line; one of the other two ends is the digit, so no cell seeing both can be.',
    'two-string kite': 'A row and a column each hold the digit in two places, one end of each in the same box; one of the other ends is the digit, so no cell seeing both can be.',
    'empty rectangle': 'In a box the digit lies on one row and one column; with a line where it has two places, one end is forced either way, and the cell seeing both loses it.',
    'xy-wing': 'A two-digit cell (xy) sees two others (xz, yz): whichever digit it takes, one of them is z, so no cell seeing both can be z.',
    'xyz-wing': 'As an xy-wing whose pivot holds z too: z is in one of the three, so no cell seeing all three can be z.',
    'w-wing': 'Two cells hold the same two digits, and one of them lies wherever the other digit can go in a unit: one cell is the first digit, so no cell seeing both can be.',
    'multi colours': 'Two clusters of the digit\'s pairs, each coloured two ways (one colour of each is true): if a colour of one sees both colours of the other it is false; if a colour of each sees the other, one of their opposites is true, so a cell seeing both opposites loses the digit.',
    'sue de coq': 'Two or three cells where a line crosses a box hold two digits more than their count; cells of the line and of the box, sharing none of those digits, take up the surplus: the digits are locked in those cells, so the rest of the line and of the box lose them.',
    'turbot fish': 'Two pairs of places of one digit (each the only two in a unit), an end of one seeing an end of the other: one of the two far ends holds the digit, so no cell seeing both can.',
    'remote pair': 'Cells holding the same two digits, each seeing the next, alternate between them along the chain: a cell seeing two of them of opposite parity holds neither digit.',
    'simple colouring': 'Following the digit\'s pairs (two places in a unit), the cells take two colours; one colour is true, so a cell seeing both colours loses the digit, or a colour that meets itself is false.',
    'unique rectangle': 'Four cells in two rows, two columns and two boxes cannot all hold the same two digits, or the puzzle would have two solutions; what keeps that from happening is forced.',
    'hidden rectangle': 'Four cells in two rows, two columns and two boxes hold the same two digits, one of them no other; where the first digit has no other place in the far corner\'s row and column, the far corner cannot be the second digit, or the four could swap.',
    'bug+1': 'Every open cell but one holds two candidates: had that cell two as well, the puzzle would have two solutions, so it takes the digit that appears three times in its units.',
    'finned fish': 'An x-wing, swordfish or jellyfish but for extra places (fins) in one box: either the fish holds or a fin is the digit, so the cross-line cells in that box lose it.',
    'sashimi fish': 'A finned fish with a corner missing: either the fish holds or a fin is the digit, so the cross-line cells in the fins\' box lose it.',
    'x-chain': 'A chain on one digit, its links alternately strong (one of two places is the digit) and weak: one of its two ends is the digit, so no cell seeing both can be.',
    'xy-chain': 'A chain of two-digit cells: if the first is not the digit, the last is, so no cell seeing both ends can be.',
    'alternating inference chain': 'A chain whose links are alternately strong (one of two is true) and weak (not both): one of its ends is true, so what both ends rule out goes.',
    'als-xz': 'Two almost locked sets (n cells, n+1 digits) share a digit x that cannot be in both; so one of them holds digit z in its cells, and no cell seeing every z of both can be z.',
    'wxyz-wing': 'Sudoku Explainer\'s: three cells of a unit holding four digits and a bivalue cell, an als-xz of those two sets.',
    'forcing chain': 'Each way a cell or a unit can go leads to the same result, or one candidate leads to a contradiction: the net of implications shows why, each single with every removal it rests on.',
    'trial': 'No pattern applies. A candidate is tried: what follows from it ends in a contradiction, so it is removed.',
    'choice': 'The puzzle has several solutions: a digit is chosen to go on.',
  };
  // Each technique's name as players write it (the API's are lower case, for programs): spelt
  // out, since no rule of capitals gives XY-Chain, ALS-XZ and BUG+1 alike.
  const NAMES = {
    'naked single': 'Naked Single',
    'hidden single': 'Hidden Single',
    'pointing': 'Pointing',
    'claiming': 'Claiming',
    'naked pair': 'Naked Pair',
    'hidden pair': 'Hidden Pair',
    'naked triple': 'Naked Triple',
    'hidden triple': 'Hidden Triple',
    'naked quad': 'Naked Quad',
    'hidden quad': 'Hidden Quad',
    'x-wing': 'X-Wing',
    'swordfish': 'Swordfish',
    'jellyfish': 'Jellyfish',
    'remote pair': 'Remote Pair',
    'skyscraper': 'Skyscraper',
    'two-string kite': 'Two-String Kite',
    'turbot fish': 'Turbot Fish',
    'empty rectangle': 'Empty Rectangle',
    'xy-wing': 'XY-Wing',
    'xyz-wing': 'XYZ-Wing',
    'w-wing': 'W-Wing',
    'simple colouring': 'Simple Colouring',
    'multi colours': 'Multi Colours',
    'unique rectangle': 'Unique Rectangle',
    'hidden rectangle': 'Hidden Rectangle',
    'bug+1': 'BUG+1',
    'finned fish': 'Finned Fish',
    'sashimi fish': 'Sashimi Fish',
    'sue de coq': 'Sue de Coq',
    'x-chain': 'X-Chain',
    'xy-chain': 'XY-Chain',
    'alternating inference chain': 'Alternating Inference Chain',
    'als-xz': 'ALS-XZ',
    'wxyz-wing': 'WXYZ-Wing',
    'forcing chain': 'Forcing Chain',
    'trial': 'Trial',
  };
  // A technique the table does not know yet goes by HoDoKu's name for the step, else as sent.
  const displayName = (technique, hodokuName) => NAMES[technique] || hodokuName || technique;

  // The step's kind for the words and marks: a trial that places a digit is a choice.
  const kindOf = (s) => (s.technique === 'trial' && s.placements.length ? 'choice' : s.technique);

  const VERDICTS = {
    solved: 'One (unique)',
    multiple: 'Several',
    unsolvable: 'None',
  };

  // Said when a button that needs a puzzle is pressed on an empty page.
  const nothingTo = (what) =>
    `There is no puzzle to ${what} yet: type or paste one, enter it on the board, or press Generate.`;
  const VIEWING_DIGIT =
    'The board shows the explanation: press Play to fill it in yourself, or Esc to change the puzzle.';

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
    mode: 'editing',                   // 'editing', 'viewing' or 'playing'
    explanation: null,                 // /api/explain's answer for the current puzzle
    position: 0,                       // steps applied, 0..steps.length
    solution: null,                    // /api/solve's answer for the current puzzle
    showSolution: false,               // Solve pressed without an explanation
    play: null,                        // the player's board (see startPlay)
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

  const lineOf = (digits) => digits.map((d) => (d ? String(d) : '.')).join('');
  const puzzleLine = () => lineOf(state.givens);
  const hasPuzzle = () => Boolean(state.pencil) || state.givens.some((d) => d);

  // The digits cell `cell` may still take beside `digits`.
  function candidatesOf(digits, cell) {
    const used = new Set(PEERS[cell].map((p) => digits[p]));
    let text = '';
    for (let d = 1; d <= 9; ++d) if (!used.has(d)) text += d;
    return text;
  }

  // Every cell's candidates from the digits alone (what the daemon starts from).
  function initialCandidates(digits) {
    return digits.map((digit, cell) => (digit ? '' : candidatesOf(digits, cell)));
  }

  // ---- Talking to the daemon ----

  // Said when a request gets no answer at all (the daemon stopped, the network dropped): the
  // browser's own words ("Failed to fetch") tell a player nothing.
  const UNREACHABLE = 'The daemon cannot be reached: check that sudokud is running, then try again.';

  // A request that got no answer, as opposed to one the daemon refused: the puzzle may be fine,
  // so nothing of it is dropped.
  class Unreachable extends Error {}

  async function api(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (_) {
      throw new Unreachable(UNREACHABLE);
    }
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

  // Runs `work` with the buttons disabled and its errors shown (by `report`, in the Puzzle card
  // unless said otherwise); returns its value or undefined (state.failure then holds the error).
  async function busy(what, work, report = showError) {
    state.busy += 1;
    state.failure = null;
    setStatus(what);
    renderControls();
    try {
      const value = await work();
      showError('');
      return value;
    } catch (error) {
      state.failure = error;
      report(error.message);
      return undefined;
    } finally {
      state.busy -= 1;
      if (!state.busy) setStatus('');
      renderControls();
    }
  }

  // The error box, brought into sight when it shows: on a phone the button pressed may be a
  // screen away from it.
  function showError(message) {
    const box = $('error');
    box.textContent = message;
    box.hidden = !message;
    if (!message) return;
    const where = box.getBoundingClientRect();
    if (where.top < 0 || where.bottom > window.innerHeight) box.scrollIntoView({ block: 'nearest' });
  }

  function setStatus(text) {
    $('status').textContent = text;
  }

  // A word under the board about the last key or action there ("" to clear it).
  function note(text) {
    $('board-note').textContent = text;
  }

  // ---- The address ----

  // "puzzle=...&step=N" for what is shown, "" for an empty page.
  function addressOf() {
    if (!hasPuzzle()) return '';
    let text = `puzzle=${encodeURIComponent(state.pencil || puzzleLine())}`;
    if (state.mode === 'viewing' && state.explanation) text += `&step=${state.position}`;
    return text;
  }

  // Writes the view into the address: `push` for a new puzzle (a history entry of its own),
  // else the current entry is replaced, so that stepping does not fill the history.
  function writeAddress(push) {
    if (state.restoring) return;
    const hash = addressOf();
    if (location.hash.slice(1) === hash) return;
    const url = hash ? `#${hash}` : location.pathname + location.search;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  // Opens the view the address names: on start, and on Back and Forward.
  async function readAddress() {
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

  // ---- What the puzzle is ----

  function forgetAnswers() {
    state.explanation = null;
    state.solution = null;
    state.position = 0;
    state.showSolution = false;
    state.play = null;
    state.mode = 'editing';
  }

  // The candidates a pencilmark puzzle leaves in `cell`.
  const pencilCandidates = (cell) => state.pencil.slice(cell * 9, cell * 9 + 9).replace(/[.0]/g, '');

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
  async function load(asked = false) {
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
  async function ensureLoaded() {
    if ($('puzzle-text').value === state.loadedText && state.loaded) return true;
    return load(true);
  }

  // Whether there is anything to work on; says so when there is not.
  function needPuzzle(what) {
    if ($('puzzle-text').value.trim() || hasPuzzle()) return true;
    showError(nothingTo(what));
    return false;
  }

  function currentPuzzleText() {
    return state.pencil || puzzleLine();
  }

  async function solve() {
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

  async function explain() {
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

  async function generate() {
    if (!mayDropGame()) return;
    // A level is QQWing's, or HoDoKu's ("hodoku:hard"); an SE bound left empty is no bound.
    // The daemon checks them all and says what it refuses, in its words.
    const level = $('level').value;
    const body = { count: 1 };
    if (level.startsWith('hodoku:')) body.hodoku_level = level.slice('hodoku:'.length);
    else if (level) body.level = level;
    for (const [id, key] of [['se-min', 'se_min'], ['se-max', 'se_max']]) {
      const text = $(id).value.trim();
      if (text) body[key] = Number(text);
    }
    const made = await busy('Generating…', () => api('/api/generate', body));
    if (!made) return;
    if (!made.puzzles.length) {
      showError(made.failures.length ? made.failures[0].message : 'No puzzle came back.');
      return;
    }
    $('puzzle-text').value = made.puzzles[0].puzzle;
    if (await load(true)) focusCell(state.cursor);
  }

  function clearAll() {
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

  function edit() {
    if (!mayDropGame()) return;
    state.mode = 'editing';
    state.showSolution = false;
    state.play = null;
    note('');
    render();
    writeAddress(false);
    focusCell(state.cursor);
  }

  // ---- Editing ----

  function setDigit(cell, digit) {
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

  // ---- Stepping ----

  function step(to) {
    if (!state.explanation || !mayDropGame()) return;
    const last = state.explanation.steps.length;
    state.position = Math.max(0, Math.min(last, to));
    state.mode = 'viewing';
    state.showSolution = false;
    state.play = null;
    note('');
    render();
    writeAddress(false);
  }

  // ---- Playing ----

  // The player's board starts from the givens with every candidate they leave, as a person
  // would pencil them in; each change keeps the board before it for Undo. Play on a solved
  // board starts a new game; otherwise a game kept in the browser for this puzzle goes on
  // (`resumeSolved`: even a solved one, as the page was left).
  async function play(resumeSolved = false) {
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

  function playSay(text) {
    state.play.message = text;
  }

  const SOLVED = 'Solved: every digit is right.';
  const LOCKED = 'Solved: the board no longer changes. Press Play to play it again.';

  // A game in progress (moves made, not solved) that an action would end: asks the player
  // first. True when there is none to lose, or the player lets it go.
  // A game let go is no longer kept in the browser either (a game that goes on after all is
  // kept again at its next change).
  function mayDropGame() {
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

  // ---- The game kept in the browser ----

  // What of a game localStorage keeps, under its puzzle, so that a reload (or the page closed
  // and opened again) goes on with it. A hint is not kept: Hint asks again.
  const KEPT = ['digits', 'candidates', 'struck', 'history', 'future', 'solved', 'notes', 'elapsed'];
  const gameKey = () => `sudokud.game:${currentPuzzleText()}`;

  // The time played so far, in milliseconds.
  const elapsedOf = (p) => p.elapsed + (p.since === null ? 0 : performance.now() - p.since);

  function clock(milliseconds) {
    const seconds = Math.floor(milliseconds / 1000);
    const pad = (n) => String(n).padStart(2, '0');
    return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
  }

  // Storage may be off or full (a private window): the game then goes on unkept.
  function saveGame() {
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

  function forgetGame() {
    try {
      localStorage.removeItem(gameKey());
    } catch (_) {
      // Nothing was kept.
    }
  }

  // The game kept for the puzzle shown, or null (none, or not one this page can read).
  function keptGame() {
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

  // The clock runs while the page is in sight: a game left in another tab does not count it.
  function pauseClock() {
    const p = state.play;
    if (!p || p.since === null) return;
    p.elapsed = elapsedOf(p);
    p.since = null;
  }

  function resumeClock() {
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

  function playDigit(cell, digit) {
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

  function toggleCandidate(cell, digit) {
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

  function playClear(cell) {
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

  function undo() {
    const p = state.play;
    if (p.solved) {
      playSay(LOCKED);
    } else if (!p.history.length) {
      playSay('Nothing to undo.');
    } else {
      p.future.push(snapshot());
      restore(p.history.pop());
      playSay('Undone.');
    }
    render();
  }

  function redo() {
    const p = state.play;
    if (p.solved) {
      playSay(LOCKED);
    } else if (!p.future.length) {
      playSay('Nothing to redo.');
    } else {
      p.history.push(snapshot());
      restore(p.future.pop());
      playSay('Redone.');
    }
    render();
  }

  function toggleNotes() {
    state.play.notes = !state.play.notes;
    playSay(state.play.notes
      ? 'Notes on: digits toggle candidates.'
      : 'Notes off: digits are placed.');
    render();
  }

  // The player's board as a 729-character pencilmark puzzle, nine characters a cell: a digit's
  // cell holds it alone, an empty cell the candidates the player left. The daemon explains from
  // those candidates, so a hint never repeats what the player's notes already show.
  function pencilOf(digits, candidates) {
    let text = '';
    for (let cell = 0; cell < CELLS; ++cell) {
      const has = digits[cell] ? String(digits[cell]) : candidates[cell];
      for (let d = 1; d <= 9; ++d) text += has.includes(String(d)) ? String(d) : '.';
    }
    return text;
  }

  // "an X-Wing", "a Naked Single": the article goes by the sound of the name's first letter.
  const withArticle = (name) => `${/^[AEIOX]/.test(name) ? 'an' : 'a'} ${name}`;

  // A list of names as written in words: "r3c3, r3c9 and r5c3".
  const inWords = (names) => names.join(', ').replace(/, ([^,]*)$/, ' and $1');

  // Where a hint's first grade sends the player: the step's first unit, or else the box of the
  // cell it starts from (a single or a chain names no unit).
  function hintUnit(next) {
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
  async function explainFromHere() {
    if (state.busy || sayProblem()) return;
    const p = state.play;
    saveGame();
    $('puzzle-text').value = pencilOf(p.digits, p.candidates);
    if (await load(true)) await explain();
  }

  // The next step from the player's board, in three grades (each press of Hint goes one
  // further), drawn on it and named, not applied. A digit or a candidate the solution
  // contradicts comes first: no step could follow from it.
  async function hint() {
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

  function stopPlay() {
    edit();
  }

  // ---- Drawing ----

  // The board as it stands: digits, how each came, candidates, and the step whose marks to draw.
  function boardView() {
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
  function typeDigit(digit, asCandidate) {
    if (state.mode === 'playing') {
      if (!digit) playClear(state.cursor);
      else if (asCandidate) toggleCandidate(state.cursor, digit);
      else playDigit(state.cursor, digit);
    } else {
      setDigit(state.cursor, digit);
    }
  }

  function focusCell(cell) {
    const element = cellElements[cell];
    if (element) element.focus({ preventScroll: true });
  }

  // The branch of the trial `shown` that was opened last, or null.
  function selectedBranch(shown) {
    if (!shown || !state.branch || state.branch.step !== shown) return null;
    let branch = null;
    for (const index of state.branch.path) branch = (branch ? branch.branches : shown.branches)[index];
    return branch;
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

  // Where a candidate sits, in the links overlay's pixels: the middle of its place in the
  // cell's 3x3 (or of the cell, where a digit stands).
  function candidatePoint(cell, digit, origin) {
    const element = cellElements[cell];
    const cands = element.querySelector('.cands');
    const box = (cands ? cands.children[digit - 1] : element).getBoundingClientRect();
    return { x: box.left + box.width / 2 - origin.left, y: box.top + box.height / 2 - origin.top, r: box.width / 2 };
  }

  // A chain's links, drawn over the board as arrows from node to node: strong links solid,
  // weak links dashed; a grouped node (a digit's places in one box and line) outlined.
  function renderLinks(shown) {
    const svg = $('links');
    svg.replaceChildren();
    const links = shown && state.mode !== 'editing' ? (selectedBranch(shown) || shown).links || [] : [];
    svg.dataset.links = String(links.length);
    if (!links.length) return;
    const origin = svg.getBoundingClientRect();
    svg.setAttribute('viewBox', `0 0 ${origin.width} ${origin.height}`);
    const NS = 'http://www.w3.org/2000/svg';
    const make = (tag, attributes) => {
      const element = document.createElementNS(NS, tag);
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      return element;
    };
    // Arrowheads in the board's pixels, sized by the candidates: on a phone's small cells a
    // head of a fixed size would cover the candidates beside its target. It ends inside the
    // target's ring, short of its digit, and reaches no further than the ring's width again.
    const withCandidates = cellElements.findIndex((element) => element.querySelector('.cands'));
    const radius = candidatePoint(Math.max(0, withCandidates), 1, origin).r;
    const head = Math.min(10, 0.6 * radius);
    const defs = make('defs', {});
    for (const kind of ['strong', 'weak']) {
      const marker = make('marker', {
        id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: '10', refY: '5', markerUnits: 'userSpaceOnUse',
        markerWidth: String(head), markerHeight: String(head), orient: 'auto-start-reverse',
      });
      marker.appendChild(make('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrow ${kind}` }));
      defs.appendChild(marker);
    }
    svg.appendChild(defs);
    const nodePoint = (node) => {
      const points = node.cells.map((name) => candidatePoint(cellIndex(name), node.digit, origin));
      const x = points.reduce((sum, p) => sum + p.x, 0) / points.length;
      const y = points.reduce((sum, p) => sum + p.y, 0) / points.length;
      return { x, y, r: points[0].r, points };
    };
    const outlined = new Set();
    for (const link of links) {
      const from = nodePoint(link.from), to = nodePoint(link.to);
      for (const [node, point] of [[link.from, from], [link.to, to]]) {
        const key = `${node.digit}:${node.cells.join(',')}`;
        if (node.cells.length < 2 || outlined.has(key)) continue;
        outlined.add(key);
        const xs = point.points.map((p) => p.x), ys = point.points.map((p) => p.y);
        const pad = point.r * 1.1;
        svg.appendChild(make('rect', {
          class: 'group', x: Math.min(...xs) - pad, y: Math.min(...ys) - pad,
          width: Math.max(...xs) - Math.min(...xs) + 2 * pad, height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
          rx: pad,
        }));
      }
      // A curve that leaves and enters each candidate between two of its neighbours (along a
      // diagonal of the cell's 3x3, the one facing the other end), so that neither the line
      // nor the arrowhead crosses the digits beside it; a link along a line bows out, passing
      // beside the candidates between. A grouped node is met at its middle.
      const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
      const reach = Math.min(Math.max(0.25 * length, 2 * radius), 40);
      const diagonal = (p, q) => ({
        x: (Math.sign(q.x - p.x) || 1) / Math.SQRT2, y: (Math.sign(q.y - p.y) || 1) / Math.SQRT2,
      });
      // From a candidate beside its target, the head comes round by the next diagonal: the one
      // facing the source would lie over it.
      const near = length < 3.2 * radius;
      const facing = diagonal(to, from);
      const da = diagonal(from, to), db = near ? { x: -facing.y, y: facing.x } : facing;
      const edge = (p, d) => (p.points.length > 1 ? p : { x: p.x + d.x * p.r, y: p.y + d.y * p.r });
      const a = edge(from, da), b = edge(to, db);
      const c1 = { x: a.x + da.x * reach, y: a.y + da.y * reach };
      const c2 = { x: b.x + db.x * reach, y: b.y + db.y * reach };
      const kind = link.strong ? 'strong' : 'weak';
      const name = (node) => `${node.cells.join('+')}:${node.digit}`;
      svg.appendChild(make('path', {
        class: `link ${kind}`, d: `M ${a.x} ${a.y} C ${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}`,
        'marker-end': `url(#arrow-${kind})`, 'data-from': name(link.from), 'data-to': name(link.to),
      }));
    }
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

  // The step whose links the board draws: none for a hint short of its last grade.
  const linkedStep = (view) => (view.grade >= 3 ? view.marks : null);

  function renderBoard() {
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

  function renderVerdict() {
    const solution = state.solution;
    let verdict = '–';
    if (solution) verdict = VERDICTS[solution.verdict] || solution.verdict;
    $('verdict').textContent = verdict;
    const rating = (state.explanation && state.explanation.rating) || (solution && solution.rating);
    $('rating-level').textContent = rating ? rating.level : '–';
    $('rating-hardest').textContent = rating ? displayName(rating.hardest) : '–';
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

  // The list of steps to jump to, one button each, and the end; drawn once per explanation.
  let listedExplanation = null;

  function renderStepList() {
    if (listedExplanation === state.explanation) return;
    listedExplanation = state.explanation;
    const list = $('step-list');
    const explanation = state.explanation;
    list.replaceChildren();
    list.hidden = !explanation;
    if (!explanation) return;
    const entries = explanation.steps.map((s, i) => `${i + 1}. ${s.text}`);
    entries.push(`${explanation.steps.length + 1}. Solved`);
    entries.forEach((text, position) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'step-link';
      button.textContent = text;
      button.title = text;
      button.dataset.position = String(position);
      button.addEventListener('click', () => step(position));
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // A trial's branches, drawn once per step: each a <details> whose summary says what it tries
  // and how it ends. A branch's own branches are drawn when it is first opened (a refutation can
  // have thousands); opening one shows it on the board, closing it its parent.
  let branchesDrawnFor = null;

  function branchSummary(branch) {
    const tries = `${branch.tries.cell} = ${branch.tries.digit}`;
    if (branch.nesting_cell) {
      const digits = branch.branches.map((nested) => nested.tries.digit);
      return `${tries}: leaves ${branch.nesting_cell} with ${digits.join(', ').replace(/, (\d)$/, ' or $1')}`;
    }
    const last = branch.links.length ? branch.links[branch.links.length - 1].to : null;
    if (!last) return `${tries}: a contradiction`;
    return branch.units.length
      ? `${tries}: ${last.digit} has no place left in ${branch.units[0]}`
      : `${tries}: ${last.cells[0]} has no candidate left`;
  }

  function branchList(shown, branches, path) {
    const list = document.createElement('ul');
    list.className = 'branch-list';
    branches.forEach((branch, index) => {
      const at = [...path, index];
      const details = document.createElement('details');
      details.className = 'branch';
      details.dataset.path = at.join('.');
      const summary = document.createElement('summary');
      summary.textContent = branchSummary(branch);
      const text = document.createElement('p');
      text.className = 'step-text branch-text';
      text.textContent = branch.text;
      details.append(summary, text);
      details.addEventListener('toggle', () => {
        if (details.open && branch.branches.length && !details.querySelector(':scope > ul')) {
          details.appendChild(branchList(shown, branch.branches, at));
        }
        // Closing a branch other than the one shown (or one it nests in) leaves the board alone.
        const within = state.branch && at.every((step, depth) => state.branch.path[depth] === step);
        if (!details.open && !within) return;
        state.branch = details.open ? { step: shown, path: at } : path.length ? { step: shown, path } : null;
        for (const open of $('branch-tree').querySelectorAll('.branch.selected')) open.classList.remove('selected');
        const selected = state.branch && $('branch-tree').querySelector(`.branch[data-path="${state.branch.path.join('.')}"]`);
        if (selected) selected.classList.add('selected');
        renderBoard();
      });
      const item = document.createElement('li');
      item.appendChild(details);
      list.appendChild(item);
    });
    return list;
  }

  function renderBranches(shown) {
    const branches = shown && state.mode === 'viewing' ? shown.branches || [] : [];
    const drawn = branches.length ? shown : null;
    if (drawn === branchesDrawnFor) return;
    branchesDrawnFor = drawn;
    state.branch = null;
    $('trial-branches').hidden = !drawn;
    $('branch-tree').replaceChildren(...(drawn ? [branchList(shown, branches, [])] : []));
  }

  function renderSteps() {
    const explanation = state.explanation;
    const technique = $('technique');
    technique.classList.remove('trial');
    $('technique-names').textContent = '';
    for (const button of $('step-list').querySelectorAll('.step-link')) {
      const current = Number(button.dataset.position) === state.position && state.mode === 'viewing';
      if (current) {
        button.setAttribute('aria-current', 'step');
        const list = $('step-list');
        const item = button.parentElement;
        // Only the list scrolls, never the page, so that stepping keeps the board in place.
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      } else {
        button.removeAttribute('aria-current');
      }
    }
    if (!explanation) {
      $('step-count').textContent = 'No explanation yet';
      technique.textContent = '';
      $('technique-about').textContent = state.showSolution
        ? 'The board shows the solution. Press Explain to see how it is reached.'
        : 'Press Explain to see how the puzzle solves, one step at a time.';
      $('step-text').textContent = '';
      renderBranches(null);
      return;
    }
    const steps = explanation.steps;
    const position = state.position;
    if (position >= steps.length) {
      $('step-count').textContent = `Solved in ${steps.length} steps`;
      technique.textContent = explanation.verdict === 'multiple'
        ? 'Solved (one of several solutions)'
        : 'Solved';
      $('technique-about').textContent = `Every cell is filled. Hardest technique: ${displayName(explanation.rating.hardest)}.`;
      $('step-text').textContent = `solution: ${explanation.solution}`;
      renderBranches(null);
      return;
    }
    const shown = steps[position];
    $('step-count').textContent = `Step ${position + 1} of ${steps.length}`;
    const kind = kindOf(shown);
    technique.textContent = {
      trial: 'Trial: a candidate followed to a contradiction',
      choice: 'Choice: the puzzle has several solutions',
    }[kind] || displayName(shown.technique, shown.hodoku_name);
    technique.classList.toggle('trial', kind === 'trial' || kind === 'choice');
    $('technique-about').textContent = ABOUT[kind] || '';
    // The names the other programs' users know it by.
    $('technique-names').textContent =
      `HoDoKu: ${shown.hodoku_name}; Sudoku Explainer: ${shown.se_name || 'none of its own (found by its chains)'}`;
    $('step-text').textContent = shown.text;
    renderBranches(shown);
  }

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
      'Playing: <kbd>1</kbd>–<kbd>9</kbd> place a digit (with Notes on, or <kbd>Shift</kbd>, toggle a candidate), <kbd>⌫</kbd> clear, <kbd>N</kbd> notes, <kbd>U</kbd> undo, <kbd>Ctrl</kbd>+<kbd>Y</kbd> redo, <kbd>H</kbd> hint, <kbd>Esc</kbd> stop.',
      'Playing: tap a cell, then a digit below; with Notes on, a digit toggles a candidate.',
    ],
    pencil: [
      'A pencilmark puzzle: change it in the text box.',
      'A pencilmark puzzle: change it in the text box.',
    ],
  };

  function renderControls() {
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

  function render() {
    const active = document.activeElement;
    renderBoard();
    renderVerdict();
    renderStepList();
    renderSteps();
    renderControls();
    saveGame();
    if (active && active.disabled && FOCUS_INSTEAD[active.id]) {
      const next = FOCUS_INSTEAD[active.id].map($).find((b) => b && !b.disabled && !b.hidden);
      if (next) next.focus({ preventScroll: true });
      else focusCell(state.cursor);
    }
  }

  // ---- Keys ----

  function onKey(event) {
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

  // ---- Start ----

  function start() {
    buildBoard();
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
})();
