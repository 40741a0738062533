#!/usr/bin/env python3
"""The page in a real browser: Debian's headless Chromium, driven with Selenium, against a real
sudokud serving --http on loopback.

It loads the page, enters a known puzzle (on the board's keys and in the text box), checks that
the candidates the board shows are those of the explain API, steps through the explanation with
the keyboard and the buttons (eliminations marked, the guess shown as a guess) to the end and
checks the board against the solution, checks that an invalid puzzle shows sudoku-client's exact
message, generates a puzzle and checks that it is unique, and looks at the page on a phone-sized
screen. Screenshots go to --screenshots: page-start.png, page-step.png (eliminations marked),
page-guess.png, page-solved.png, page-phone.png.

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

# From the README's explain example: singles, an x-wing at step 30, a guess at step 39.
PUZZLE = ".4.8....1..6....4..5....6.......5........342...1..6...3.21.87.5......3..6..7..1.."
# Column 12 holds an 'x'.
BAD_PUZZLE = PUZZLE[:11] + "x" + PUZZLE[12:]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def cell_name(cell):
    return "r%dc%d" % (cell // 9 + 1, cell % 9 + 1)


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

    def __init__(self, binary):
        self.process = subprocess.Popen(
            [binary, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--threads", "2"],
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
                raise Failure("sudokud exited before logging /%s/: %s" % (pattern, "".join(self.log)))
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

    def until_text(self, element_id, expected):
        self.until(lambda: self.text(element_id) == expected,
                   "#%s to read %r (it reads %r)" % (element_id, expected, self.text(element_id)))

    def cell(self, cell):
        return self.find("#cell-" + cell_name(cell))

    def board(self):
        """Per cell: (digit or '', shown candidates, classes of the cell, marked candidates)."""
        return self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#board .cell'), (cell) => ({
              digit: cell.querySelector('.digit') ? cell.querySelector('.digit').textContent : '',
              candidates: Array.from(cell.querySelectorAll('.cand'), (c) => c.textContent).join(''),
              classes: cell.className.split(' '),
              eliminated: Array.from(cell.querySelectorAll('.cand.elim'), (c) => c.textContent).join(''),
              placed: Array.from(cell.querySelectorAll('.cand.place, .cand.guess'), (c) => c.textContent).join(''),
            }));""")

    def key(self, key, times=1):
        from selenium.webdriver.common.action_chains import ActionChains
        for _ in range(times):
            ActionChains(self.driver).send_keys(key).perform()

    def click(self, element_id):
        self.driver.find_element(self.By.ID, element_id).click()

    def shot(self, directory, name):
        path = os.path.join(directory, name)
        self.driver.save_screenshot(path)
        print("screenshot:", path)


def check_step(page, explanation, position):
    """The board at `position` shows the step's candidates and marks."""
    step = explanation["steps"][position]
    page.until_text("step-count", "Step %d of %d" % (position + 1, len(explanation["steps"])))
    board = page.board()
    for cell in range(81):
        if board[cell]["digit"]:
            continue
        check(board[cell]["candidates"] == step["candidates"][cell],
              "step %d: %s shows candidates %r, the API says %r" % (
                  position + 1, cell_name(cell), board[cell]["candidates"],
                  step["candidates"][cell]))
    eliminated = {}
    for e in step["eliminations"]:
        eliminated.setdefault(e["cell"], "")
        eliminated[e["cell"]] += str(e["digit"])
    for cell in range(81):
        expected = "".join(sorted(eliminated.get(cell_name(cell), "")))
        check(board[cell]["eliminated"] == expected,
              "step %d: %s marks %r as removed, the step removes %r" % (
                  position + 1, cell_name(cell), board[cell]["eliminated"], expected))
    for p in step["placements"]:
        cell = int(p["cell"][1]) * 9 - 9 + int(p["cell"][3]) - 1
        check(board[cell]["placed"] == str(p["digit"]),
              "step %d: %s does not mark %d as placed" % (position + 1, p["cell"], p["digit"]))
    for name in step["cells"]:
        cell = int(name[1]) * 9 - 9 + int(name[3]) - 1
        check({"pattern", "target", "guess-target"} & set(board[cell]["classes"]),
              "step %d: %s is not highlighted" % (position + 1, name))


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
    driver = webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)
    try:
        page = Page(driver)
        driver.get(daemon.url)
        page.until(lambda: len(page.board()) == 81, "the board's 81 cells")
        check(driver.title.startswith("sudokud"), "title %r" % driver.title)

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

        # A known puzzle through the text box.
        text = page.find("#puzzle-text")
        text.clear()
        text.send_keys(PUZZLE)
        page.click("load")
        page.until_text("verdict", "One (unique)")
        explanation = daemon.api("/api/explain", {"puzzle": PUZZLE})
        solved = daemon.api("/api/solve", {"puzzle": PUZZLE, "unique": True, "rate": True})
        check(solved["verdict"] == "solved", "the API's verdict: %r" % solved)
        check(is_solution_of(solved["solution"], PUZZLE), "the API's solution is wrong")
        page.until_text("rating-level", solved["rating"]["level"])
        page.until_text("rating-hardest", solved["rating"]["hardest"])
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
        check_step(page, explanation, 0)
        page.key(Keys.ARROW_RIGHT, 3)
        check_step(page, explanation, 3)
        page.key(Keys.ARROW_LEFT)
        check_step(page, explanation, 2)
        page.click("forward")
        check_step(page, explanation, 3)
        # The first step that removes candidates: its removals are marked.
        eliminating = next(i for i, s in enumerate(steps) if s["eliminations"])
        page.key(Keys.ARROW_RIGHT, eliminating - 3)
        check_step(page, explanation, eliminating)
        technique = steps[eliminating]["technique"]
        page.until_text("technique", technique[0].upper() + technique[1:])
        page.until_text("step-text", steps[eliminating]["text"])
        page.shot(screenshots, "page-step.png")

        # Where logic runs out, the guess is shown as a guess.
        guess = next(i for i, s in enumerate(steps) if s["technique"] == "guess")
        page.key(Keys.ARROW_RIGHT, guess - eliminating)
        check_step(page, explanation, guess)
        page.until_text("technique", "Guess: logic has run out")
        check("guess" in page.find("#technique").get_attribute("class"), "the guess is not marked")
        page.shot(screenshots, "page-guess.png")
        page.key(Keys.ARROW_RIGHT)
        guessed = steps[guess]["placements"][0]["cell"]
        guessed_cell = int(guessed[1]) * 9 - 9 + int(guessed[3]) - 1
        check("guessed" in page.board()[guessed_cell]["classes"],
              "%s does not keep its guess mark" % guessed)

        # To the end: the board is the solution.
        page.key(Keys.END)
        page.until_text("step-count", "Solved in %d steps" % len(steps))
        final = "".join(cell["digit"] for cell in page.board())
        check(final == explanation["solution"] == solved["solution"],
              "the final board %r is not the solution %r" % (final, solved["solution"]))
        page.shot(screenshots, "page-solved.png")
        page.key(Keys.HOME)
        check_step(page, explanation, 0)

        # An invalid puzzle: the message is sudoku-client's, word for word.
        page.key(Keys.ESCAPE)
        text = page.find("#puzzle-text")
        text.clear()
        text.send_keys(BAD_PUZZLE)
        page.click("load")
        page.until(lambda: page.find("#error").is_displayed(), "the error message")
        expected = client_output(args.client, daemon.tcp_port, BAD_PUZZLE + "\n").rstrip("\n")
        check(expected == "invalid: line 1, column 12: bad character 'x' "
                          "(expected 1-9, or . 0 _ - for a blank)",
              "sudoku-client printed %r" % expected)
        page.until_text("error", expected)

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
        again = daemon.api("/api/solve", {"puzzle": generated, "unique": True, "rate": True})
        check(again["verdict"] == "solved" and again["solutions"] == 1,
              "the generated puzzle is not unique: %r" % again)
        check(again["rating"]["level"] == "intermediate", "generated at %r" % again["rating"])

        # A phone-sized screen: nothing wider than the screen, the board whole.
        driver.set_window_size(390, 844)
        page.find("#puzzle-text").clear()
        page.find("#puzzle-text").send_keys(PUZZLE)
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
        driver.execute_script("window.scrollTo(0, 0);")
        page.shot(screenshots, "page-phone.png")

        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "favicon.ico" not in entry["message"]
                  and "the server responded with a status of 400" not in entry["message"]]
        check(not errors, "the browser's console has errors: %r" % errors)
    finally:
        driver.quit()
        daemon.stop()


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
