// The techniques in words: what each does, and its name as players write it.

// What each technique does, in words, for the step panel.
export const ABOUT = {
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
// An alternating inference chain goes by HoDoKu's name for it, which tells its kind: "AIC",
// "Continuous Nice Loop" or "Discontinuous Nice Loop", "Grouped " in front of a grouped one.

const BY_HODOKU_NAME = new Set(['alternating inference chain']);

export const displayName = (technique, hodokuName) =>
  (BY_HODOKU_NAME.has(technique) && hodokuName) || NAMES[technique] || hodokuName || technique;

// A rating's hardest technique as the page names it and, where the explanation's `steps` are at
// hand and HoDoKu calls it otherwise, HoDoKu's name beside it: "Pointing (HoDoKu: Locked
// Candidates Type 1 (Pointing))". The first step of that technique gives HoDoKu's name.
export const hardestName = (rating, steps) => {
  const step = (steps || []).find((s) => s.technique === rating.hardest);
  const hodokuName = step && step.hodoku_name;
  const name = displayName(rating.hardest, hodokuName);
  return hodokuName && hodokuName !== name ? `${name} (HoDoKu: ${hodokuName})` : name;
};

// The techniques Generate's "Needs" offers, as /api/generate's "needs" takes them: every one an
// explanation takes a step of (Sudoku Explainer's wxyz-wing is only on its rating's path).
export const NEEDABLE = Object.keys(NAMES).filter((t) => t !== 'wxyz-wing');

// The step's kind for the words and marks: a trial that places a digit is a choice.
export const kindOf = (s) => (s.technique === 'trial' && s.placements.length ? 'choice' : s.technique);
