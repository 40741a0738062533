#!/usr/bin/env python3
r"""Compares sudokud's ratings with the programs whose scales they follow.

HoDoKu (its batch solver, /bs) gives each puzzle a level (easy, medium, hard, unfair, extreme) and
a score; serate, Sukaku Explainer's batch rater, gives the Sudoku Explainer (SE) rating. This runs
both and `sudoku-client solve --rate` through a daemon on the same puzzles, then prints how often
the HoDoKu levels agree, the Spearman rank correlation of the SE ratings, and the time per puzzle
of each, side by side; then set by set (each FILE is a set): the HoDoKu levels that agree, the
median of sudokud's HoDoKu score over HoDoKu's and the levels the others went to; the SE ratings
equal to 0.1 and the mean absolute difference in each whole SE band (1.x, 2.x, ... by serate's
rating), and how often the whole "ER/EP/ED" triple is equal; and each program's time per
puzzle. Neither program is part of sudokud: build them
yourself (below; tests/bench/README.md, "Ratings") and pass their jars.

  compare_ratings.py --hodoku-jar hodoku.jar --se-jar SukakuExplainer.jar FILE...
  compare_ratings.py --hodoku-jar hodoku.jar --qqwing qqwing --fresh DIR [--count 150] [FILE...]

Each FILE holds one 81-character puzzle per line. --fresh DIR makes new sets in DIR first, other
ones each run (neither generator is seeded): --count puzzles of each HoDoKu level with HoDoKu's
generator (`/s /sl LEVEL`, which keeps the puzzles its solver rates LEVEL; at most --gen-cap
seconds a level) in DIR/hodoku_LEVEL.txt, and of each QQWing difficulty with `qqwing --generate`
in DIR/qqwing_DIFFICULTY.txt; DIR/generated.txt notes what ran. With --reuse the sets already in
DIR are taken back instead. --half even|odd keeps every other line of each file (the ratings were
fitted on the even lines of the reference samples; report the odd ones).

--save DIR keeps each program's answers there and --reuse takes them back, set by set, instead of
running the program again (the anchors take minutes to hours on hard puzzles). serate has no time
limit of its own: with --se-cap SECONDS each puzzle (of the --se-cap-file files, or of all) runs
in a JVM of its own under timeout(1), and a puzzle over the cap counts as --se-capped-as (e.g.
11.0 for a file of SE 11+ puzzles) or is left out. Its time is then serate's own (%e), or the
cap; without --se-cap it is the set's wall clock in one JVM less the JVM's start (run_serate).
sudokud's is the wall clock of `solve --rate` over each set sent --repeat times (20, or four
times as many again until the run takes a second longer) in one run, less that of the set sent
once, per puzzle added: the client's start and connection do not count, as neither anchor's JVM
start does; HoDoKu's is its own summary (/bs). Each anchor gives one rating, so sudokud is timed
against it doing that one too: `--rate-only hodoku` beside HoDoKu, `--rate-only se` beside
serate (the same numbers as `--rate`, each path walked alone).
--nested-from FILE (with --fresh DIR) makes one more set, DIR/nested.txt, of --nested-count
puzzles (40) that SE rates by its nested forcing chains (9.5 and up), which neither generator
makes: puzzles of FILE (the forum's hardest, SE 11 and up) in a random order, each with one to
four digits of its solution, chosen at random, added as clues, kept where sudokud rates them
9.5 or more (a few in ten are). serate takes seconds to minutes on each: give it --se-cap.
--disagreements FILE lists the puzzles whose HoDoKu level differs, with HoDoKu's solution path
(/vp) and sudokud's explanation counted by technique, and prints the HoDoKu techniques of those
paths that sudokud's did not use.

Building the anchors (Debian's OpenJDK 17; sources checked out in $A; the manifest notes the
commit, which the tables show) and the samples of tests/bench/README.md (every k-th line of each
file of ../shared/data):

  cd $A && find HoDoKu/src -name '*.java' > h.txt && mkdir -p h && javac --release 8 -nowarn \
    -encoding UTF-8 -d h @h.txt && (cd HoDoKu/src && find . -type f ! -name '*.java' \
    -exec cp --parents {} ../../h \;) && echo "Implementation-Version: $(git -C HoDoKu \
    rev-parse --short HEAD)" > h.mf && jar cfme hodoku.jar h.mf sudoku.Main -C h .
  cd $A && find SukakuExplainer/diuf -name '*.java' > s.txt && mkdir -p s && javac --release 8 \
    -nowarn -encoding ISO-8859-1 -d s @s.txt && echo "Implementation-Version: $(git -C \
    SukakuExplainer rev-parse --short HEAD)" > s.mf && jar cfm SukakuExplainer.jar s.mf -C s .
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
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]
QQWING_LEVELS = ["simple", "easy", "intermediate", "expert"]
SINGLES = {"Full House", "Naked Single", "Hidden Single"}


def read_puzzles(paths, half):
    """{file name: [puzzle, ...]}; with `half`, every other line of each file."""
    sets = {}
    for path in paths:
        with open(path) as f:
            lines = [line.strip() for line in f if len(line.strip()) == 81]
        if half == "even":
            lines = lines[0::2]
        elif half == "odd":
            lines = lines[1::2]
        sets.setdefault(os.path.basename(path), []).extend(lines)
    return sets


def write_file(puzzles):
    f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    f.write("".join(p + "\n" for p in puzzles))
    f.close()
    return f.name


def nice(command):
    """Anchors run at the lowest priority: they share the machine."""
    return ["nice", "-n", "19"] + command


def built_from(jar):
    """The commit a jar was built from, as the build commands above note it in its manifest."""
    with zipfile.ZipFile(jar) as z:
        for line in z.read("META-INF/MANIFEST.MF").decode().splitlines():
            if line.startswith("Implementation-Version:"):
                return line.split(":", 1)[1].strip()
    return "commit not noted"


def generate_hodoku(jar, level, count, cap):
    """Up to `count` new puzzles HoDoKu rates `level`, from its generator within `cap` seconds,
    and the command. `/s /sl N` makes puzzles until it reads 'q', printing "PUZZLE #Level"."""
    command = nice(["java", "-Xmx512m", "-jar", os.path.abspath(jar), "/c", "default", "/s",
                    "/sl", str(LEVELS.index(level)), "/o", "stdout"])
    generator = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, cwd=tempfile.gettempdir())
    timer = threading.Timer(cap, generator.kill)
    timer.start()
    puzzles = []
    for line in generator.stdout:
        fields = line.split()
        if len(fields) == 2 and len(fields[0]) == 81 and fields[1].lower() == "#" + level \
                and fields[0] not in puzzles:
            puzzles.append(fields[0])
            if len(puzzles) == count:
                break
    timer.cancel()
    generator.communicate("q\n")
    return puzzles, command


def generate_qqwing(qqwing, difficulty, count):
    """`count` new puzzles of QQWing's `difficulty` and the command."""
    command = nice([qqwing, "--generate", str(count), "--difficulty", difficulty, "--one-line"])
    puzzles = []
    while len(puzzles) < count:  # it may repeat one
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        puzzles += [p for p in out.split() if len(p) == 81 and p not in puzzles]
    return puzzles[:count], command


def make_fresh(args):
    """The paths of the --fresh sets: made now, or with --reuse taken back from DIR."""
    wanted = [("hodoku", level) for level in (LEVELS if args.hodoku_jar else [])] + \
        [("qqwing", level) for level in (QQWING_LEVELS if args.qqwing else [])]
    if not wanted:
        sys.exit("compare_ratings.py: --fresh makes sets with --hodoku-jar and/or --qqwing")
    paths = [os.path.join(args.fresh, f"{source}_{level}.txt") for source, level in wanted]
    if args.reuse and all(os.path.exists(path) for path in paths):
        return paths
    os.makedirs(args.fresh, exist_ok=True)
    notes = [f"made {time.strftime('%Y-%m-%d %H:%M:%S')} by compare_ratings.py --fresh"]
    for (source, level), path in zip(wanted, paths):
        start = time.monotonic()
        if source == "hodoku":
            puzzles, command = generate_hodoku(args.hodoku_jar, level, args.count, args.gen_cap)
        else:
            puzzles, command = generate_qqwing(args.qqwing, level, args.count)
        with open(path, "w") as f:
            f.write("".join(p + "\n" for p in puzzles))
        notes.append(f"{os.path.basename(path)}: {len(puzzles)} puzzles in "
                     f"{time.monotonic() - start:.0f} s: {' '.join(command)}")
        print(notes[-1], file=sys.stderr)
    with open(os.path.join(args.fresh, "generated.txt"), "w") as f:
        f.write("\n".join(notes) + "\n")
    return paths


def run_hodoku(jar, puzzles, path=False):
    """{puzzle: [level, score]}, with `path` [level, score, {technique: steps}] from its
    solution path (/vp); HoDoKu's own seconds per puzzle (its /bs summary line); its version."""
    results, ms, version = {}, 0.0, None
    if not puzzles:
        return results, ms, version
    file = write_file(puzzles)
    try:
        # HoDoKu reads every argument that starts with '/' as an option: the file goes by its
        # name, from its folder.
        out = subprocess.run(nice(["java", "-Xmx512m", "-jar", os.path.abspath(jar), "/c",
                                   "default"] + (["/vp"] if path else []) +
                                  ["/bs", os.path.basename(file), "/o", "stdout"]),
                             capture_output=True, text=True, check=True,
                             cwd=os.path.dirname(file)).stdout
    finally:
        os.unlink(file)
    puzzle = None
    for line in out.splitlines():
        fields = line.split()
        # "PUZZLE #7 Hard (1172)", then "bf" and the like when it needed brute force
        if len(fields) >= 4 and fields[1].startswith("#") and fields[3].startswith("("):
            puzzle = fields[0]
            results[puzzle] = [fields[2].lower(), int(fields[3].strip("()"))] + \
                ([{}] if path else [])
        elif path and puzzle and line.startswith("   ") and ":" in line:
            # "   XY-Chain: 7 7- r4c7 -3- r4c8 ... => r4c1<>7"
            technique = line.strip().split(":")[0]
            results[puzzle][2][technique] = results[puzzle][2].get(technique, 0) + 1
        elif line.startswith("Done!"):
            puzzle = None
        elif line.endswith("ms per puzzle"):
            ms = float(fields[0])
        elif line.startswith("HoDoKu - v"):  # "HoDoKu - v2.2.4 - Build 150"
            version = line.split(" - ")[1]
    return results, ms / 1000, version


def triple(text):
    """[ER, EP, ED] of serate's "%r/%p/%d"."""
    return [float(x) for x in text.split("/")]


def serate_seconds(text):
    """Seconds of serate's %e: "0.45s", "2m15s", "1h02m", "1d03h" (its getTimeString)."""
    match = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s?)?", text)
    if not match:
        raise ValueError(f"serate's time {text!r}")
    days, hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


def run_serate(jar, puzzles, cap):
    """{puzzle: [ER, EP, ED], or None over the cap}, serate's seconds per puzzle and its version.
    Without a cap the set runs in one JVM, and the time is its wall clock less that of a run of
    the first puzzle alone (the JVM's start), over the other puzzles: serate's %e counts in
    hundredths of a second, which is more than an easy puzzle takes. With a cap each puzzle
    runs in a JVM of its own (under timeout(1)), and the time is its %e, or the cap."""
    command = ["java", "-Xmx1g", "-cp", jar, "diuf.sudoku.test.serate", "--threads=1"]
    version = subprocess.run(nice(command + ["--version"]), capture_output=True,
                             text=True).stdout.strip()
    results, seconds = {}, 0.0
    if not puzzles:
        return results, 0.0, version
    if cap is None:
        def timed(some):
            path = write_file(some)
            try:
                start = time.monotonic()
                out = subprocess.run(nice(command + ["--format=%g %r/%p/%d %e", "--input=" + path,
                                                     "--output=-"]),
                                     capture_output=True, text=True, check=True).stdout
                return out, time.monotonic() - start
            finally:
                os.unlink(path)
        out, wall = timed(puzzles)
        for line in out.splitlines():
            puzzle, rating, elapsed = line.split()
            results[puzzle] = triple(rating)
            seconds += serate_seconds(elapsed)
        if len(puzzles) == 1:
            return results, seconds, version
        _, start_up = timed(puzzles[:1])
        return results, max(wall - start_up, 0.0) / (len(puzzles) - 1), version
    for puzzle in puzzles:
        done = subprocess.run(["timeout", str(cap)] + nice(command + ["--format=%r/%p/%d %e",
                                                                      puzzle]),
                              capture_output=True, text=True)
        fields = done.stdout.split()
        if len(fields) == 2:
            results[puzzle] = triple(fields[0])
            seconds += serate_seconds(fields[1])
        else:
            results[puzzle] = None
            seconds += cap
    return results, seconds / len(puzzles), version


# The client's wait for an answer: a batch of the hardest puzzles, a second or more each to rate
# on the daemon's one thread, outlasts its default 30 s.
PATIENT = ["--timeout", "60m"]


def solve_json(client, connect, puzzles, flags):
    """The JSON records of `sudoku-client solve` with `flags` over `puzzles`."""
    path = write_file(puzzles)
    try:
        out = subprocess.run([client, "solve", "--connect", connect, *flags, *PATIENT, "--format",
                              "json", "--no-progress", path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return [json.loads(line) for line in out.splitlines()]


def make_nested(args, connect):
    """The path of the --nested-from set (DIR/nested.txt): made now from --nested-from, or with
    --reuse taken back. Its making is noted in DIR/generated.txt."""
    path = os.path.join(args.fresh, "nested.txt")
    if args.reuse and os.path.exists(path):
        return path
    with open(args.nested_from) as f:
        sources = [line.strip()[:81] for line in f if len(line.strip()) >= 81]
    chooser = random.Random()  # a new choice each run
    chooser.shuffle(sources)
    kept, tried, start = [], 0, time.monotonic()
    for at in range(0, len(sources), 32):
        if len(kept) >= args.nested_count:
            break
        candidates = []
        for record in solve_json(args.client, connect, sources[at:at + 32], []):
            puzzle, solution = record["puzzle"], record.get("solution")
            if record["verdict"] != "solved" or not solution:
                continue
            blanks = [i for i, c in enumerate(puzzle) if c == "."]
            added = set(chooser.sample(blanks, chooser.randint(1, 4)))
            candidates.append("".join(solution[i] if i in added else c
                                      for i, c in enumerate(puzzle)))
        tried += len(candidates)
        for record in solve_json(args.client, connect, candidates,
                                 ["--unique", "--rate-only", "se"]):
            if record["verdict"] == "solved" and record["rating"]["se"] >= 9.5:
                kept.append(record["puzzle"])
    kept = kept[:args.nested_count]
    os.makedirs(args.fresh, exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(p + "\n" for p in kept))
    note = (f"nested.txt: {len(kept)} puzzles in {time.monotonic() - start:.0f} s, of {tried} "
            f"made from {args.nested_from} (1-4 solution digits added, sudokud's SE >= 9.5)")
    print(note, file=sys.stderr)
    with open(os.path.join(args.fresh, "generated.txt"), "a") as f:
        f.write(note + "\n")
    return path


def start_daemon(daemon):
    """A sudokud on one thread and the address it listens on (its log names the port)."""
    server = subprocess.Popen([daemon, "--listen", "127.0.0.1:0", "--threads", "1"],
                              stderr=subprocess.PIPE, text=True)
    for line in server.stderr:
        if "listening on" in line:
            # the rest of its log is read away: a full pipe would stall it
            threading.Thread(target=server.stderr.read, daemon=True).start()
            return server, line.split("listening on")[1].split()[0].strip(",")
    sys.exit("compare_ratings.py: " + daemon + " did not start")


# What each timing of sudokud asks for: both ratings (`--rate`), and each path alone as the
# anchor that gives that rating is timed beside it.
RATE_FLAGS = {"both": ["--rate"], "hodoku": ["--rate-only", "hodoku"], "se": ["--rate-only", "se"]}


def run_sudokud(client, connect, puzzles, repeat, rate="both"):
    """{puzzle: [hodoku level, score, SE, EP, ED]} (with `rate` "both"; else {}) and the seconds
    per puzzle of `sudoku-client solve` with RATE_FLAGS[rate] (wall clock), the daemon rating in
    batches as it does for its users: the set is sent once, then `repeat` times in one run (four
    times as many again until that run takes a second longer), and the difference of the two
    runs is divided by the puzzles it adds, so that the client's start and connection (some
    50 ms, most of the time of 800 easy puzzles) do not count, as neither anchor's JVM start
    does."""

    def timed(times):
        path = write_file(puzzles * times)
        try:
            start = time.monotonic()
            out = subprocess.run([client, "solve", "--connect", connect, *RATE_FLAGS[rate],
                                  *PATIENT, "--format", "json", "--no-progress", path],
                                 capture_output=True, text=True, check=True).stdout
            return out, time.monotonic() - start
        finally:
            os.unlink(path)

    out, once = timed(1)
    # At least a second more than the set sent once, that the difference outweighs the noise
    # of a start: an easy set of 40 sent 20 times adds some 10 ms.
    times, elapsed = repeat, once
    while times > 1:
        _, elapsed = timed(times)
        if elapsed - once >= 1.0 or len(puzzles) * times >= 1_000_000:
            break
        times *= 4
    results = {}
    for line in out.splitlines() if rate == "both" else []:
        record = json.loads(line)
        rating = record["rating"]  # proto/README.md, "Results as JSON"
        results[record["puzzle"]] = [rating["hodoku_level"], rating["hodoku_score"], rating["se"],
                                     rating["se_pearl"], rating["se_diamond"]]
    if times > 1:
        return results, max(elapsed - once, 1e-9) / max(len(puzzles) * (times - 1), 1)
    return results, once / max(len(puzzles), 1)


def explain_sudokud(client, connect, puzzle):
    """{HoDoKu's name of a technique: steps} of sudokud's explanation of `puzzle`."""
    out = subprocess.run([client, "explain", "--connect", connect, "--json", puzzle],
                         capture_output=True, text=True).stdout
    counts = {}
    for step in json.loads(out)["steps"]:
        counts[step["hodoku_name"]] = counts.get(step["hodoku_name"], 0) + 1
    return counts


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


def saved(args, name, sets, compute):
    """A program's answers, its seconds per puzzle in each set and its version: with --reuse
    taken back from --save DIR for each set whose puzzles it holds, the others computed
    (compute(puzzles) -> answers, seconds per puzzle, version); with --save, kept there."""
    path = os.path.join(args.save, name + ".json") if args.save else None
    data = {"results": {}, "per_set": {}, "version": None}
    if path and args.reuse and os.path.exists(path):
        with open(path) as f:
            data.update(json.load(f))
        if "per_puzzle" in data and not data["per_set"]:  # saved before the sets (HoDoKu's ms)
            data["per_set"] = {s: data["per_puzzle"] / (1000 if name == "hodoku" else 1)
                               for s in sets}
    results, per_set = {}, {}
    for set_name, puzzles in sets.items():
        if set_name in data["per_set"] and all(p in data["results"] for p in puzzles):
            results.update((p, data["results"][p]) for p in puzzles)
            per_set[set_name] = data["per_set"][set_name]
            continue
        more, per_set[set_name], version = compute(puzzles)
        results.update(more)
        data["results"].update(more)
        data["per_set"][set_name] = per_set[set_name]
        data["version"] = version or data["version"]
    if path:
        os.makedirs(args.save, exist_ok=True)
        with open(path, "w") as f:
            json.dump(data, f)
    return results, per_set, data["version"]


def mean_time(sets, per_set):
    return sum(per_set[s] * len(p) for s, p in sets.items()) / max(sum(map(len, sets.values())), 1)


def table(header, rows, text=()):
    """A Markdown table: the first column and those named in `text` to the left."""
    print("| " + " | ".join(header) + " |")
    print("|" + "".join("---|" if i == 0 or h in text else "---:|"
                        for i, h in enumerate(header)))
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    print()


def hodoku_tables(sets, hodoku, ours):
    """By set: the levels that agree, the median score ratio, where the others went."""
    rows, everything = [], []
    for name, puzzles in list(sets.items()) + [("all", sum(sets.values(), []))]:
        common = [p for p in puzzles if p in hodoku and p in ours]
        agree = sum(hodoku[p][0] == ours[p][0] for p in common)
        ratios = [ours[p][1] / hodoku[p][1] for p in common if hodoku[p][1] > 0]
        went = {}
        for p in common:
            if hodoku[p][0] != ours[p][0]:
                key = f"{hodoku[p][0]}→{ours[p][0]}"
                went[key] = went.get(key, 0) + 1
        rows.append([name, len(common), agree, f"{agree / max(len(common), 1) * 100:.1f}%",
                     f"{statistics.median(ratios):.2f}" if ratios else "-",
                     ", ".join(f"{k} {n}" for k, n in sorted(went.items(),
                                                             key=lambda kv: -kv[1])) or "-"])
    print("HoDoKu level by set (disagreements: HoDoKu's level → sudokud's)\n")
    table(["set", "puzzles", "agree", "%", "median score sudokud/HoDoKu", "disagreements"], rows,
          text=["disagreements"])


def serate_tables(sets, se, ours, capped_as):
    """By set: the ratings equal to 0.1, the ER/EP/ED triples equal, and the mean |difference|
    in each SE band of serate's."""
    def value(p):
        # saved before EP and ED were asked for: a number, not [ER, EP, ED]
        rating = se[p][0] if isinstance(se[p], list) else se[p]
        return rating if rating is not None else capped_as

    def triple_equal(p):
        return all(abs(a - b) < 0.05 for a, b in zip(ours[p][2:5], se[p]))
    bands = sorted({int(value(p)) for p in se if value(p) is not None})
    rows = []
    for name, puzzles in list(sets.items()) + [("all", sum(sets.values(), []))]:
        rated = [p for p in puzzles if p in se and p in ours and value(p) is not None]
        over = sum(1 for p in puzzles if p in se and se[p] is None)
        exact = sum(abs(ours[p][2] - value(p)) < 0.05 for p in rated)
        triples = [p for p in rated if isinstance(se[p], list)]
        same = sum(triple_equal(p) for p in triples)
        row = [name, len(rated), over, exact, f"{exact / max(len(rated), 1) * 100:.1f}%",
               f"{same / len(triples) * 100:.1f}%" if triples else "-"]
        for band in bands:
            diffs = [abs(ours[p][2] - value(p)) for p in rated if int(value(p)) == band]
            row.append(f"{sum(diffs) / len(diffs):.2f} ({len(diffs)})" if diffs else "")
        rows.append(row)
    print("SE rating by set: equal to 0.1, the whole ER/EP/ED equal, and the mean |sudokud - "
          "serate| (puzzles) in each whole SE band of serate's rating\n")
    table(["set", "rated", "over cap", "equal", "%", "ER/EP/ED %"] + [f"{b}.x" for b in bands],
          rows)


def time_table(sets, ours_times, anchors):
    """By set: sudokud's time per puzzle rating both ways, then for each anchor sudokud's
    rating as that anchor does (its path alone), the anchor's, and their ratio."""
    header = ["set", "sudokud --rate ms"]
    for name, _, unit, _, rate in anchors:
        header += [f"sudokud --rate-only {rate} ms", f"{name} {'ms' if unit == 1000 else 's'}",
                   f"{name}/sudokud"]
    rows = []
    for name in list(sets) + ["all"]:
        def at(per_set):
            return mean_time(sets, per_set) if name == "all" else per_set[name]
        row = [name, f"{at(ours_times['both']) * 1000:.3f}"]
        for _, per_set, unit, _, rate in anchors:
            ours, theirs = at(ours_times[rate]), at(per_set)
            row += [f"{ours * 1000:.3f}",
                    f"{theirs * unit:.2f}" if unit == 1000 else f"{theirs:.3f}",
                    f"{theirs / ours:,.0f}x"]
        rows.append(row)
    print("Time per puzzle by set (one thread each; sudokud's is `solve --rate` or `--rate-only` "
          "through `sudokud --threads 1`, wall clock, over the set sent --repeat times in one run, "
          "less the set sent once)\n")
    table(header, rows)


def disagreements(args, sets, hodoku, ours, connect):
    """Lists the puzzles whose HoDoKu level differs in --disagreements FILE, with both solution
    paths counted by technique; prints the HoDoKu techniques sudokud's paths did not use."""
    differ = {s: [p for p in ps if p in hodoku and p in ours and hodoku[p][0] != ours[p][0]]
              for s, ps in sets.items()}
    paths, _, _ = saved(args, "hodoku_paths", differ,
                        lambda puzzles: run_hodoku(args.hodoku_jar, puzzles, path=True))
    # The names sudokud gives its steps, over every puzzle: those it never gives it lacks.
    vocabulary = set()
    explained = {}
    for puzzles in sets.values():
        for p in puzzles:
            explained[p] = explain_sudokud(args.client, connect, p)
            vocabulary.update(explained[p])
    missing, ways = {"harder": {}, "easier": {}}, {"harder": 0, "easier": 0}
    lines = []
    for name, puzzles in differ.items():
        for p in puzzles:
            theirs = {t: n for t, n in paths[p][2].items() if t not in SINGLES}
            mine = {t: n for t, n in explained[p].items() if t not in SINGLES}
            unused = sorted(t for t in theirs if t not in mine)
            way = "harder" if LEVELS.index(ours[p][0]) > LEVELS.index(hodoku[p][0]) else "easier"
            ways[way] += 1
            for t in unused:
                missing[way][t] = missing[way].get(t, 0) + 1
            lines += [f"{p} {name} HoDoKu {hodoku[p][0]} ({hodoku[p][1]}) "
                      f"sudokud {ours[p][0]} ({ours[p][1]})",
                      "  HoDoKu:  " + ", ".join(f"{t} {n}" for t, n in theirs.items()),
                      "  sudokud: " + ", ".join(f"{t} {n}" for t, n in mine.items()),
                      "  HoDoKu's, not in sudokud's path: " + (", ".join(
                          t + ("" if t in vocabulary else " (never sudokud's)")
                          for t in unused) or "-")]
    summary = [f"{sum(map(len, differ.values()))} puzzles of {len(hodoku)} differ in HoDoKu "
               "level; HoDoKu's techniques that sudokud's path on the same puzzle did not use, "
               "by puzzles (* sudokud never gives that name on these sets):"]
    for way, counts in missing.items():
        summary.append(f"  sudokud {way} ({ways[way]}): " + ", ".join(
            f"{t}{'' if t in vocabulary else '*'} {c}"
            for t, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))))
    with open(args.disagreements, "w") as f:
        f.write("\n".join(summary + [""] + lines) + "\n")
    print("\n".join(summary) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("--hodoku-jar", help="HoDoKu's jar (skip HoDoKu without it)")
    parser.add_argument("--se-jar", help="SukakuExplainer's jar (skip serate without it)")
    parser.add_argument("--client", default="build/client/sudoku-client")
    parser.add_argument("--daemon", default="build/daemon/sudokud")
    parser.add_argument("--connect", help="a running daemon's HOST:PORT")
    parser.add_argument("--half", choices=["all", "even", "odd"], default="all")
    parser.add_argument("--repeat", type=int, default=20,
                        help="times each set goes to sudokud in one run, for its time (20)")
    parser.add_argument("--fresh", metavar="DIR", help="make new sets in DIR first")
    parser.add_argument("--count", type=int, default=150, help="puzzles a fresh set (150)")
    parser.add_argument("--qqwing", metavar="QQWING", help="qqwing, for fresh QQWing sets")
    parser.add_argument("--gen-cap", type=float, default=900, metavar="SECONDS",
                        help="seconds for HoDoKu's generator a level (900)")
    parser.add_argument("--se-cap", type=float, help="seconds per puzzle for serate")
    parser.add_argument("--se-cap-file", action="append", default=[], metavar="FILE",
                        help="a FILE whose puzzles serate rates under --se-cap (repeatable; "
                             "by default all of them)")
    parser.add_argument("--se-capped-as", type=float, help="SE of a puzzle over the cap")
    parser.add_argument("--save", metavar="DIR", help="keep each program's answers in DIR")
    parser.add_argument("--reuse", action="store_true", help="take saved answers back")
    parser.add_argument("--nested-from", metavar="FILE",
                        help="with --fresh: make DIR/nested.txt from FILE's puzzles (SE 9.5+)")
    parser.add_argument("--nested-count", type=int, default=40,
                        help="puzzles of the nested set (40)")
    parser.add_argument("--disagreements", metavar="FILE",
                        help="list the puzzles whose HoDoKu level differs (with --hodoku-jar)")
    args = parser.parse_args()
    if args.nested_from and not args.fresh:
        sys.exit("compare_ratings.py: --nested-from makes DIR/nested.txt: give --fresh DIR")

    server, connect = start_daemon(args.daemon) if args.connect is None else (None, args.connect)
    try:
        files = (make_fresh(args) if args.fresh and (args.hodoku_jar or args.qqwing) else [])
        if args.nested_from:
            files.append(make_nested(args, connect))
        files += args.files
        sets = read_puzzles(files, args.half)
        empty = [name for name, puzzles in sets.items() if not puzzles]
        if empty:
            sys.exit("compare_ratings.py: no 81-character puzzles in " + ", ".join(empty))
        texts = sum(sets.values(), [])
        ours, ours_times = {}, {rate: {} for rate in RATE_FLAGS}
        for name, puzzles in sets.items():
            for rate in RATE_FLAGS:
                if rate != "both" and not (args.hodoku_jar if rate == "hodoku" else args.se_jar):
                    continue
                more, ours_times[rate][name] = run_sudokud(args.client, connect, puzzles,
                                                           args.repeat, rate)
                ours.update(more)
        ours_time = ours_times["both"]
        version = subprocess.run([args.client, "--version"], capture_output=True,
                                 text=True).stdout.strip()
        print(f"{len(texts)} puzzles (half: {args.half}) in {len(sets)} sets: "
              f"{', '.join(files)}; {version}\n")
        notes = os.path.join(args.fresh or "", "generated.txt")
        if args.fresh and os.path.exists(notes):
            with open(notes) as f:
                print("Fresh sets, " + f.read().strip().replace("\n", "\n  ") + "\n")
        anchors, rows = [], []
        if args.hodoku_jar:
            hodoku, hodoku_time, hodoku_version = saved(
                args, "hodoku", sets, lambda puzzles: run_hodoku(args.hodoku_jar, puzzles))
            anchors.append(("HoDoKu", hodoku_time, 1000,
                            f"HoDoKu {hodoku_version} ({built_from(args.hodoku_jar)})", "hodoku"))
            common = [p for p in texts if p in hodoku and p in ours]
            agree = sum(hodoku[p][0] == ours[p][0] for p in common)
            rows.append(("HoDoKu", "reference", "", mean_time(sets, hodoku_time),
                         agree / max(len(common), 1), "hodoku"))
        if args.se_jar:
            cap_files = {os.path.basename(f) for f in args.se_cap_file or files}
            capped = {p for name in cap_files for p in sets.get(name, [])}
            se, se_time, se_version = saved(args, "serate", sets, lambda puzzles: run_serate(
                args.se_jar, puzzles,
                args.se_cap if args.se_cap and any(p in capped for p in puzzles) else None))
            anchors.append(("serate", se_time, 1000,
                            f"serate {se_version} ({built_from(args.se_jar)})", "se"))
            common = [p for p in texts if p in se and p in ours and
                      (se[p] is not None or args.se_capped_as is not None)]
            rho = spearman([(se[p][0] if isinstance(se[p], list) else se[p])
                            if se[p] is not None else args.se_capped_as for p in common],
                           [ours[p][2] for p in common])
            rows.append(("serate", "", "reference", mean_time(sets, se_time), rho, "se"))
        if anchors:
            print("Anchors: " + "; ".join(a[3] for a in anchors) + "\n")
        ours_all = mean_time(sets, ours_time)
        hodoku_text = f"{rows[0][4] * 100:.1f}%" if args.hodoku_jar else "-"
        se_text = f"{rows[-1][4]:.3f}" if args.se_jar else "-"
        # Each anchor against sudokud rating as it does (--rate-only its path); sudokud's own
        # row is --rate, both paths.
        table(["program", "HoDoKu level", "SE Spearman", "time/puzzle",
               "sudokud faster (--rate-only)"],
              [[name, level, rho, f"{seconds * 1000:.2f} ms",
                f"{seconds / mean_time(sets, ours_times[rate]):,.0f}x"]
               for name, level, rho, seconds, _, rate in rows] +
              [["sudokud --rate", hodoku_text, se_text, f"{ours_all * 1000:.3f} ms", ""]])
        if args.hodoku_jar:
            hodoku_tables(sets, hodoku, ours)
        if args.se_jar:
            serate_tables(sets, se, ours, args.se_capped_as)
        time_table(sets, ours_times, anchors)
        if args.disagreements and args.hodoku_jar:
            disagreements(args, sets, hodoku, ours, connect)
    finally:
        if server is not None:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
