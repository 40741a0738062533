#!/usr/bin/env python3
r"""Compares sudokud's ratings with the programs whose scales they follow.

HoDoKu (its batch solver, /bs) gives each puzzle a level (easy, medium, hard, unfair, extreme) and
a score; serate, Sukaku Explainer's batch rater, gives the Sudoku Explainer (SE) rating. This runs
both and `sudoku-client solve --rate` through a daemon on the same puzzles, then prints how often
the HoDoKu levels agree, the Spearman rank correlation of the SE ratings, and the time per puzzle
of each, side by side. Neither program is part of sudokud: build them yourself (see
tests/bench/README.md, "Ratings") and pass their jars.

  compare_ratings.py --hodoku-jar hodoku.jar --se-jar SukakuExplainer.jar FILE...

Each FILE holds one 81-character puzzle per line. --half even|odd keeps every other line of each
file (the ratings were fitted on the even lines of the reference samples; report the odd ones).
--save DIR keeps each program's answers there and --reuse takes them back instead of running the
program again (the anchors take minutes to hours on hard puzzles). serate has no time limit of its
own: with --se-cap SECONDS each puzzle (of the --se-cap-file files, or of all) runs in a JVM
of its own under timeout(1), and a puzzle over the cap counts as --se-capped-as (e.g. 11.0 for a
file of SE 11+ puzzles) or is left out.

Building the anchors (Debian's OpenJDK 17; sources checked out in $A) and the samples of
tests/bench/README.md (every k-th line of each file of ../shared/data):

  cd $A && find HoDoKu/src -name '*.java' > h.txt && mkdir -p h && javac --release 8 -nowarn \
    -encoding UTF-8 -d h @h.txt && (cd HoDoKu/src && find . -type f ! -name '*.java' \
    -exec cp --parents {} ../../h \;) && jar cfe hodoku.jar sudoku.Main -C h .
  cd $A && find SukakuExplainer/diuf -name '*.java' > s.txt && mkdir -p s && javac --release 8 \
    -nowarn -encoding ISO-8859-1 -d s @s.txt && jar cf SukakuExplainer.jar -C s .
  D=../shared/data
  pick() { awk -v k=$(( $(wc -l < $D/$1.txt) / $2 )) "NR % k == 0 && c++ < $2" $D/$1.txt \
             > /tmp/$1_$2.txt; }
  for f in qqwing_simple qqwing_easy qqwing_intermediate qqwing_expert \
           sudokuexchange_diabolical magictour_top1465; do pick $f 300; done
  pick qqwing_simple 150; pick qqwing_easy 150; pick qqwing_intermediate 150
  pick qqwing_expert 200; pick sudokuexchange_diabolical 250; pick magictour_top1465 100
  pick forum_hardest_11plus_half 20
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def read_puzzles(paths, half):
    """(puzzle, file name) pairs; with `half`, every other line of each file."""
    puzzles = []
    for path in paths:
        with open(path) as f:
            lines = [line.strip() for line in f if len(line.strip()) == 81]
        if half == "even":
            lines = lines[0::2]
        elif half == "odd":
            lines = lines[1::2]
        puzzles += [(p, os.path.basename(path)) for p in lines]
    return puzzles


def write_file(puzzles):
    f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    f.write("".join(p + "\n" for p in puzzles))
    f.close()
    return f.name


def nice(command):
    """Anchors run at the lowest priority: they share the machine."""
    return ["nice", "-n", "19"] + command


def run_hodoku(jar, puzzles):
    """{puzzle: (level, score)} and HoDoKu's own ms per puzzle (its /bs summary line)."""
    path = write_file(puzzles)
    try:
        # HoDoKu reads every argument that starts with '/' as an option: the file goes by its
        # name, from its folder.
        out = subprocess.run(nice(["java", "-Xmx512m", "-jar", os.path.abspath(jar), "/c",
                                   "default", "/bs", os.path.basename(path), "/o", "stdout"]),
                             capture_output=True, text=True, check=True,
                             cwd=os.path.dirname(path)).stdout
    finally:
        os.unlink(path)
    results, ms = {}, None
    for line in out.splitlines():
        fields = line.split()
        # "PUZZLE #7 Hard (1172)", then "bf" and the like when it needed brute force
        if len(fields) >= 4 and fields[1].startswith("#") and fields[3].startswith("("):
            results[fields[0]] = (fields[2].lower(), int(fields[3].strip("()")))
        elif line.endswith("ms per puzzle"):
            ms = float(fields[0])
    return results, ms


def run_serate(jar, puzzles, capped, cap, capped_as):
    """{puzzle: SE rating} and serate's seconds per puzzle: its own (the sum of its %e) for the
    puzzles rated in one JVM, the wall time of each JVM for the `capped` ones."""
    results, seconds = run_serate_capped(jar, [p for p in puzzles if p in capped], cap, capped_as)
    seconds *= len(results)
    rest = [p for p in puzzles if p not in capped]
    if rest:
        more, per_puzzle = run_serate_capped(jar, rest, None, None)
        results.update(more)
        seconds += per_puzzle * len(more)
    return results, seconds / max(len(puzzles), 1)


def run_serate_capped(jar, puzzles, cap, capped_as):
    command = ["java", "-Xmx1g", "-cp", jar, "diuf.sudoku.test.serate", "--threads=1"]
    results, seconds = {}, 0.0
    if not puzzles:
        return results, 0.0
    if cap is None:
        path = write_file(puzzles)
        try:
            out = subprocess.run(nice(command + ["--format=%g %r %e", "--input=" + path,
                                                 "--output=-"]),
                                 capture_output=True, text=True, check=True).stdout
        finally:
            os.unlink(path)
        for line in out.splitlines():
            puzzle, rating, elapsed = line.split()
            results[puzzle] = float(rating)
            seconds += float(elapsed.rstrip("s"))
        return results, seconds / max(len(results), 1)
    for puzzle in puzzles:
        start = time.monotonic()
        done = subprocess.run(["timeout", str(cap)] + nice(command + ["--format=%r", puzzle]),
                              capture_output=True, text=True)
        seconds += time.monotonic() - start
        rating = done.stdout.strip()
        if rating:
            results[puzzle] = float(rating)
        elif capped_as is not None:
            results[puzzle] = capped_as
    return results, seconds / max(len(puzzles), 1)


def run_sudokud(client, daemon, connect, puzzles):
    """{puzzle: (hodoku level, score, SE)} and the seconds per puzzle of `sudoku-client solve
    --rate` through a daemon (started here on one thread unless --connect names one)."""
    server = None
    if connect is None:
        server = subprocess.Popen([daemon, "--listen", "127.0.0.1:0", "--threads", "1"],
                                  stderr=subprocess.PIPE, text=True)
        for line in server.stderr:  # the log names the port it listens on
            if "listening on" in line:
                connect = line.split("listening on")[1].split()[0].strip(",")
                break
    path = write_file(puzzles)
    try:
        start = time.monotonic()
        out = subprocess.run([client, "solve", "--connect", connect, "--rate", "--format", "json",
                              "--no-progress", path],
                             capture_output=True, text=True, check=True).stdout
        elapsed = time.monotonic() - start
    finally:
        os.unlink(path)
        if server is not None:
            server.terminate()
            server.wait()
    results = {}
    for line in out.splitlines():
        record = json.loads(line)
        # "rating": "LEVEL HARDEST STEPS GUESSES HODOKU_LEVEL HODOKU_SCORE SE"
        fields = record["rating"].split()
        results[record["puzzle"]] = (fields[4], int(fields[5]), float(fields[6]))
    return results, elapsed / max(len(puzzles), 1)


def ranks(values):
    """Ranks from 1, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / var if var else float("nan")


def saved(args, name, compute):
    """A program's answers: from --save DIR with --reuse, else computed (and saved)."""
    path = os.path.join(args.save, name + ".json") if args.save else None
    if path and args.reuse and os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
        return {k: tuple(v) if isinstance(v, list) else v for k, v in data["results"].items()}, \
            data["per_puzzle"]
    results, per_puzzle = compute()
    if path:
        os.makedirs(args.save, exist_ok=True)
        with open(path, "w") as f:
            json.dump({"results": results, "per_puzzle": per_puzzle}, f)
    return results, per_puzzle


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--hodoku-jar", help="HoDoKu's jar (skip HoDoKu without it)")
    parser.add_argument("--se-jar", help="SukakuExplainer's jar (skip serate without it)")
    parser.add_argument("--client", default="build/client/sudoku-client")
    parser.add_argument("--daemon", default="build/daemon/sudokud")
    parser.add_argument("--connect", help="a running daemon's HOST:PORT")
    parser.add_argument("--half", choices=["all", "even", "odd"], default="all")
    parser.add_argument("--se-cap", type=float, help="seconds per puzzle for serate")
    parser.add_argument("--se-cap-file", action="append", default=[], metavar="FILE",
                        help="a FILE whose puzzles serate rates under --se-cap (repeatable; "
                             "by default all of them)")
    parser.add_argument("--se-capped-as", type=float, help="SE of a puzzle over the cap")
    parser.add_argument("--save", metavar="DIR", help="keep each program's answers in DIR")
    parser.add_argument("--reuse", action="store_true", help="take saved answers back")
    args = parser.parse_args()

    puzzles = read_puzzles(args.files, args.half)
    texts = [p for p, _ in puzzles]
    if not texts:
        sys.exit("compare_ratings.py: no 81-character puzzles in " + ", ".join(args.files))
    ours, ours_time = run_sudokud(args.client, args.daemon, args.connect, texts)
    print(f"puzzles {len(texts)} (half: {args.half}) from {', '.join(args.files)}")
    print(f"{'program':<10} {'HoDoKu level':>13} {'SE Spearman':>12} {'time/puzzle':>12} "
          f"{'sudokud faster':>15}")
    rows = []
    if args.hodoku_jar:
        hodoku, hodoku_ms = saved(args, "hodoku", lambda: run_hodoku(args.hodoku_jar, texts))
        common = [p for p in texts if p in hodoku and p in ours]
        agree = sum(hodoku[p][0] == ours[p][0] for p in common)
        rows.append(("HoDoKu", "reference", "", hodoku_ms / 1000, agree / max(len(common), 1)))
        by_file = {}
        for p, name in puzzles:
            if p in common:
                n, a = by_file.get(name, (0, 0))
                by_file[name] = (n + 1, a + (hodoku[p][0] == ours[p][0]))
    if args.se_jar:
        cap_files = {os.path.basename(f) for f in args.se_cap_file or args.files}
        capped = {p for p, name in puzzles if args.se_cap and name in cap_files}
        se, se_seconds = saved(args, "serate", lambda: run_serate(
            args.se_jar, texts, capped, args.se_cap, args.se_capped_as))
        common = [p for p in texts if p in se and p in ours]
        rho = spearman([se[p] for p in common], [ours[p][2] for p in common])
        rows.append(("serate", "", "reference", se_seconds, rho))
    for name, level, rho, seconds, _ in rows:
        print(f"{name:<10} {level:>13} {rho:>12} {seconds * 1000:>9.2f} ms "
              f"{seconds / ours_time:>14.0f}x")
    hodoku_text = f"{rows[0][4] * 100:.1f}%" if args.hodoku_jar else "-"
    se_text = f"{rows[-1][4]:.3f}" if args.se_jar else "-"
    print(f"{'sudokud':<10} {hodoku_text:>13} {se_text:>12} {ours_time * 1000:>9.3f} ms")
    if args.hodoku_jar:
        print("HoDoKu level agreement by file: " + ", ".join(
            f"{name} {a / n * 100:.0f}% of {n}" for name, (n, a) in by_file.items()))


if __name__ == "__main__":
    main()
