#!/usr/bin/env python3
"""The page in a real browser: Debian's headless Chromium, driven with Selenium, against a real
sudokud serving --http on loopback.

It loads the page, asks for a puzzle where Explain and Solve are pressed on an empty page, enters a
known puzzle (on the board's keys and in the text box), checks that the candidates the board shows
are those of the explain API, steps through the explanation with the keyboard, the buttons and the
list of steps (eliminations, the candidates a placement removes and the digits a pattern rests on
marked, a chain's links drawn, strong and weak, its two ends and a refutation's contradiction
marked, no arrowhead over a candidate, on a phone too) to the end and checks the board against the
solution; opens a forcing chain and a trial (the candidate tried, its implications, struck) on two
hard puzzles by their links; it checks where the focus goes after Load, Generate and End, that the
address holds the puzzle and the step (a reload, a link and Back open the same view), that an
invalid puzzle shows sudoku-client's exact message and clears the board, verdict, rating and steps,
that HoDoKu grids, spaced lines and trailing comments are read, generates a puzzle and checks that
it is unique (at QQWing's level, at HoDoKu's, within an SE range, and a range refused; needing
an x-wing, which its list of steps then shows), names a nice loop by its own name, plays a
puzzle (digits, notes, undo and redo, a digit cleared giving its candidates back, hints in three
grades from the player's own candidates, the highlight, solved to the end and locked with its
timer stopped, the confirm before a game is dropped, a game and its time kept over a reload),
loads a pencilmark puzzle (its singles as givens) and explains and plays it, copies the board
as HoDoKu's PM grid (Wikipedia's puzzle exactly as HoDoKu writes it, a game as it shows, the box
to copy by hand where the clipboard is refused) and loads that text back to the same board,
measures the board's borders against its cells, and looks at the page on a 390x844 phone screen
(candidates' size, the strike, touch help, a Load error above the board, every control 44 px or
more, the cells as large as the screen allows, 40). It also checks that every button works
after an error, that the page's files (index.html, style.css and every module) come
gzip-compressed and a reload moves headers only, the dark theme's contrast, on a phone too,
technique names as players write them, that no words are only in a tooltip, the focus on a cell
while viewing, and, stopping the daemon and starting it again on its port, what the page says
and keeps while it cannot be reached. The browser's console must stay free of errors but the
400s the invalid puzzles draw (and the refused connections while the daemon is stopped).
Screenshots go to --screenshots: page-start.png, page-step.png (the x-wing, as the README shows
it), page-dark.png (the same, dark), page-chain.png (a skyscraper), page-forcing-chain.png,
page-trial.png, page-trial-branch.png (a trial's branch and one nested in it, open),
page-solved.png, page-generate-se.png (generated within SE 2.0-2.5), page-play.png,
page-hint.png (a hint at its third grade: the x-wing from the player's notes),
page-play-restored.png (a game after a reload), page-pm-grid.png (a game copied as a PM grid,
loaded and explained), page-phone.png, page-phone-dark.png, page-phone-play.png and
page-phone-hint.png.

Exit status: 0 passed, 1 failed, 77 skipped (no browser, driver or Selenium on this machine:
install chromium, chromium-driver and python3-selenium; tests/run_all.sh does).
"""

import argparse
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

SKIP = 77
WAIT_SECONDS = 60

# From the README's explain example: singles, an x-wing at step 30, a skyscraper at step 39.
PUZZLE = ".4.8....1..6....4..5....6.......5........342...1..6...3.21.87.5......3..6..7..1.."
# Line 1 of the forum's hardest (SE 11+): no pattern cracks it, so its explanation takes trials.
TRIAL_PUZZLE = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
# Line 1 of magictour's top1465: its first contradiction comes by a forcing chain.
FORCING_PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
# Generated (HoDoKu's unfair): its explanation has an xy-chain and a bug+1.
NAMES_PUZZLE = "2.8....1....3..4..67...29...5.........4..91...81.4..9...2.34.......8...3...1.7..."
# Column 12 holds an 'x'.
BAD_PUZZLE = PUZZLE[:11] + "x" + PUZZLE[12:]
BAD_MESSAGE = "invalid: line 1, column 12: bad character 'x' (expected 1-9, or . 0 _ - * for a blank)"
# Wikipedia's, in the layouts people paste from other programs.
WIKIPEDIA = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
HODOKU_GRID = """.-------.-------.-------.
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
:-------+-------+-------:
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
:-------+-------+-------:
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
'-------'-------'-------'"""
# HoDoKu's "Copy PM grid" of Wikipedia's puzzle (tests/support/puzzles.h, kCandidateGrid): what
# Copy as PM grid writes for it.
WIKIPEDIA_PM_GRID = """.-----------------.--------------.-----------------.
| 5   3    124    | 26   7  2468 | 1489  1249 248  |
| 6   247  247    | 1    9  5    | 3478  234  2478 |
| 12  9    8      | 23   34 24   | 13457 6    247  |
:-----------------+--------------+-----------------:
| 8   125  1259   | 579  6  147  | 4579  2459 3    |
| 4   25   2569   | 8    5  3    | 579   259  1    |
| 7   15   1359   | 59   2  14   | 4589  459  6    |
:-----------------+--------------+-----------------:
| 139 6    134579 | 357  35 7    | 2     8    4    |
| 23  278  237    | 4    1  9    | 36    3    5    |
| 123 1245 12345  | 2356 8  26   | 1346  7    9    |
'-----------------'--------------'-----------------'
"""
COPIED = ("Copied as a PM grid: paste it into HoDoKu, or into the text box here to load this "
          "board.")
COPY_BY_HAND = ("The browser does not let the page copy: the PM grid is below, selected, to copy "
                "yourself.")
SPACED_LINE = " ".join(WIKIPEDIA[i:i + 9].replace(".", "0") for i in range(0, 81, 9))
COMMENTED_LINE = WIKIPEDIA + "  # Wikipedia's example"

NOTHING_TO = ("There is no puzzle to %s yet: type or paste one, enter it on the board, "
              "or press Generate.")
VIEWING_DIGIT = ("The board shows the explanation: press Play to fill it in yourself, "
                 "or Esc to change the puzzle.")
# What Explain from here does, in the help of play (a tooltip said it before, which no phone
# shows).
EXPLAIN_HERE = ("Explain from here explains your board from your digits and notes; Back returns "
                "to the game.")
HELP_TOUCH = {
    "viewing": "Viewing the explanation: the arrows under Explanation step, the list of steps "
               "jumps, Edit puzzle changes it.",
    "playing": "Playing: tap a cell, then a digit below; with Notes on, a digit toggles a "
               "candidate. " + EXPLAIN_HERE,
    "editing": "Editing: tap a cell, then a digit below; \u232b clears it.",
}
HELP_KEYS_PLAYING = ("Playing: 1\u20139 place a digit (with Notes on, or Shift, toggle a "
                     "candidate), \u232b clear, N notes, U or Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z "
                     "redo, H hint, Esc stop. " + EXPLAIN_HERE)
UNREACHABLE = "The daemon cannot be reached: check that sudokud is running, then try again."
MULTIPLE = "This puzzle has more than one solution: play needs one with exactly one."
SOLVED = "Solved: every digit is right."
LOCKED = "Solved: the board no longer changes. Press Play to play it again."
# Wikipedia's with its first row blank: several solutions.
SEVERAL = "." * 9 + WIKIPEDIA[9:]
# The techniques as players write them, not as the API's lower case would capitalise.
TECHNIQUE_NAMES = {
    "naked single": "Naked Single", "hidden single": "Hidden Single", "pointing": "Pointing",
    "claiming": "Claiming", "naked pair": "Naked Pair", "hidden pair": "Hidden Pair",
    "naked triple": "Naked Triple", "hidden triple": "Hidden Triple", "naked quad": "Naked Quad",
    "hidden quad": "Hidden Quad", "x-wing": "X-Wing", "swordfish": "Swordfish",
    "jellyfish": "Jellyfish", "remote pair": "Remote Pair", "skyscraper": "Skyscraper",
    "two-string kite": "Two-String Kite", "turbot fish": "Turbot Fish",
    "empty rectangle": "Empty Rectangle", "xy-wing": "XY-Wing", "xyz-wing": "XYZ-Wing",
    "w-wing": "W-Wing", "simple colouring": "Simple Colouring", "multi colours": "Multi Colours",
    "unique rectangle": "Unique Rectangle", "hidden rectangle": "Hidden Rectangle",
    "bug+1": "BUG+1", "finned fish": "Finned Fish", "sashimi fish": "Sashimi Fish",
    "sue de coq": "Sue de Coq", "x-chain": "X-Chain", "xy-chain": "XY-Chain",
    "alternating inference chain": "Alternating Inference Chain", "als-xz": "ALS-XZ",
    "wxyz-wing": "WXYZ-Wing", "forcing chain": "Forcing Chain", "trial": "Trial",
}


# A puzzle whose explanation takes a continuous nice loop at step 14 (index 13), as HoDoKu 2.2.4's
# path does there: 4/7/8 8= r2c5 =7= r1c5 -7- r1c3 -8- r2c2 =8= r2c5 =7 (the first case of
# tests/solver/logic_test.cc's HodokuPathTakesHodokusNiceLoops).
NICE_LOOP = ".9.2.6.5.5.13.92.6..........5.....8..26.9.43...3.1.6.............45.79..9.5.2.8.4"


def shown_name(step):
    """A step's technique as the page heads it: an alternating inference chain by HoDoKu's name
    for its kind (AIC, Continuous or Discontinuous Nice Loop, Grouped or not)."""
    if step["technique"] == "alternating inference chain":
        return step["hodoku_name"]
    return TECHNIQUE_NAMES[step["technique"]]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def cell_name(cell):
    return "r%dc%d" % (cell // 9 + 1, cell % 9 + 1)


def cell_index(name):
    return int(name[1]) * 9 - 9 + int(name[3]) - 1


def peers(cell):
    row, col = divmod(cell, 9)
    return [other for other in range(81) if other != cell and (
        other // 9 == row or other % 9 == col or
        (other // 27 == cell // 27 and other % 9 // 3 == col // 3))]


def is_solution_of(solution, puzzle):
    if len(solution) != 81 or any(c not in "123456789" for c in solution):
        return False
    if any(p in "123456789" and p != s for p, s in zip(puzzle, solution)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(sorted(solution[i] for i in unit) == list("123456789") for unit in units)


class Daemon:
    """sudokud on loopback ports picked by the kernel; its log is read on a thread."""

    def __init__(self, binary, http_port=0):
        self.process = subprocess.Popen(
            [binary, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:%d" % http_port,
             "--threads", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = []
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.tcp_port = int(self._wait_for(r"listening on 127\.0\.0\.1:(\d+)"))
        self.http_port = int(self._wait_for(r"serving the page on http://127\.0\.0\.1:(\d+)/"))
        self.url = "http://127.0.0.1:%d/" % self.http_port

    def _read(self):
        for line in self.process.stderr:
            self.log.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def _wait_for(self, pattern):
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failure("sudokud did not log /%s/ within %d s" % (pattern, WAIT_SECONDS))
            if line is None:
                raise Failure("sudokud exited before logging /%s/: %s"
                              % (pattern, "".join(self.log)))
            match = re.search(pattern, line)
            if match:
                return match.group(1)

    def api(self, path, body):
        request = urllib.request.Request(
            self.url + path.lstrip("/"), data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            return json.load(error)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                status = self.process.wait(timeout=WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                raise Failure("sudokud did not stop within %d s of SIGTERM" % WAIT_SECONDS)
            check(status == 0, "sudokud exited with status %d" % status)
        log = "".join(self.log)
        # Under a sanitizer build, a report in the daemon's log fails the test.
        for marker in ("Sanitizer", "runtime error:"):
            check(marker not in log, "sudokud's log holds a sanitizer report:\n" + log)


def client_output(client, tcp_port, text):
    """What `sudoku-client solve` prints for `text` on its standard input."""
    result = subprocess.run(
        [client, "solve", "--no-progress", "--connect", "127.0.0.1:%d" % tcp_port],
        input=text, capture_output=True, text=True, timeout=WAIT_SECONDS)
    return result.stdout


class Page:
    def __init__(self, driver):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        self.driver = driver
        self.By = By
        self.wait = WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.05)

    def find(self, selector):
        return self.driver.find_element(self.By.CSS_SELECTOR, selector)

    def text(self, element_id):
        return self.driver.find_element(self.By.ID, element_id).text

    def until(self, condition, what):
        from selenium.common.exceptions import TimeoutException
        try:
            return self.wait.until(lambda driver: condition())
        except TimeoutException:
            raise Failure("timed out waiting for " + what)

    def click_step(self, position):
        """Clicks step `position`'s entry in the list of steps. The list is drawn again as the
        explanation's parts arrive, so an entry just found may be gone by the click: it is
        found again until a click lands."""
        from selenium.common.exceptions import StaleElementReferenceException

        def clicked():
            try:
                self.find('#step-list .step-link[data-position="%d"]' % position).click()
                return True
            except StaleElementReferenceException:
                return False
        self.until(clicked, "step %d's entry in the list to take a click" % (position + 1))

    def until_text(self, element_id, expected):
        self.until(lambda: self.text(element_id) == expected,
                   "#%s to read %r (it reads %r)" % (element_id, expected, self.text(element_id)))

    def cell(self, cell):
        return self.find("#cell-" + cell_name(cell))

    def board(self):
        """Per cell: (digit or '', shown candidates, classes of the cell, marked candidates)."""
        return self.driver.execute_script("""
            // The digits of the cell's candidates that match `selector`, in order.
            const texts = (cell, selector) =>
              Array.from(cell.querySelectorAll(selector), (c) => c.textContent).join('');
            return Array.from(document.querySelectorAll('#board .cell'), (cell) => ({
              digit: cell.querySelector('.digit') ? cell.querySelector('.digit').textContent : '',
              candidates: texts(cell, '.cand'),
              classes: cell.className.split(' '),
              eliminated: texts(cell, '.cand.elim'),
              follows: texts(cell, '.cand.follow'),
              keys: texts(cell, '.cand.key'),
              highlighted: texts(cell, '.cand.highlight'),
              placed: texts(cell, '.cand.place, .cand.chosen'),
              tried: texts(cell, '.cand.tried'),
              ends: texts(cell, '.cand.end'),
            }));""")

    def links(self):
        """The chain drawn over the board: (class, from, to) of each link, in order."""
        return self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#links path.link'),
              (p) => [p.getAttribute('class'), p.dataset.from, p.dataset.to]);""")

    def active(self):
        """The id of the element with the focus ("" for the page's body)."""
        return self.driver.execute_script("return document.activeElement.id || '';")

    def hash(self):
        return self.driver.execute_script("return location.hash;")

    def rect(self, selector):
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};", selector)

    def visible(self, element_id):
        return self.driver.find_element(self.By.ID, element_id).is_displayed()

    def type_text(self, text):
        """Puts `text` in the puzzle box, as a paste would (new lines and all)."""
        box = self.find("#puzzle-text")
        box.clear()
        self.driver.execute_script(
            "const box = document.getElementById('puzzle-text'); box.value = arguments[0];"
            "box.dispatchEvent(new Event('input'));", text)

    def key(self, key, times=1):
        from selenium.webdriver.common.action_chains import ActionChains
        for _ in range(times):
            ActionChains(self.driver).send_keys(key).perform()

    def click(self, element_id):
        self.driver.find_element(self.By.ID, element_id).click()

    def answer_confirm(self, accept):
        """Answers the page's confirm(), which must have opened, and returns its words."""
        from selenium.webdriver.support import expected_conditions
        self.until(lambda: expected_conditions.alert_is_present()(self.driver),
                   "a confirm to open")
        alert = self.driver.switch_to.alert
        words = alert.text
        if accept:
            alert.accept()
        else:
            alert.dismiss()
        return words

    def in_sight(self, element_id):
        """Whether the element lies wholly inside the window (scrolled as it is)."""
        return self.driver.execute_script(
            "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
            "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", element_id)

    def shot(self, directory, name):
        path = os.path.join(directory, name)
        self.driver.save_screenshot(path)
        print("screenshot:", path)


def step_digits(explanation, position):
    """The board's digits before step `position`: the givens and the placements so far."""
    digits = {cell: ch for cell, ch in enumerate(explanation["puzzle"]) if ch in "123456789"}
    for step in explanation["steps"][:position]:
        for p in step["placements"]:
            digits[cell_index(p["cell"])] = str(p["digit"])
    return digits


def check_step(page, explanation, position):
    """The board at `position` shows the step's candidates and marks: what it places and
    removes, what its placement removes from the row, column and box (struck as well), and the
    digits of the cells it rests on (ringed)."""
    step = explanation["steps"][position]
    page.until_text("step-count", "Step %d of %d" % (position + 1, len(explanation["steps"])))
    # The names HoDoKu's and Sudoku Explainer's users know the technique by, beside its own.
    page.until_text("technique-names", "HoDoKu: %s; Sudoku Explainer: %s" % (
        step["hodoku_name"], step["se_name"] or "none of its own (found by its chains)"))
    # Its own name as players write it (a trial's heading says what it does instead).
    if step["technique"] != "trial":
        page.until_text("technique", shown_name(step))
    board = page.board()
    digits = step_digits(explanation, position)
    for cell in range(81):
        check(board[cell]["digit"] == digits.get(cell, ""),
              "step %d: %s shows %r, the board has %r" % (
                  position + 1, cell_name(cell), board[cell]["digit"], digits.get(cell, "")))
        if board[cell]["digit"]:
            continue
        check(board[cell]["candidates"] == step["candidates"][cell],
              "step %d: %s shows candidates %r, the API says %r" % (
                  position + 1, cell_name(cell), board[cell]["candidates"],
                  step["candidates"][cell]))
    eliminated, follows, keys = {}, {}, {}
    for e in step["eliminations"]:
        eliminated.setdefault(cell_index(e["cell"]), set()).add(str(e["digit"]))
    placed = {cell_index(p["cell"]): str(p["digit"]) for p in step["placements"]}
    for cell, digit in placed.items():
        for peer in peers(cell):
            if (peer not in digits and digit in step["candidates"][peer]
                    and digit not in eliminated.get(peer, set())):
                follows.setdefault(peer, set()).add(digit)
    for name in step["cells"]:
        cell = cell_index(name)
        if cell in digits or cell in placed:
            continue
        for digit in map(str, step["digits"]):
            if digit in step["candidates"][cell] and digit not in eliminated.get(cell, set()):
                keys.setdefault(cell, set()).add(digit)
    # A chain's nodes are ringed as well.
    for link in step.get("links", []):
        for node in (link["from"], link["to"]):
            digit = str(node["digit"])
            for name in node["cells"]:
                cell = cell_index(name)
                if (cell not in digits and cell not in placed and digit in step["candidates"][cell]
                        and digit not in eliminated.get(cell, set())):
                    keys.setdefault(cell, set()).add(digit)
    for cell in range(81):
        for what, expected in (("eliminated", eliminated), ("follows", follows), ("keys", keys)):
            want = "".join(sorted(expected.get(cell, "")))
            check(board[cell][what] == want,
                  "step %d: %s marks %r as %s, the step's are %r" % (
                      position + 1, cell_name(cell), board[cell][what], what, want))
    for cell, digit in placed.items():
        check(board[cell]["placed"] == digit,
              "step %d: %s does not mark %s as placed" % (position + 1, cell_name(cell), digit))
    for name in step["cells"]:
        check({"pattern", "target", "choice-target"} & set(board[cell_index(name)]["classes"]),
              "step %d: %s is not highlighted" % (position + 1, name))
    return follows, keys


def node_name(node):
    return "%s:%d" % ("+".join(node["cells"]), node["digit"])


def check_links(page, step, where):
    """The step's links are drawn over the board, in its order: strong solid, weak dashed."""
    want = [["link " + ("strong" if link["strong"] else "weak"), node_name(link["from"]),
             node_name(link["to"])] for link in step["links"]]
    page.until(lambda: page.links() == want,
               "%s: the links drawn %r to be the step's %r" % (where, page.links(), want))


def check_arrowheads(page, where):
    """Issue 48, item 10: no arrowhead covers a candidate's digit. A head lies along the end of
    its link, as long as its marker is; a digit's ink is taken as the middle of its place, 0.55
    of its font size wide and 0.72 high (a digit's width and cap height)."""
    covered = page.driver.execute_script("""
        const svg = document.getElementById('links');
        const origin = svg.getBoundingClientRect();
        const marker = svg.querySelector('marker');
        if (!marker) return [];
        const head = parseFloat(marker.getAttribute('markerWidth'));
        const inks = Array.from(document.querySelectorAll('#board .cand'))
          .filter((c) => c.textContent).map((c) => {
            const r = c.getBoundingClientRect(), size = parseFloat(getComputedStyle(c).fontSize);
            const x = r.left + r.width / 2 - origin.left, y = r.top + r.height / 2 - origin.top;
            return {name: c.closest('.cell').dataset.cell + ':' + c.textContent,
                    left: x - 0.275 * size, right: x + 0.275 * size,
                    top: y - 0.36 * size, bottom: y + 0.36 * size};
          });
        const found = [];
        for (const path of svg.querySelectorAll('path.link')) {
          const length = path.getTotalLength();
          const tip = path.getPointAtLength(length);
          const base = path.getPointAtLength(Math.max(0, length - head));
          const dx = tip.x - base.x, dy = tip.y - base.y, d = Math.hypot(dx, dy) || 1;
          // The head's outline: its tip and the two corners of its base.
          const points = [tip, {x: base.x - dy / d * head / 2, y: base.y + dx / d * head / 2},
                          {x: base.x + dy / d * head / 2, y: base.y - dx / d * head / 2}];
          for (let i = 0; i <= 10; ++i) {
            for (let j = 0; i + j <= 10; ++j) {
              const k = 10 - i - j;
              const x = (points[0].x * i + points[1].x * j + points[2].x * k) / 10;
              const y = (points[0].y * i + points[1].y * j + points[2].y * k) / 10;
              for (const ink of inks) {
                if (x > ink.left && x < ink.right && y > ink.top && y < ink.bottom &&
                    !found.includes(path.dataset.to + ' covers ' + ink.name)) {
                  found.push(path.dataset.to + ' covers ' + ink.name);
                }
              }
            }
          }
        }
        return found;""")
    check(not covered, "%s: arrowheads cover candidates: %r" % (where, covered))


def branch_summary(branch):
    """What a trial's branch says closed: what it tries and how it ends."""
    tries = "%s = %d" % (branch["tries"]["cell"], branch["tries"]["digit"])
    if branch["nesting_cell"]:
        digits = [str(nested["tries"]["digit"]) for nested in branch["branches"]]
        left = digits[0] if len(digits) == 1 else ", ".join(digits[:-1]) + " or " + digits[-1]
        return "%s: leaves %s with %s" % (tries, branch["nesting_cell"], left)
    last = branch["links"][-1]["to"]
    if branch["units"]:
        return "%s: %d has no place left in %s" % (tries, last["digit"], branch["units"][0])
    return "%s: %s has no candidate left" % (tries, last["cells"][0])


def check_branches(page, trial, screenshots):
    """A nested trial's branches: listed closed, one per candidate left; the first opened (and
    the first nested in it, where it nests deeper) shows its sentence, rings its candidate and
    draws its links (page-trial-branch.png); closed again, the trial's own links come back."""
    By = page.By
    check(page.visible("trial-branches"), "a nested trial shows no branches")
    top = "#branch-tree > ul > li > details"
    summaries = page.driver.find_elements(By.CSS_SELECTOR, top + " > summary")
    want = [branch_summary(branch) for branch in trial["branches"]]
    check([summary.text for summary in summaries] == want,
          "the branches read %r, not %r" % ([summary.text for summary in summaries], want))
    path, branch, summary = "0", trial["branches"][0], summaries[0]
    while True:
        summary.click()
        details = page.find('.branch[data-path="%s"]' % path)
        page.until(lambda: "selected" in details.get_attribute("class").split(),
                   "branch %s to be open and shown" % path)
        text = details.find_element(By.CSS_SELECTOR, ":scope > .branch-text").text
        check(text == branch["text"], "branch %s reads %r, not %r" % (path, text, branch["text"]))
        check_links(page, branch, "branch " + path)
        cell = page.board()[cell_index(branch["tries"]["cell"])]
        check(cell["tried"] == str(branch["tries"]["digit"]),
              "branch %s: %s rings %r" % (path, branch["tries"]["cell"], cell["tried"]))
        if not branch["branches"] or path.count(".") == 1:
            break
        nested = details.find_elements(By.CSS_SELECTOR, ":scope > ul > li > details > summary")
        check([s.text for s in nested] == [branch_summary(b) for b in branch["branches"]],
              "branch %s's nested branches read %r" % (path, [s.text for s in nested]))
        path, branch, summary = path + ".0", branch["branches"][0], nested[0]
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    page.shot(screenshots, "page-trial-branch.png")
    summaries[0].click()  # closing the top branch shows the trial itself again
    page.until(lambda: not page.driver.find_elements(By.CSS_SELECTOR, ".branch.selected"),
               "no branch shown after closing the top branch")
    check_links(page, trial, "the trial, its branches closed")


def check_borders(page, where):
    """The board's outer border (2 px) shows on every side: the cells end inside it."""
    board = page.rect("#board")
    first = page.rect("#cell-r1c1")
    last = page.rect("#cell-r9c9")
    gaps = {"left": first["left"] - board["left"], "top": first["top"] - board["top"],
            "right": board["right"] - last["right"], "bottom": board["bottom"] - last["bottom"]}
    for side, gap in gaps.items():
        check(abs(gap - 2) < 0.5, "%s: the board's %s border is %.2f px from the cells, not 2: %r"
              % (where, side, gap, gaps))
    width = page.driver.execute_script(
        "return getComputedStyle(document.getElementById('board')).borderRightWidth;")
    check(width == "2px", "%s: the board's border is %s" % (where, width))


def transfers(page):
    """Per file of the page: [bytes over the wire, body as sent, body decoded, HTTP status], as
    the browser's Resource Timing counts them for the last load."""
    return page.driver.execute_script("""
        const entries = [...performance.getEntriesByType('navigation'),
                         ...performance.getEntriesByType('resource')];
        const sizes = {};
        for (const e of entries) {
          const name = new URL(e.name).pathname.slice(1) || 'index.html';
          if (/^[a-z-]+\\.(html|css|js)$/.test(name)) {
            sizes[name] = [e.transferSize, e.encodedBodySize, e.decodedBodySize, e.responseStatus];
          }
        }
        return sizes;""")


def page_files(page):
    """The files the page names: index.html, style.css, the module it runs (main.js) and those
    it preloads, which are all the modules main.js imports."""
    return sorted(["index.html", "style.css"] + page.driver.execute_script("""
        return Array.from(document.querySelectorAll(
          'script[type="module"], link[rel="modulepreload"]'),
          (e) => new URL(e.src || e.href).pathname.slice(1));"""))


def check_transfers(page):
    """Issue 48, item 13: the page's files (its modules too) come gzip-compressed (each under
    half its size, the page under 40%), and a reload revalidates them: 304s, headers only (the
    page then runs from the cached copies)."""
    first = transfers(page)
    files = page_files(page)
    check(sorted(first) == files and "main.js" in files and len(files) > 4,
          "the files loaded: %r, the page names %r" % (sorted(first), files))
    for name, (wire, sent, decoded, status) in first.items():
        check(status == 200 and 0 < sent <= decoded / 2 and wire >= sent,
              "%s came as %d bytes for %d (over the wire %d)" % (name, sent, decoded, wire))
    sent = sum(sizes[1] for sizes in first.values())
    decoded = sum(sizes[2] for sizes in first.values())
    check(sent < 0.4 * decoded, "the page came as %d bytes for %d" % (sent, decoded))
    page.driver.refresh()
    page.until(lambda: len(page.board()) == 81, "the board after a reload")
    again = transfers(page)
    check(sorted(again) == files, "the files on a reload: %r" % sorted(again))
    # (Chromium reports a revalidated file with the cached answer's status, 200: the bytes
    # over the wire, the 304's headers alone, tell it.)
    for name, (wire, _, _, _) in again.items():
        check(wire < 1000, "on a reload %s took %r (first %r)" % (name, again[name], first[name]))
    print("page files, bytes over the wire (first load, reload): %s" % ", ".join(
        "%s %d of %d, %d" % (name, first[name][0], first[name][2], again[name][0])
        for name in sorted(first)))
    print("the page, %d files: %d bytes over the wire for %d on a first visit, %d on a reload"
          % (len(files), sum(first[name][0] for name in files), decoded,
             sum(again[name][0] for name in files)))


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = rgb
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one, other):
    """WCAG's contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def check_dark(page, where, screenshots, shot):
    """Issue 48, item 12: under a dark preference (Chromium's emulation) the page is dark, and
    what the board shows at the x-wing, 8 highlighted, reads at 4.5:1 or more against what it
    sits on: givens, digits placed, candidates plain and in shaded cells, the struck, the ringed,
    the highlighted, the step's words (screenshot `shot`). Back to light, the paper is #f5f4ef
    again."""
    driver = page.driver
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.click("highlight-8")
    try:
        script = """
            // An element's colour and the first background behind it that is not transparent.
            const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
            const pair = (selector) => {
              const element = document.querySelector(selector);
              if (!element) return null;
              let behind = element;
              while (behind && getComputedStyle(behind).backgroundColor.match(/[0-9.]+/g).length === 4 &&
                     getComputedStyle(behind).backgroundColor.endsWith(', 0)')) {
                behind = behind.parentElement;
              }
              return [rgb(getComputedStyle(element).color),
                      rgb(getComputedStyle(behind || document.documentElement).backgroundColor)];
            };
            const page = rgb(getComputedStyle(document.documentElement).backgroundColor);
            const selectors = ['.cell.given .digit', '.cell.placed .digit',
              '.cell:not(.unit):not(.pattern):not(.target) .cand:not(.elim):not(.key):not(.follow):not(.highlight)',
              '.cell.unit .cand:not(.elim):not(.key):not(.follow):not(.highlight)',
              '.cell.pattern .cand:not(.elim):not(.key):not(.follow):not(.highlight)',
              '.cand.elim', '.cand.key', '.cand.highlight', '.cell.highlight .digit',
              '#technique', '#step-text', '#step-count', 'button.primary', '.legend li'];
            return [page, selectors.map((s) => [s, pair(s)])];"""
        # The cells' colours ease in (a transition of 120 ms): read them once they hold still.
        seen = [None]

        def settled():
            before, seen[0] = seen[0], driver.execute_script(script)
            time.sleep(0.15)
            return seen[0] == before
        page.until(settled, "the dark colours to settle")
        colours = seen[0]
        driver.execute_script("window.scrollTo(0, 0);")
        page.shot(screenshots, shot)
    finally:
        page.click("highlight-8")
    check(colours[0] == [20, 24, 29], "%s: the dark page's background is %r" % (
        where, colours[0]))
    for selector, pair in colours[1]:
        check(pair is not None, "%s: nothing on the board matches %s" % (where, selector))
        ratio = contrast(pair[0], pair[1])
        check(ratio >= 4.5, "%s, dark: %s is %r on %r, a contrast of %.2f" % (
            where, selector, pair[0], pair[1], ratio))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "light"}]})
    light = driver.execute_script(
        "return getComputedStyle(document.documentElement).backgroundColor;")
    check(light == "rgb(245, 244, 239)", "%s: the light page's background is %r" % (where, light))


def check_targets(page, selectors, where, least=44):
    """Issue 48, item 9: every shown element a selector names is a finger's target, `least` px
    or more each way (44, as Apple's and WCAG's guides ask)."""
    sizes = page.driver.execute_script("""
        return arguments[0].map((selector) => [selector, Array.from(
          document.querySelectorAll(selector), (e) => e.getBoundingClientRect())
          .filter((r) => r.width || r.height).map((r) => [r.width, r.height])]);""", selectors)
    for selector, rects in sizes:
        check(rects, "%s: nothing shown matches %s" % (where, selector))
        small = [rect for rect in rects if rect[0] < least or rect[1] < least]
        check(not small, "%s: %d of the %d %s are under %dx%d px: %r" % (
            where, len(small), len(rects), selector, least, least, small[:3]))


def check_no_tooltips(page, where):
    """No words only in a tooltip, which a phone never shows: no element has a title. (What the
    tooltips said, the help, the notes under the fields and the list of steps, whole, say.)"""
    titled = page.driver.execute_script(
        "return Array.from(document.querySelectorAll('body [title]'), (e) => e.outerHTML);")
    check(not titled, "%s: %d elements have a tooltip: %r" % (where, len(titled), titled[:3]))


def check_steps_whole(page, where):
    """Every entry of the list of steps shows its text whole, on as many lines as it takes."""
    cut = page.driver.execute_script("""
        return Array.from(document.querySelectorAll('#step-list .step-link'))
          .filter((b) => getComputedStyle(b).textOverflow === 'ellipsis' ||
                         b.scrollWidth > b.clientWidth).map((b) => b.textContent);""")
    check(not cut, "%s: %d steps are cut in the list: %r" % (where, len(cut), cut[:2]))


def check_cleared(page, message, where):
    """After a refused puzzle: its message, and nothing left of the puzzle before."""
    page.until_text("error", message)
    board = page.board()
    check(all(not cell["digit"] and not cell["candidates"] for cell in board),
          "%s: the board still shows a puzzle after the refusal" % where)
    for element_id in ("verdict", "rating-level", "rating-hodoku", "rating-se", "rating-hardest",
                       "rating-steps"):
        check(page.text(element_id) == "\u2013", "%s: #%s still reads %r" % (
            where, element_id, page.text(element_id)))
    check(page.text("step-count") == "No explanation yet",
          "%s: the step panel reads %r" % (where, page.text("step-count")))
    check(not page.find("#step-list").is_displayed(), "%s: the list of steps stays" % where)
    for element_id in ("first", "back", "forward", "last"):
        check(not page.find("#" + element_id).is_enabled(),
              "%s: #%s is enabled with no explanation" % (where, element_id))
    check(page.hash() == "", "%s: the address keeps %r" % (where, page.hash()))


def run(args, screenshots):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    daemon = Daemon(args.sudokud)
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    # Chromium runs headless as root only without its sandbox.
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1200", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The page's confirm() waits for the test's answer (answer_confirm), not the driver's.
    options.set_capability("unhandledPromptBehavior", "ignore")
    driver = webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)
    try:
        page = Page(driver)
        driver.get(daemon.url)
        page.until(lambda: len(page.board()) == 81, "the board's 81 cells")
        check(driver.title.startswith("sudokud"), "title %r" % driver.title)
        # Item 10: the icon is inline, so nothing asks for /favicon.ico (the console, checked at
        # the end, would hold its 404).
        icon = driver.execute_script(
            "const l = document.querySelector('link[rel=\"icon\"]'); return l ? l.href : '';")
        check(icon.startswith("data:image/svg+xml,"), "the page's icon is %r" % icon)
        check_borders(page, "1280x1200")
        check_transfers(page)

        # Item 4: Explain and Solve on an empty page ask for a puzzle.
        page.click("explain")
        page.until_text("error", NOTHING_TO % "explain")
        check(page.text("step-count") == "No explanation yet" and page.text("verdict") == "\u2013",
              "Explain on an empty page explained something: %r" % page.text("step-count"))
        page.click("solve")
        page.until_text("error", NOTHING_TO % "solve")
        check(page.text("verdict") == "\u2013", "Solve on an empty page: %r" % page.text("verdict"))

        # The board takes digits from the keys: r1c1 gets a 7, the arrow moves right, 5 goes in.
        page.cell(0).click()
        page.key("7")
        page.key(Keys.ARROW_RIGHT)
        page.key("5")
        page.until(lambda: page.find("#puzzle-text").get_attribute("value") == "75" + "." * 79,
                   "the text box to follow the board")
        check(page.board()[1]["digit"] == "5", "r1c2 does not show the 5 typed")
        check(page.board()[2]["candidates"] == "1234689",
              "r1c3's candidates %r" % page.board()[2]["candidates"])
        page.key(Keys.BACKSPACE)
        page.key(Keys.ARROW_LEFT)
        page.key(Keys.DELETE)
        page.until(lambda: page.find("#puzzle-text").get_attribute("value") == "." * 81,
                   "the board to be cleared")

        # A known puzzle through the text box. Load leaves the focus on the board, where the
        # keys work, and the puzzle in the address.
        text = page.find("#puzzle-text")
        text.clear()
        text.send_keys(PUZZLE)
        page.click("load")
        page.until_text("verdict", "One (unique)")
        page.until(lambda: page.active() == "cell-r1c1",
                   "the focus on the board's cursor after Load (it is on %r)" % page.active())
        page.key(Keys.ARROW_DOWN)
        page.until(lambda: page.active() == "cell-r2c1", "the arrow to move the focused cursor")
        check("cursor" in page.board()[9]["classes"], "r2c1 is not the cursor")
        check(page.hash() == "#puzzle=" + PUZZLE, "the address after Load: %r" % page.hash())
        explanation = daemon.api("/api/explain", {"puzzle": PUZZLE})
        solved = daemon.api("/api/solve", {"puzzle": PUZZLE, "unique": True, "rate": True})
        check(solved["verdict"] == "solved", "the API's verdict: %r" % solved)
        check(is_solution_of(solved["solution"], PUZZLE), "the API's solution is wrong")
        page.until_text("rating-level", solved["rating"]["level"])
        page.until_text("rating-hardest", TECHNIQUE_NAMES[solved["rating"]["hardest"]])
        # HoDoKu's level with its score, and SE's ER/EP/ED with one decimal, as those print them.
        page.until_text("rating-hodoku", "%s (%d)" % (solved["rating"]["hodoku_level"],
                                                      solved["rating"]["hodoku_score"]))
        page.until_text("rating-se", "%.1f/%.1f/%.1f" % (
            solved["rating"]["se"], solved["rating"]["se_pearl"], solved["rating"]["se_diamond"]))
        board = page.board()
        for cell in range(81):
            expected = PUZZLE[cell] if PUZZLE[cell] != "." else ""
            check(board[cell]["digit"] == expected, "%s shows %r, the puzzle has %r" % (
                cell_name(cell), board[cell]["digit"], expected))
        # Before any step the board's candidates are the explanation's first.
        for cell in (0, 2, 40, 80):
            check(board[cell]["candidates"] == explanation["steps"][0]["candidates"][cell],
                  "%s shows %r before explaining, the API says %r" % (
                      cell_name(cell), board[cell]["candidates"],
                      explanation["steps"][0]["candidates"][cell]))
        page.shot(screenshots, "page-start.png")

        # Step through: Explain, then keys and buttons.
        page.click("explain")
        steps = explanation["steps"]
        follows, _ = check_step(page, explanation, 0)
        # Item 8: a single's placement strikes its digit in the row, column and box.
        check(follows, "step 1 (%s) strikes nothing in its peers" % steps[0]["text"])
        check(page.hash() == "#puzzle=%s&step=0" % PUZZLE, "the address: %r" % page.hash())
        page.key(Keys.ARROW_RIGHT, 3)
        check_step(page, explanation, 3)
        page.key(Keys.ARROW_LEFT)
        check_step(page, explanation, 2)
        page.click("forward")
        check_step(page, explanation, 3)
        # The first step that removes candidates: its removals are marked, and the digits its
        # pattern rests on (the x-wing's 8s in its four corners).
        eliminating = next(i for i, s in enumerate(steps) if s["eliminations"])
        check(steps[eliminating]["technique"] == "x-wing", "step %d is %r" % (
            eliminating + 1, steps[eliminating]["technique"]))
        page.key(Keys.ARROW_RIGHT, eliminating - 3)
        _, keys = check_step(page, explanation, eliminating)
        check({cell_name(c): "".join(sorted(d)) for c, d in keys.items()} ==
              {"r3c3": "8", "r3c9": "8", "r5c3": "8", "r5c9": "8"},
              "the x-wing's 8s marked: %r" % keys)
        page.until_text("technique", "X-Wing")
        page.until_text("step-text", steps[eliminating]["text"])
        page.shot(screenshots, "page-step.png")
        check_dark(page, "the x-wing", screenshots, "page-dark.png")
        # Issue 48, item 8: a cell pressed while viewing has the focus and shows it, and the
        # arrows then move between cells rather than step; the step stays.
        page.cell(cell_index("r5c5")).click()
        page.until(lambda: page.active() == "cell-r5c5", "the focus on r5c5")
        ring = driver.execute_script(
            "return getComputedStyle(document.activeElement).boxShadow;")
        check("inset" in ring and "3px" in ring, "the focused cell shows %r" % ring)
        page.key(Keys.ARROW_RIGHT)
        page.until(lambda: page.active() == "cell-r5c6", "the arrow to move to r5c6")
        page.key(Keys.ARROW_DOWN)
        page.until(lambda: page.active() == "cell-r6c6", "the arrow to move to r6c6")
        check_step(page, explanation, eliminating)

        # Item 3: the step is in the address; a reload and a link open the same view.
        link = daemon.url + "#puzzle=%s&step=%d" % (PUZZLE, eliminating)
        check(driver.current_url == link, "the address at the x-wing: %r" % driver.current_url)
        driver.refresh()
        check_step(page, explanation, eliminating)
        page.until_text("verdict", "One (unique)")
        driver.get("about:blank")
        driver.get(link)
        check_step(page, explanation, eliminating)
        page.until_text("technique", "X-Wing")

        # The list of steps: each is there, the shown one current; one press jumps.
        entries = driver.execute_script(
            "return Array.from(document.querySelectorAll('#step-list .step-link'),"
            " (b) => [b.textContent, b.getAttribute('aria-current') || '']);")
        check([e[0] for e in entries] ==
              ["%d. %s" % (i + 1, s["text"]) for i, s in enumerate(steps)] +
              ["%d. Solved" % (len(steps) + 1)], "the list of steps: %r" % entries[:3])
        check([i for i, e in enumerate(entries) if e[1] == "step"] == [eliminating],
              "the current step in the list: %r" % [e for e in entries if e[1]])
        check_steps_whole(page, "1280x1200")
        check_no_tooltips(page, "viewing")
        # A chain (the skyscraper at step 39): shown by its name, its links drawn over the
        # board, strong and weak told apart, and nothing drawn at a step without one. No step
        # reads the solution, so none is a guess.
        chain = next(i for i, s in enumerate(steps) if s["links"])
        check(not any(s["technique"] == "guess" for s in steps), "a guess among the steps")
        page.find('#step-list .step-link[data-position="%d"]' % chain).click()
        check_step(page, explanation, chain)
        page.until_text("technique", shown_name(steps[chain]))
        check_links(page, steps[chain], "step %d" % (chain + 1))
        # Item 10: the chain's two ends are marked (the skyscraper's 9s at r1c7 and r6c9), no
        # arrowhead covers a candidate, and no cell shows a contradiction.
        board = page.board()
        check({cell_name(c): b["ends"] for c, b in enumerate(board) if b["ends"]} ==
              {"r1c7": "9", "r6c9": "9"} and
              not any("contradiction" in b["classes"] for b in board),
              "the skyscraper's ends: %r" % {cell_name(c): b["ends"] for c, b in enumerate(board)
                                             if b["ends"]})
        check_arrowheads(page, "the skyscraper")
        check(page.hash() == "#puzzle=%s&step=%d" % (PUZZLE, chain), "address %r" % page.hash())
        page.shot(screenshots, "page-chain.png")
        page.click("first")
        check_step(page, explanation, 0)
        check(page.links() == [], "links drawn at step 1: %r" % page.links())
        page.find('#step-list .step-link[data-position="%d"]' % chain).click()
        check_step(page, explanation, chain)

        # Item 5: End leaves the focus on Back, where Enter and Space still step.
        page.click("last")
        page.until_text("step-count", "Solved in %d steps" % len(steps))
        check(page.active() == "back", "after End the focus is on %r" % page.active())
        page.key(Keys.ENTER)
        page.until_text("step-count", "Step %d of %d" % (len(steps), len(steps)))
        page.key(" ")
        page.until_text("step-count", "Step %d of %d" % (len(steps) - 1, len(steps)))
        # A digit while viewing says why the board does not take it.
        page.key("5")
        page.until_text("board-note", VIEWING_DIGIT)
        check_step(page, explanation, len(steps) - 2)

        # To the end: the board is the solution.
        page.key(Keys.END)
        page.until_text("step-count", "Solved in %d steps" % len(steps))
        page.until_text("board-note", "")
        final = "".join(cell["digit"] for cell in page.board())
        check(final == explanation["solution"] == solved["solution"],
              "the final board %r is not the solution %r" % (final, solved["solution"]))
        page.shot(screenshots, "page-solved.png")
        page.key(Keys.HOME)
        check_step(page, explanation, 0)

        # A second puzzle is a history entry of its own: Back returns to the first, at its step.
        page.type_text(WIKIPEDIA)
        page.click("load")
        page.until(lambda: page.hash() == "#puzzle=" + WIKIPEDIA, "the second puzzle's address")
        driver.back()
        check_step(page, explanation, 0)
        driver.forward()
        page.until(lambda: [c["digit"] or "." for c in page.board()] == list(WIKIPEDIA),
                   "Forward to open the second puzzle again")
        check(page.text("step-count") == "No explanation yet", "after Forward: %r" %
              page.text("step-count"))

        # A trial, on a puzzle logic alone does not crack: opened by its link at the trial, the
        # candidate tried is ringed and struck, its implications drawn, the header says so.
        hard = daemon.api("/api/explain", {"puzzle": TRIAL_PUZZLE})
        trial = next(i for i, s in enumerate(hard["steps"]) if s["technique"] == "trial")
        driver.get(daemon.url + "#puzzle=%s&step=%d" % (TRIAL_PUZZLE, trial))
        check_step(page, hard, trial)
        tried = hard["steps"][trial]
        page.until_text("technique", "Trial: a candidate followed to a contradiction")
        check("trial" in page.find("#technique").get_attribute("class"), "the trial is not marked")
        cell = page.board()[cell_index(tried["cells"][0])]
        check(cell["tried"] == str(tried["digits"][0]) == cell["eliminated"],
              "%s: tried %r, struck %r, the step tries %d" % (
                  tried["cells"][0], cell["tried"], cell["eliminated"], tried["digits"][0]))
        check_links(page, tried, "the trial")
        # Nested trials: the cell they start from shows the candidates each refuted, marked.
        check(len(tried["cells"]) == 2, "the trial names no nested cell: %r" % tried)
        nested = page.board()[cell_index(tried["cells"][1])]
        check(all(str(d) in nested["keys"] for d in tried["digits"][1:]) and
              nested["tried"] == "", "%s: keys %r, tried %r, the step's digits %r" % (
                  tried["cells"][1], nested["keys"], nested["tried"], tried["digits"]))
        page.until_text("step-text", tried["text"])
        page.shot(screenshots, "page-trial.png")
        # Its whole refutation: a branch per candidate left, each opened to its contradiction or
        # to the branches nested in it, its candidate ringed and its links drawn on the board;
        # closing it shows the branch it nests in again.
        check_branches(page, tried, screenshots)
        # A forcing chain: the implications from the candidate to the contradiction, drawn.
        forced = daemon.api("/api/explain", {"puzzle": FORCING_PUZZLE})
        chain = next(i for i, s in enumerate(forced["steps"]) if s["technique"] == "forcing chain")
        driver.get(daemon.url + "#puzzle=%s&step=%d" % (FORCING_PUZZLE, chain))
        check_step(page, forced, chain)
        page.until_text("technique", "Forcing Chain")
        check_links(page, forced["steps"][chain], "the forcing chain")
        # Item 10: the candidate it starts from and its last implication are its ends; the
        # contradiction shows in the cell of the last (r2c9 loses 4, column 9's last place).
        last = forced["steps"][chain]["links"][-1]["to"]["cells"][0]
        board = page.board()
        check([cell_name(c) for c, b in enumerate(board) if "contradiction" in b["classes"]] ==
              [last] == ["r2c9"], "the forcing chain's contradiction is shown at %r" % [
                  cell_name(c) for c, b in enumerate(board) if "contradiction" in b["classes"]])
        check(board[cell_index("r1c3")]["ends"] == "2" and board[cell_index(last)]["ends"] == "4",
              "the forcing chain's ends: %r, %r" % (board[cell_index("r1c3")]["ends"],
                                                    board[cell_index(last)]["ends"]))
        check_arrowheads(page, "the forcing chain")
        forcing = "#puzzle=%s&step=%d" % (FORCING_PUZZLE, chain)
        page.shot(screenshots, "page-forcing-chain.png")
        # The Solve card names the hardest technique as the page does, and as HoDoKu does beside
        # it where that differs (its name for the first step of it).
        check(forced["rating"]["hardest"] == "forcing chain", "FORCING_PUZZLE's hardest: %r" %
              forced["rating"]["hardest"])
        page.until_text("rating-hardest", "Forcing Chain (HoDoKu: Forcing Chain Contradiction)")

        # Issue 48, item 11: the names capitals by rule got wrong, as players write them.
        named = daemon.api("/api/explain", {"puzzle": NAMES_PUZZLE})
        at = {s["technique"]: i for i, s in reversed(list(enumerate(named["steps"])))}
        check("xy-chain" in at and "bug+1" in at, "NAMES_PUZZLE's steps: %r" % sorted(at))
        driver.get(daemon.url + "#puzzle=%s&step=%d" % (NAMES_PUZZLE, at["xy-chain"]))
        page.until_text("technique", "XY-Chain")
        page.find('#step-list .step-link[data-position="%d"]' % at["bug+1"]).click()
        page.until_text("technique", "BUG+1")
        page.until_text("rating-hardest", TECHNIQUE_NAMES[named["rating"]["hardest"]])

        # Item 1: an invalid puzzle, by Explain while stepping and by Load: the message is
        # sudoku-client's, word for word, and nothing of the puzzle before stays.
        expected = client_output(args.client, daemon.tcp_port, BAD_PUZZLE + "\n").rstrip("\n")
        check(expected == BAD_MESSAGE, "sudoku-client printed %r" % expected)
        driver.get(link)
        check_step(page, explanation, eliminating)
        text = page.find("#puzzle-text")
        text.clear()
        text.send_keys(BAD_PUZZLE)
        page.click("explain")
        check_cleared(page, expected, "Explain")
        page.key(Keys.ARROW_RIGHT)
        check(page.text("step-count") == "No explanation yet", "the arrow still steps: %r" %
              page.text("step-count"))
        page.type_text(PUZZLE)
        page.click("load")
        page.until_text("verdict", "One (unique)")
        page.type_text(BAD_PUZZLE)
        page.click("load")
        check_cleared(page, expected, "Load")
        check(page.active() == "puzzle-text", "after a refused Load the focus is on %r" %
              page.active())

        # Item 7: grids and lines pasted from other programs read as sudoku-client reads them.
        wikipedia_solution = client_output(args.client, daemon.tcp_port, WIKIPEDIA + "\n")
        for name, pasted in (("a HoDoKu grid", HODOKU_GRID), ("a spaced line", SPACED_LINE),
                             ("a line with a comment", COMMENTED_LINE)):
            check(client_output(args.client, daemon.tcp_port, pasted + "\n")
                  == wikipedia_solution, "sudoku-client does not read %s" % name)
            page.type_text(pasted)
            page.click("load")
            page.until(lambda: page.hash() == "#puzzle=" + WIKIPEDIA,
                       "%s to load (error: %r)" % (name, page.text("error")))
            page.until_text("verdict", "One (unique)")
            check(not page.find("#error").is_displayed(), "%s: %r" % (name, page.text("error")))
            check([c["digit"] or "." for c in page.board()] == list(WIKIPEDIA),
                  "%s: the board is not Wikipedia's puzzle" % name)
            page.type_text("")
            page.click("clear")

        # Generate one, and check it is unique: on the page and through the API.
        Select(page.find("#level")).select_by_value("intermediate")
        page.click("generate")
        page.until(lambda: re.fullmatch(r"[1-9.]{81}",
                                        page.find("#puzzle-text").get_attribute("value")),
                   "a generated puzzle in the text box")
        page.until(lambda: not page.find("#error").is_displayed(), "the old error to go")
        generated = page.find("#puzzle-text").get_attribute("value")
        page.until_text("verdict", "One (unique)")
        page.until_text("rating-level", "intermediate")
        page.until(lambda: page.active().startswith("cell-"),
                   "the focus on the board after Generate (it is on %r)" % page.active())
        again = daemon.api("/api/solve", {"puzzle": generated, "unique": True, "rate": True})
        check(again["verdict"] == "solved" and again["solutions"] == 1,
              "the generated puzzle is not unique: %r" % again)
        check(again["rating"]["level"] == "intermediate", "generated at %r" % again["rating"])
        generate_by(page, daemon, Keys, screenshots)
        nice_loop(page, daemon)

        # Issue 48, item 1: after an error every button still works. Play on a puzzle with
        # several solutions says why it cannot; Explain and Solve then work all the same, and
        # Play says it again rather than nothing.
        check(daemon.api("/api/solve", {"puzzle": SEVERAL, "unique": True})["verdict"]
              == "multiple", "SEVERAL has one solution")
        page.type_text(SEVERAL)
        page.click("load")
        page.until_text("verdict", "Several")
        page.click("play")
        page.until_text("error", MULTIPLE)
        page.click("explain")
        page.until(lambda: page.text("step-count").startswith("Step 1 of "),
                   "Explain after Play's refusal to explain (it reads %r)"
                   % page.text("step-count"))
        check(not page.find("#error").is_displayed(), "the error stays: %r" % page.text("error"))
        page.click("solve")
        page.until(lambda: page.text("step-count").startswith("Solved in "),
                   "Solve after Play's refusal to solve (it reads %r)" % page.text("step-count"))
        page.click("play")
        page.until_text("error", MULTIPLE)
        page.click("solve")
        page.until(lambda: not page.find("#error").is_displayed(),
                   "Solve after the second refusal to answer")

        # Item 9: play (it ends with Esc, stopping the game).
        play(page, daemon, Keys, screenshots, "page-play.png")
        hint_grades(page, daemon, Keys, screenshots)
        kept_game(page, daemon, Keys, screenshots)
        pencil_puzzle(page, daemon, Keys)
        pm_grid(page, daemon, screenshots)

        # A phone-sized screen: nothing wider than the screen, the board whole and its borders
        # shown, candidates readable, the strike a bar, the help for touch.
        driver.set_window_size(390, 844)
        # As a phone shows it: scroll bars over the page, taking no room from it.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        check_borders(page, "390x844")
        page.type_text(PUZZLE)
        page.click("explain")
        check_step(page, explanation, 0)
        page.key(Keys.ARROW_RIGHT, eliminating)
        check_step(page, explanation, eliminating)
        widths = driver.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth,"
            " document.getElementById('board').getBoundingClientRect().right];")
        check(widths[0] <= widths[1] and widths[2] <= widths[1],
              "on a phone the page is %d px wide and the board ends at %d, in %d px" % (
                  widths[0], widths[2], widths[1]))
        styles = driver.execute_script("""
            const cand = document.querySelector('#board .cand');
            const elim = document.querySelector('#board .cand.elim');
            const bar = getComputedStyle(elim, '::after');
            return [parseFloat(getComputedStyle(cand).fontSize),
                    getComputedStyle(elim).textDecorationLine, bar.content, bar.borderTopWidth,
                    parseFloat(bar.width), parseFloat(getComputedStyle(elim).width)];""")
        check(styles[0] >= 11.5, "on a phone candidates are %.1f px" % styles[0])
        check(styles[1] == "none" and styles[2] == '""' and styles[3] == "2px"
              and styles[4] > styles[5] / 2,
              "on a phone a struck candidate is drawn %r" % styles)
        page.until_text("board-help", HELP_TOUCH["viewing"])
        check_targets(page, [".stepper button", "#step-list .step-link", "#highlight button",
                             "#copy-pm", "#explain", "#solve", "#play", "#edit", "#load",
                             "#clear", "#generate", "#level", "#needs", "#se-min", "#se-max"],
                      "viewing on a phone")
        # The cells share the screen's width: nine of 44 px and the board's borders would take
        # 400 px, more than the phone's 390. They are as large as the screen allows, 40 px.
        check_targets(page, ["#board .cell"], "viewing on a phone", least=40)
        check_steps_whole(page, "on a phone")
        check_no_tooltips(page, "viewing on a phone")
        check_dark(page, "the x-wing on a phone", screenshots, "page-phone-dark.png")
        help_text = page.text("board-help")
        check(not any(k in help_text for k in ("\u2190", "Home", "Esc")),
              "the phone's help names keys: %r" % help_text)
        driver.execute_script("window.scrollTo(0, 0);")
        page.shot(screenshots, "page-phone.png")
        # Item 10: on a phone's small cells no arrowhead covers a candidate either.
        driver.get(daemon.url + forcing)
        page.until_text("technique", "Forcing Chain")
        check_arrowheads(page, "the forcing chain on a phone")
        # A trial's branches, each a row a finger can open.
        driver.get(daemon.url + "#puzzle=%s&step=%d" % (TRIAL_PUZZLE, trial))
        page.until_text("technique", "Trial: a candidate followed to a contradiction")
        check_targets(page, ["#branch-tree .branch > summary"], "a trial's branches on a phone")
        driver.get(daemon.url + forcing)
        page.until_text("technique", "Forcing Chain")

        # A Load error on a phone shows above the board, in sight.
        page.click("edit")
        page.until_text("board-help", HELP_TOUCH["editing"])
        check_targets(page, ["#keypad button"], "editing on a phone")
        page.type_text(BAD_PUZZLE)
        page.click("load")
        page.until_text("error", expected)
        driver.execute_script("window.scrollTo(0, 0);")
        error, board = page.rect("#error"), page.rect("#board")
        height = driver.execute_script("return window.innerHeight;")
        check(error["bottom"] <= board["top"] and 0 <= error["top"] and error["bottom"] <= height,
              "on a phone the Load error is at %r, the board at %r" % (error, board))

        # Play on a phone: the touch help, and a screenshot.
        play(page, daemon, Keys, screenshots, "page-phone-play.png", phone=True)
        check_targets(page, ["#play-tools button", "#keypad button", "#copy-pm"],
                      "playing on a phone")

        # Issue 48, item 2: with the daemon down, nothing of the puzzle is lost and the page
        # says so in words, where the player looks. The requests that find no daemon are the
        # only errors allowed in the console meanwhile.
        console = driver.get_log("browser")
        daemon = unreachable(page, daemon, args, Keys)
        console += [entry for entry in driver.get_log("browser")
                    if "net::ERR_CONNECTION_REFUSED" not in entry["message"]]

        errors = [entry for entry in console if entry["level"] == "SEVERE"
                  and "the server responded with a status of 400" not in entry["message"]]
        check(not errors, "the browser's console has errors: %r" % errors)
    finally:
        driver.quit()
        daemon.stop()


def unreachable(page, daemon, args, Keys):
    """On a phone, in play: a hint, Stop playing, Load and Explain with the daemon stopped keep
    the board, the ratings and the address, and say that the daemon cannot be reached, in sight
    on the screen; once it is back (on the same port), Explain works without another Load.
    Returns the daemon started again."""
    board = [c["digit"] for c in page.board()]
    daemon.stop()
    page.click("hint")
    page.until_text("play-message", UNREACHABLE)
    check(page.in_sight("play-message"), "on a phone the hint's failure is out of sight")
    check([c["digit"] for c in page.board()] == board, "a failed hint changed the board")
    page.click("edit")
    check(page.answer_confirm(True) ==
          "This ends your game: the digits and notes you entered will be lost.",
          "Stop playing asked something else")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing",
               "Stop playing to stop")
    page.type_text(WIKIPEDIA)
    page.click("load")
    page.until_text("error", UNREACHABLE)
    check(page.in_sight("error"), "on a phone the Load failure is out of sight")
    check([c["digit"] or "." for c in page.board()] == list(PUZZLE),
          "a Load with no daemon changed the board")
    check(page.text("verdict") == "One (unique)" and page.text("rating-level") != "\u2013",
          "a Load with no daemon dropped the verdict or the rating: %r, %r"
          % (page.text("verdict"), page.text("rating-level")))
    check(page.hash() == "#puzzle=" + PUZZLE, "a Load with no daemon left %r" % page.hash())
    page.driver.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    page.click("explain")
    page.until(lambda: page.in_sight("error"), "Explain's failure to come into sight")
    check(page.text("error") == UNREACHABLE, "Explain with no daemon: %r" % page.text("error"))
    again = Daemon(args.sudokud, daemon.http_port)
    page.click("explain")
    explanation = again.api("/api/explain", {"puzzle": WIKIPEDIA})
    check_step(page, explanation, 0)
    check(not page.find("#error").is_displayed(), "the error stays: %r" % page.text("error"))
    page.until(lambda: page.hash() == "#puzzle=%s&step=0" % WIKIPEDIA,
               "the address to follow (it is %r)" % page.hash())
    return again


def check_clearing(page, Keys):
    """Issue 48, item 3: clearing a placed digit gives back the candidates it struck (9 in r5c4,
    as the README's example puzzle has it), but not one the player struck by hand, nor one a 9
    elsewhere still rules out; Undo takes all of it back and Redo (Ctrl+Y, Ctrl+Shift+Z, the
    button) does it again."""
    start = [c["candidates"] for c in page.board()]
    r5c4 = cell_index("r5c4")
    lost = [c for c in peers(r5c4) if "9" in start[c]]
    check("9" in start[r5c4] and len(lost) == 12, "r5c4 has %r, 12 peers with 9 expected: %r"
          % (start[r5c4], [cell_name(c) for c in lost]))

    def place(cell, key, said):
        page.cell(cell).click()
        page.key(key)
        page.until_text("play-message", said)
        return [c["candidates"] for c in page.board()]

    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    page.until_text("play-message", "Nothing to redo.")
    page.key("u")
    page.until_text("play-message", "Nothing to undo.")
    check(not page.find("#redo").is_enabled(), "Redo is enabled with nothing to redo")
    placed = place(r5c4, "9", "9 placed in r5c4.")
    check(not any("9" in placed[c] for c in lost), "a peer of r5c4 keeps 9")
    cleared = place(r5c4, Keys.BACKSPACE, "r5c4 cleared.")
    check(cleared == start, "clearing r5c4 left %r" % [
        (cell_name(c), cleared[c], start[c]) for c in range(81) if cleared[c] != start[c]])
    # Struck by hand: it stays struck.
    hand = lost[0]
    page.key("n")
    place(hand, "9", "Removed candidate 9 in %s." % cell_name(hand))
    page.key("n")
    place(r5c4, "9", "9 placed in r5c4.")
    board = place(r5c4, Keys.BACKSPACE, "r5c4 cleared.")
    check("9" not in board[hand] and all("9" in board[c] for c in lost[1:]),
          "after a 9 struck by hand in %s: %r" % (cell_name(hand), [board[c] for c in lost]))
    # A 9 in a cell that sees one of them but not r5c4 still rules 9 out there.
    other, seen = next((c, p) for c in range(81) for p in lost[1:]
                       if "9" in start[c] and c != r5c4 and c not in peers(r5c4)
                       and c not in lost and p in peers(c))
    place(r5c4, "9", "9 placed in r5c4.")
    place(other, "9", "9 placed in %s." % cell_name(other))
    board = place(r5c4, Keys.BACKSPACE, "r5c4 cleared.")
    check("9" not in board[seen], "%s has 9 back beside the 9 in %s" % (
        cell_name(seen), cell_name(other)))
    board = place(other, Keys.BACKSPACE, "%s cleared." % cell_name(other))
    check("9" in board[seen] and "9" in board[r5c4],
          "with both 9s gone, %s has %r and r5c4 %r" % (cell_name(seen), board[seen],
                                                       board[r5c4]))
    # Undo, all nine moves; then Redo by each of its ways, and undone again.
    page.key("u", 9)
    page.until_text("play-message", "Undone.")
    check([c["candidates"] for c in page.board()] == start, "Undo did not restore the start")
    check(not page.find("#undo").is_enabled(), "Undo is enabled with nothing to undo")
    ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    page.until_text("play-message", "Redone.")
    check(page.board()[r5c4]["digit"] == "9", "Ctrl+Y did not place the 9 again")
    ActionChains(page.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z") \
        .key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
    page.until(lambda: page.board()[r5c4]["digit"] == "", "Ctrl+Shift+Z to clear r5c4 again")
    check([c["candidates"] for c in page.board()] == start, "Redo's clearing differs")
    page.click("redo")
    page.until(lambda: "9" not in page.board()[hand]["candidates"], "the Redo button")
    page.key("u", 3)
    page.until(lambda: [c["candidates"] for c in page.board()] == start, "Undo to the start")
    check(page.find("#redo").is_enabled(), "Redo is not enabled after Undo")
    highlight_off(page)


def pencil_of(board):
    """The page's board as the 729-character pencilmark puzzle a hint sends: a digit's cell
    holds it alone, an empty cell its candidates."""
    return "".join("".join(d if d in (c["digit"] or c["candidates"]) else "."
                           for d in "123456789") for c in board)


def start_play(page, puzzle):
    page.type_text(puzzle)
    page.click("load")
    page.until(lambda: page.hash() == "#puzzle=" + puzzle, "the puzzle to load")
    page.until_text("verdict", "One (unique)")
    # The same puzzle loaded again: its reading ends before Play can be pressed.
    page.until(lambda: page.find("#play").is_enabled(), "Play to be enabled")
    page.click("play")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing", "play mode")


def hint_grades(page, daemon, Keys, screenshots):
    """Issue 48, item A: a hint starts from the player's own candidates and comes in three
    grades. With every digit before the README's x-wing placed, Hint says where to look (row 3
    tinted), again the cells (shaded), again what it removes (struck); with the x-wing's 8s
    struck by hand, the next hint is another step (the daemon counts a cell left with one
    candidate as placed), and so is Explain from here's first, Back returning to the game."""
    steps = daemon.api("/api/explain", {"puzzle": PUZZLE})["steps"]
    xwing = next(i for i, s in enumerate(steps) if s["eliminations"])
    start_play(page, PUZZLE)
    for s in steps[:xwing]:
        for p in s["placements"]:
            page.cell(cell_index(p["cell"])).click()
            page.key(str(p["digit"]))
            page.until_text("play-message", "%d placed in %s." % (p["digit"], p["cell"]))
    corners = {"r3c3", "r3c9", "r5c3", "r5c9"}

    def marked(kind):
        return {cell_name(c): b[kind] if kind in b else True
                for c, b in enumerate(page.board()) if b.get(kind, kind in b["classes"])}

    page.click("hint")
    page.until_text("play-message", "Look at row 3: an X-Wing. Hint again shows its cells.")
    check(set(marked("unit")) == {"r3c%d" % c for c in range(1, 10)} and not marked("pattern")
          and not marked("eliminated") and not marked("keys"),
          "grade 1 marks %r, %r" % (marked("unit"), marked("eliminated")))
    page.click("hint")
    page.until_text("play-message", "Look at r3c3, r3c9, r5c3 and r5c9: an X-Wing. Hint again "
                    "shows what it does.")
    check(set(marked("pattern")) == corners and not marked("eliminated") and not marked("keys"),
          "grade 2 marks %r, %r" % (marked("pattern"), marked("eliminated")))
    page.key("h")
    page.until_text("play-message", "Hint: x-wing: 8 in rows 3, 5 lies only in columns 3, 9 "
                    "(r35c39): removes 8 from r26c9,r4c39")
    check(marked("eliminated") == {"r2c9": "8", "r4c3": "8", "r4c9": "8", "r6c9": "8"}
          and set(marked("keys")) == corners, "grade 3 marks %r, %r" % (
              marked("eliminated"), marked("keys")))
    check_no_tooltips(page, "playing")
    page.shot(screenshots, "page-hint.png")
    # The x-wing's removals, struck by hand: the hint moves on.
    page.key("n")
    for name in ("r2c9", "r4c3", "r4c9", "r6c9"):
        page.cell(cell_index(name)).click()
        page.key("8")
        page.until_text("play-message", "Removed candidate 8 in %s." % name)
    page.key("n")
    nxt = daemon.api("/api/explain", {"puzzle": pencil_of(page.board())})["steps"][0]
    check(nxt["technique"] != "x-wing", "the x-wing is offered again: %r" % nxt["text"])
    page.click("hint")
    page.until_text("play-message", "Look at box 3: a Naked Single. Hint again shows its cells.")
    page.click("hint")
    page.until_text("play-message", "Look at r1c8: a Naked Single. Hint again shows what it does.")
    check(not page.board()[cell_index("r1c8")]["placed"], "grade 2 shows the digit")
    page.click("hint")
    page.until_text("play-message", "Hint: naked single: r1c8 = 5 (its only candidate)")
    check(page.board()[cell_index("r1c8")]["placed"] == "5", "grade 3 does not show r1c8's 5")
    # Explain from here: the player's board opens as a pencilmark puzzle of its own, explained
    # from the candidates left; Back goes on with the game.
    board = page.board()
    pencil = pencil_of(board)
    page.click("explain-here")
    page.until(lambda: page.hash() == "#puzzle=%s&step=0" % pencil,
               "the player's board to open as a puzzle (the address is %r)" % page.hash())
    page.until_text("technique", "Naked Single")
    page.until_text("step-text", "naked single: r1c8 = 5 (its only candidate)")
    page.driver.back()
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing",
               "Back to go on with the game")
    page.until_text("play-message", "Your game goes on where you left it.")
    check([(b["digit"], b["candidates"]) for b in page.board()] ==
          [(b["digit"], b["candidates"]) for b in board], "the game after Back differs")
    page.key(Keys.ESCAPE)
    page.answer_confirm(True)
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing",
               "Esc to stop playing")


def kept_game(page, daemon, Keys, screenshots):
    """Issue 48, item B: a game is kept in the browser under its puzzle. Two moves (a digit and
    a candidate struck) and a reload: the same digits and candidates, Undo available, the time
    played going on from where it stood; Undo then takes the strike back."""
    start_play(page, PUZZLE)
    page.until_text("timer", "00:00")
    first = daemon.api("/api/explain", {"puzzle": PUZZLE})["steps"][0]["placements"][0]
    page.cell(cell_index(first["cell"])).click()
    page.key(str(first["digit"]))
    page.until_text("play-message", "%d placed in %s." % (first["digit"], first["cell"]))
    struck = next(c for c, b in enumerate(page.board()) if len(b["candidates"]) > 1)
    digit = page.board()[struck]["candidates"][0]
    page.key("n")
    page.cell(struck).click()
    page.key(digit)
    page.until_text("play-message", "Removed candidate %s in %s." % (digit, cell_name(struck)))
    page.until(lambda: page.text("timer") >= "00:02", "the timer to reach 00:02")
    before = [(b["digit"], b["candidates"]) for b in page.board()]
    page.driver.refresh()
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing",
               "the game to come back after a reload")
    page.until_text("play-message", "Your game goes on where you left it.")
    check([(b["digit"], b["candidates"]) for b in page.board()] == before,
          "the board after a reload differs")
    check(page.board()[cell_index(first["cell"])]["classes"].count("player") == 1,
          "the digit placed is not the player's after a reload")
    check(page.find("#undo").is_enabled() and not page.find("#redo").is_enabled(),
          "Undo and Redo after a reload: %r, %r" % (page.find("#undo").is_enabled(),
                                                    page.find("#redo").is_enabled()))
    check(page.find("#notes").get_attribute("aria-pressed") == "true", "Notes is off again")
    shown = page.text("timer")
    check("00:02" <= shown <= "00:09", "the timer after a reload reads %r" % shown)
    page.until(lambda: page.text("timer") > shown, "the timer to go on after a reload")
    page.shot(screenshots, "page-play-restored.png")
    page.click("undo")
    page.until_text("play-message", "Undone.")
    check(digit in page.board()[struck]["candidates"], "Undo after a reload left the strike")
    page.key("n")
    page.key(Keys.ESCAPE)
    page.answer_confirm(True)
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing",
               "Esc to stop playing")
    # A game let go is not kept: a reload stays in editing.
    page.driver.refresh()
    page.until_text("verdict", "One (unique)")
    check(page.find("#board").get_attribute("data-mode") == "editing",
          "a game stopped came back after a reload")


def generate_by(page, daemon, Keys, screenshots):
    """Issue 48, item C: Generate at a HoDoKu level and within an SE range, as the Solve card
    then shows them; a range the API refuses shows its exact words."""
    from selenium.webdriver.support.ui import Select

    def generated(what):
        before = page.find("#puzzle-text").get_attribute("value")
        page.click("generate")
        page.until(lambda: re.fullmatch(r"[1-9.]{81}", page.find("#puzzle-text")
                                        .get_attribute("value") or "") and
                   page.find("#puzzle-text").get_attribute("value") != before and
                   page.hash() == "#puzzle=" + page.find("#puzzle-text").get_attribute("value")
                   and page.text("status") == "", "a puzzle generated " + what)
        page.until_text("verdict", "One (unique)")
        return page.find("#puzzle-text").get_attribute("value")

    def rating(puzzle):
        return daemon.api("/api/solve", {"puzzle": puzzle, "unique": True, "rate": True})["rating"]

    def bounds(low, high):
        for field, value in (("#se-min", low), ("#se-max", high)):
            page.find(field).clear()
            if value:
                page.find(field).send_keys(value)

    Select(page.find("#level")).select_by_visible_text("HoDoKu hard")
    puzzle = generated("at HoDoKu hard")
    page.until(lambda: page.text("rating-hodoku").startswith("hard ("),
               "the HoDoKu rating to say hard (it says %r)" % page.text("rating-hodoku"))
    check(rating(puzzle)["hodoku_level"] == "hard", "generated at %r" % rating(puzzle))
    Select(page.find("#level")).select_by_visible_text("any")
    bounds("2.0", "2.5")
    puzzle = generated("with SE 2.0-2.5")
    se = float(page.text("rating-se").split("/")[0])
    check(2.0 <= se <= 2.5 and se == rating(puzzle)["se"],
          "SE 2.0-2.5 gave a puzzle the page rates %r" % page.text("rating-se"))
    page.shot(screenshots, "page-generate-se.png")
    bounds("3.0", "2.0")
    page.click("generate")
    page.until_text("error", "'se_min' 3.0 is above 'se_max' 2.0")
    check(page.find("#puzzle-text").get_attribute("value") == puzzle,
          "a refused range changed the puzzle")
    bounds("", "")
    # A technique needed: the puzzle's explanation takes an X-Wing step, in the list of steps
    # as a player reads it. The select offers only names the API takes, "any technique" none.
    offered = [o.get_attribute("value") for o in Select(page.find("#needs")).options]
    check(offered[0] == "" and Select(page.find("#needs")).options[0].text == "any technique"
          and set(offered[1:]) == set(TECHNIQUE_NAMES) - {"wxyz-wing"},
          "Needs offers %r" % offered)
    Select(page.find("#level")).select_by_visible_text("any")
    Select(page.find("#needs")).select_by_visible_text("X-Wing")
    puzzle = generated("needing an X-Wing")
    page.click("explain")
    page.until(lambda: page.text("step-count").startswith("Step 1 of "), "the explanation")
    entries = [e.text for e in page.driver.find_elements(page.By.CSS_SELECTOR,
                                                         "#step-list .step-link")]
    check(any(re.match(r"\d+\. x-wing: ", e) for e in entries),
          "no X-Wing step in the list of the puzzle generated needing one: %r" % entries)
    check(any(s["technique"] == "x-wing"
              for s in daemon.api("/api/explain", {"puzzle": puzzle})["steps"]),
          "the puzzle generated needing an X-Wing has none: %s" % puzzle)
    Select(page.find("#needs")).select_by_index(0)
    Select(page.find("#level")).select_by_value("easy")


def nice_loop(page, daemon):
    """A nice loop is headed by its own name, HoDoKu's, not as any alternating inference chain."""
    explanation = daemon.api("/api/explain", {"puzzle": NICE_LOOP})
    steps = explanation["steps"]
    loop = next((i for i, s in enumerate(steps) if "Nice Loop" in s["hodoku_name"]), None)
    check(loop is not None, "no nice loop in NICE_LOOP's explanation")
    check(steps[loop]["technique"] == "alternating inference chain", "%r" % steps[loop])
    page.type_text(NICE_LOOP)
    page.click("load")
    # The last puzzle's verdict reads the same: the address says this one is loaded.
    page.until(lambda: page.hash() == "#puzzle=" + NICE_LOOP, "NICE_LOOP to load")
    page.until_text("verdict", "One (unique)")
    page.click("explain")
    page.until_text("step-count", "Step 1 of %d" % len(steps))
    page.click_step(loop)
    check_step(page, explanation, loop)
    page.until_text("technique", steps[loop]["hodoku_name"])
    check(page.text("technique") in ("Continuous Nice Loop", "Discontinuous Nice Loop",
                                     "Grouped Continuous Nice Loop",
                                     "Grouped Discontinuous Nice Loop"),
          "the nice loop is headed %r" % page.text("technique"))
    check_links(page, steps[loop], "the nice loop")


def pencil_puzzle(page, daemon, Keys):
    """Issue 48, item D: a 729-character pencilmark puzzle (PUZZLE's candidates at its x-wing)
    shows its single candidates as givens, is explained from its candidates (the x-wing first),
    solved with no word of Explain being off, and played from its candidates."""
    explanation = daemon.api("/api/explain", {"puzzle": PUZZLE})
    xwing = next(i for i, s in enumerate(explanation["steps"]) if s["eliminations"])
    candidates = explanation["steps"][xwing]["candidates"]
    digits = step_digits(explanation, xwing)
    pencil = "".join("".join(d if d in (digits.get(c) or candidates[c]) else "."
                             for d in "123456789") for c in range(81))
    page.type_text(pencil)
    page.click("load")
    page.until(lambda: page.hash() == "#puzzle=" + pencil, "the pencilmark puzzle to load")
    page.until_text("verdict", "One (unique)")
    board = page.board()
    for cell in range(81):
        if cell in digits:
            check(board[cell]["digit"] == digits[cell] and "given" in board[cell]["classes"],
                  "%s shows %r, not the given %s" % (cell_name(cell), board[cell], digits[cell]))
        else:
            check(board[cell]["candidates"] == candidates[cell], "%s shows %r, not %r" % (
                cell_name(cell), board[cell]["candidates"], candidates[cell]))
    check(page.find("#explain").is_enabled() and page.find("#play").is_enabled(),
          "Explain or Play is disabled for a pencilmark puzzle")
    page.click("explain")
    page.until(lambda: page.text("step-count").startswith("Step 1 of "), "the explanation")
    page.until_text("technique", "X-Wing")
    check(not page.find("#error").is_displayed(), "Explain says %r" % page.text("error"))
    page.click("edit")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing", "editing")
    page.until_text("board-help", "A pencilmark puzzle: change it in the text box.")
    # Solve with no explanation (the text read again, a space added, drops it): the words
    # point at Explain, which is there to press.
    page.type_text(pencil + " ")
    page.click("solve")
    page.until_text("technique-about",
                    "The board shows the solution. Press Explain to see how it is reached.")
    check(page.find("#explain").is_enabled(), "after Solve the page says Press Explain, "
          "and Explain is disabled")
    page.click("play")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing", "play mode")
    check(page.visible("keypad"), "no keypad to play a pencilmark puzzle with")
    board = page.board()
    check(all(board[c]["candidates"] == candidates[c] for c in range(81) if c not in digits),
          "play starts from other candidates than the pencilmarks")
    given = next(iter(digits))
    page.cell(given).click()
    page.key("9" if digits[given] != "9" else "1")
    page.until_text("play-message", "%s is a given: it cannot change." % cell_name(given))
    page.click("hint")
    page.until_text("play-message", "Look at row 3: an X-Wing. Hint again shows its cells.")
    page.key(Keys.ESCAPE)
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing",
               "Esc to stop playing")


def pm_grid_of(board):
    """The board (Page.board()) as HoDoKu's PM grid: a cell's digit or its candidates, each
    column as wide as its widest cell, '|' between the boxes, HoDoKu's rulers."""
    cells = [cell["digit"] or cell["candidates"] for cell in board]
    widths = [max(len(cells[row * 9 + col]) for row in range(9)) for col in range(9)]

    def ruler(edge, joint):
        return edge + joint.join("-" * (sum(widths[box:box + 3]) + 4)
                                 for box in (0, 3, 6)) + edge
    lines = [ruler(".", ".")]
    for row in range(9):
        if row in (3, 6):
            lines.append(ruler(":", "+"))
        lines.append("| " + " | ".join(" ".join(cells[row * 9 + col].ljust(widths[col])
                                                 for col in range(box, box + 3))
                                        for box in (0, 3, 6)) + " |")
    lines.append(ruler("'", "'"))
    return "\n".join(lines) + "\n"


def givens_of(pencil):
    """The 81 characters of a pencilmark puzzle's givens: its cells with one candidate."""
    cells = [pencil[cell * 9:cell * 9 + 9].replace(".", "") for cell in range(81)]
    return "".join(cell if len(cell) == 1 else "." for cell in cells)


def pm_grid(page, daemon, screenshots):
    """Copy as PM grid: Wikipedia's puzzle copies as HoDoKu's PM grid of it, exactly; where the
    browser refuses the clipboard, the grid shows in a box, selected, to copy by hand. A game
    (a digit placed, a candidate struck) copies as the board shows it, and that text loaded
    gives the same board, which copies as the same text again and is explained from its
    candidates (page-pm-grid.png)."""
    driver = page.driver
    origin = daemon.url.rstrip("/")

    def clipboard(setting):
        for name in ("clipboard-read", "clipboard-write"):
            driver.execute_cdp_cmd("Browser.setPermission", {
                "permission": {"name": name}, "setting": setting, "origin": origin})

    def pasted():
        return driver.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], "
            "(e) => arguments[0]('not read: ' + e));")

    def copy(expected):
        page.click("copy-pm")
        page.until_text("copy-message", COPIED)
        check(not page.visible("pm-grid"), "the grid to copy by hand shows after a copy")
        text = pasted()
        check(text == expected, "Copy as PM grid copied\n%s\nnot\n%s" % (text, expected))
        return text

    clipboard("granted")
    page.type_text(WIKIPEDIA)
    page.click("load")
    page.until(lambda: page.hash() == "#puzzle=" + WIKIPEDIA, "Wikipedia's puzzle to load")
    page.until_text("verdict", "One (unique)")
    check(pm_grid_of(page.board()) == WIKIPEDIA_PM_GRID, "the test's PM grid differs from HoDoKu's")
    copy(WIKIPEDIA_PM_GRID)
    # Refused: the grid below the button, whole, selected, with the focus, to copy by hand.
    clipboard("denied")
    page.click("copy-pm")
    page.until_text("copy-message", COPY_BY_HAND)
    box = driver.execute_script("""
        const box = document.getElementById('pm-grid');
        return [box.value, box.selectionStart, box.selectionEnd, document.activeElement === box];""")
    check(page.visible("pm-grid") and box[0] == WIKIPEDIA_PM_GRID and box[1] == 0 and
          box[2] == len(WIKIPEDIA_PM_GRID) and box[3],
          "the grid to copy by hand: %r" % box)
    clipboard("granted")
    # A game: a digit placed and a candidate struck by hand, copied as the board shows them.
    page.click("play")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing", "play mode")
    page.cell(cell_index("r1c3")).click()
    page.key("4")
    page.until_text("play-message", "4 placed in r1c3.")
    page.until(lambda: page.text("copy-message") == "" and not page.visible("pm-grid"),
               "what the copy said to go once the board changed")
    page.key("n")
    page.cell(cell_index("r1c6")).click()
    page.key("2")
    page.until_text("play-message", "Removed candidate 2 in r1c6.")
    page.key("n")
    highlight_off(page)
    board = page.board()
    text = copy(pm_grid_of(board))
    # Loaded back: the same board (a cell left one candidate shows it as a given), the same
    # grid copied again.
    page.type_text(text)
    page.click("load")
    check(page.answer_confirm(True) ==
          "This ends your game: the digits and notes you entered will be lost.",
          "Load of the PM grid asked something else")
    page.until(lambda: page.hash() == "#puzzle=" + pencil_of(board),
               "the PM grid to load as the game's pencilmarks (the address is %r)" % page.hash())
    page.until_text("verdict", "One (unique)")
    check(pencil_of(page.board()) == pencil_of(board), "the PM grid loaded shows another board")
    copy(text)
    # Explained from the candidates it holds.
    steps = daemon.api("/api/explain", {"puzzle": text})["steps"]
    check(steps and steps[0]["candidates"][cell_index("r1c6")] == "68",
          "the API explains the PM grid from %r" % (steps and steps[0]["candidates"][5]))
    page.click("explain")
    check_step(page, {"puzzle": givens_of(pencil_of(board)), "steps": steps}, 0)
    page.shot(screenshots, "page-pm-grid.png")
    page.click("edit")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing", "editing")


def highlight_off(page):
    """A press on a cell with a digit in play highlights that digit: turned off for what
    follows."""
    for pressed in page.driver.find_elements(page.By.CSS_SELECTOR,
                                             '#highlight button[aria-pressed="true"]'):
        pressed.click()


def play(page, daemon, Keys, screenshots, shot, phone=False):
    """Plays PUZZLE: a digit, notes, undo, a wrong digit's hint, a hint shown and not applied,
    the highlight, then every remaining digit to the end."""
    page.type_text(PUZZLE)
    page.click("load")
    page.until(lambda: page.hash() == "#puzzle=" + PUZZLE, "the puzzle to load")
    page.until_text("verdict", "One (unique)")
    page.click("play")
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "playing", "play mode")
    check(page.visible("play-tools") and not page.find("#play").is_enabled(),
          "the play tools are not shown")
    if phone:
        page.until_text("board-help", HELP_TOUCH["playing"])
    else:
        page.until_text("board-help", HELP_KEYS_PLAYING)
    solution = daemon.api("/api/solve", {"puzzle": PUZZLE})["solution"]
    start = daemon.api("/api/explain", {"puzzle": PUZZLE})["steps"][0]
    initial = start["candidates"]
    board = page.board()
    # (The API gives a given's cell its digit as its one candidate; the board shows the digit.)
    shown = [c["candidates"] or c["digit"] for c in board]
    check(shown == initial, "play starts from other candidates: %r" % [
        (cell_name(c), shown[c], initial[c]) for c in range(81) if shown[c] != initial[c]][:5])
    if not phone:
        check_clearing(page, Keys)

    def at(name):
        page.cell(cell_index(name)).click()
        page.until(lambda: page.active() == "cell-" + name, "the focus on " + name)

    # The first step's digit, placed: it leaves its peers' candidates.
    first = start["placements"][0]
    cell, digit = cell_index(first["cell"]), str(first["digit"])
    at(first["cell"])
    page.key(digit)
    page.until_text("play-message", "%s placed in %s." % (digit, first["cell"]))
    board = page.board()
    check(board[cell]["digit"] == digit and "player" in board[cell]["classes"],
          "%s does not show the %s placed" % (first["cell"], digit))
    for peer in peers(cell):
        check(digit not in board[peer]["candidates"], "%s keeps %s" % (cell_name(peer), digit))

    # Notes: a digit toggles a candidate; Undo takes it back.
    empty = next(c for c in range(81) if not board[c]["digit"] and len(board[c]["candidates"]) > 1)
    had = board[empty]["candidates"]
    page.key("n")
    page.until_text("play-message", "Notes on: digits toggle candidates.")
    check(page.find("#notes").get_attribute("aria-pressed") == "true", "Notes is not pressed")
    at(cell_name(empty))
    page.key(had[0])
    page.until_text("play-message", "Removed candidate %s in %s." % (had[0], cell_name(empty)))
    check(page.board()[empty]["candidates"] == had[1:], "the candidate is still there")
    page.key(had[0])
    page.until_text("play-message", "Noted candidate %s in %s." % (had[0], cell_name(empty)))
    check(page.board()[empty]["candidates"] == had, "the candidate did not come back")
    page.key(had[0])
    page.key("u")
    page.until_text("play-message", "Undone.")
    check(page.board()[empty]["candidates"] == had, "Undo did not restore %r" % had)
    page.key("n")
    page.until_text("play-message", "Notes off: digits are placed.")

    # A wrong digit: the hint names it; Undo (the button) takes it away.
    wrong = next(d for d in had if d != solution[empty])
    page.key(wrong)
    page.key("h")
    page.until_text("play-message", "Hint: %s holds %s, which is not its digit: undo it or "
                    "clear it." % (cell_name(empty), wrong))
    check("wrong" in page.board()[empty]["classes"], "the wrong digit is not marked")
    page.click("undo")
    page.until_text("play-message", "Undone.")
    check(page.board()[empty]["digit"] == "", "Undo left the wrong digit")

    # A hint: the next step from the player's board (its candidates), drawn on it, not
    # applied; where to look first, its cells on a second press, all of it on a third.
    digits = [c["digit"] or "." for c in page.board()]
    nxt = daemon.api("/api/explain", {"puzzle": pencil_of(page.board())})["steps"][0]
    page.click("hint")
    page.until(lambda: page.text("play-message").startswith("Look at "), "the hint's first grade")
    page.click("hint")
    page.until_text("play-message", "Look at %s: a %s. Hint again shows what it does." % (
        " and ".join(nxt["cells"]), shown_name(nxt)))
    page.click("hint")
    page.until_text("play-message", "Hint: " + nxt["text"])
    if phone:
        page.driver.execute_script("document.querySelector('.board-frame').scrollIntoView();")
        page.shot(screenshots, "page-phone-hint.png")
    board = page.board()
    for p in nxt["placements"]:
        target = cell_index(p["cell"])
        check(board[target]["digit"] == "" and board[target]["placed"] == str(p["digit"])
              and "target" in board[target]["classes"],
              "the hint's %s = %d is not shown (or was applied): %r" % (
                  p["cell"], p["digit"], board[target]))

    # Highlight one digit everywhere: its cells and its candidates; again to turn it off.
    page.click("highlight-" + digit)
    board = page.board()
    check(page.find("#highlight-" + digit).get_attribute("aria-pressed") == "true",
          "the highlight button is not pressed")
    for c in range(81):
        lit = "highlight" in board[c]["classes"]
        check(lit == (board[c]["digit"] == digit), "%s highlighted: %r" % (cell_name(c), lit))
        if not board[c]["digit"]:
            check(board[c]["highlighted"] == (digit if digit in board[c]["candidates"] else ""),
                  "%s's candidates highlighted: %r" % (cell_name(c), board[c]["highlighted"]))
    page.shot(screenshots, shot)
    page.click("highlight-" + digit)
    check(not any("highlight" in c["classes"] or c["highlighted"] for c in page.board()),
          "the highlight stays")

    if phone:
        return
    # Every remaining digit, as the keypad would type them: solved.
    for c in range(81):
        if digits[c] != ".":
            continue
        page.cell(c).click()
        page.find('#keypad button[aria-label="Enter %s"]' % solution[c]).click()
    page.until_text("play-message", SOLVED)
    check("".join(c["digit"] for c in page.board()) == solution, "the played board")
    # Solved, the time played stands still.
    stopped = page.text("timer")
    time.sleep(1.5)
    check(page.text("timer") == stopped, "the timer went on after the board was solved: %r, %r"
          % (stopped, page.text("timer")))

    # Issue 48, item 5: solved, the board is locked; Play starts a new game.
    last = next(c for c in range(81) if digits[c] == ".")
    page.cell(last).click()
    page.key(Keys.BACKSPACE)
    page.until_text("play-message", LOCKED)
    page.key("1" if solution[last] != "1" else "2")
    check(page.board()[last]["digit"] == solution[last], "the solved board took a digit")
    check(not page.find("#undo").is_enabled() and not page.find("#redo").is_enabled(),
          "Undo or Redo is enabled on the solved board")
    page.click("play")
    page.until(lambda: [c["digit"] or "." for c in page.board()] == list(PUZZLE),
               "Play on the solved board to start again")
    page.until_text("play-message", "Fill the board in: a digit places it, Notes (or Shift) "
                    "toggles a candidate.")
    # A game in progress is not dropped without asking: Esc, Solve, Explain, Load of another
    # puzzle each ask, and No keeps it.
    page.cell(last).click()
    page.key(solution[last])
    page.until_text("play-message", "%s placed in %s." % (solution[last], cell_name(last)))
    for what, action in (("Esc", lambda: page.key(Keys.ESCAPE)),
                         ("Solve", lambda: page.click("solve")),
                         ("Explain", lambda: page.click("explain")),
                         ("Load", lambda: (page.type_text(WIKIPEDIA), page.click("load")))):
        action()
        check(page.answer_confirm(False) ==
              "This ends your game: the digits and notes you entered will be lost.",
              "%s asked something else" % what)
        check(page.find("#board").get_attribute("data-mode") == "playing" and
              page.board()[last]["digit"] == solution[last], "%s dropped the game" % what)
    page.type_text(PUZZLE)
    page.cell(last).click()
    page.key(Keys.ESCAPE)
    page.answer_confirm(True)
    page.until(lambda: page.find("#board").get_attribute("data-mode") == "editing",
               "Esc to stop playing")
    highlight_off(page)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sudokud", required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--screenshots", required=True, help="directory for the PNG files")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--chromedriver",
                        default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    args = parser.parse_args()

    missing = [path for path in (args.chromium, args.chromedriver) if not os.access(path, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium module for %s" % sys.executable)
    if missing:
        print("SKIP: no browser to drive here (missing %s); install chromium, chromium-driver "
              "and python3-selenium (tests/run_all.sh does)" % ", ".join(missing))
        return SKIP

    os.makedirs(args.screenshots, exist_ok=True)
    started = time.monotonic()
    try:
        run(args, args.screenshots)
    except Failure as failure:
        print("FAILED:", failure)
        return 1
    print("page_test: passed in %.1f s" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
