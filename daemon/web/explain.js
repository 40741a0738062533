// The explanation: stepping through it, the list of steps to jump to, a step's words and names,
// a trial's branches to open, and a chain's links drawn over the board (#links).

import { $, note, state } from './state.js';
import { cellIndex } from './sudoku.js';
import { ABOUT, displayName, hardestName, kindOf } from './techniques.js';
import { writeAddress } from './address.js';
import { cellElements, renderBoard } from './board.js';
import { mayDropGame } from './play.js';
import { render } from './controls.js';

export function step(to) {
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

// The branch of the trial `shown` that was opened last, or null.
export function selectedBranch(shown) {
  if (!shown || !state.branch || state.branch.step !== shown) return null;
  let branch = null;
  for (const index of state.branch.path) branch = (branch ? branch.branches : shown.branches)[index];
  return branch;
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
export function renderLinks(shown) {
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

// The step whose links the board draws: none for a hint short of its last grade.
export const linkedStep = (view) => (view.grade >= 3 ? view.marks : null);

// The list of steps to jump to, one button each, and the end; drawn once per explanation.
let listedExplanation = null;

export function renderStepList() {
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

export function renderSteps() {
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
    $('technique-about').textContent =
      `Every cell is filled. Hardest technique: ${hardestName(explanation.rating, steps)}.`;
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
