#!/usr/bin/env python3
"""Checks that every default and limit the documentation states is the program's.

usage: documented_defaults_test.py SOURCE_DIR SUDOKUD SUDOKU_CLIENT SUDOKU_BENCH [--fixture DIR]

The programs are the truth: the defaults their --help prints (sudokud, each sudoku-client
command, sudoku-bench), which each takes from the code, and the constants the code defines
(kDefaultMaxBatch, kMaxSolutionLimit, ...). The documents are DOCUMENTS below: the man pages,
the READMEs, the comments of proto/sudoku.proto and the deploy files. A document states a flag's
default
  - in a man page, in the flag's entry: ".BI \\-\\-max\\-batch N" then "(default 65536)", or
    "Output: line (default)";
  - in a Markdown table with a "default" column, on the flag's row;
  - in deploy/sudokud.default, as "#   --max-batch 65536" in its list of defaults;
  - in prose: "--max-connections, default 16384", "--drain-timeout (30s)", "65536 puzzles (the
    daemon's default --max-batch)", "exceeds --max-frame-bytes 16777216" (a fault's message);
a constant's value as "16 MiB (... kDefaultMaxFrameBytes)" or "kDefaultFirstConnectFor (5s)",
its place as "kMaxSolutionLimit in proto/codec.h" or in the table row of the file that owns it,
and the limits of STATEMENTS in words of their own. A flag's default must be spelled as --help
spells it (30s, not 30 s or 30000ms); a constant's value may take a unit (16 MiB, 5s).
Each difference is one line naming the file, the line, the flag and both values, e.g.
"deploy/man/sudokud.8 line 173: --drain-timeout default 20s, sudokud --help says 30s".
Exits 0 when every statement agrees, 1 otherwise. With --fixture, checks the documents under DIR
(at the paths of the real ones) and exits 0 when the differences found are exactly the lines of
DIR/expected.txt: the check's own test.
"""
import difflib
import os
import re
import subprocess
import sys

# The programs whose --help is read: each sudoku-client command has flags of its own.
SUDOKUD = "sudokud"
CLIENT_COMMANDS = ["sudoku-client solve", "sudoku-client explain", "sudoku-client generate",
                   "sudoku-client bench"]
BENCH = "sudoku-bench"
EVERY_PROGRAM = [SUDOKUD] + CLIENT_COMMANDS + [BENCH]

# The documents checked, relative to SOURCE_DIR, with the programs their prose is about: a flag
# more than one program has (--threads, --batch) is compared with these first.
DOCUMENTS = {
    "README.md": EVERY_PROGRAM,
    "client/README.md": CLIENT_COMMANDS,
    "proto/README.md": [SUDOKUD],
    "proto/sudoku.proto": [SUDOKUD],
    "deploy/README.md": [SUDOKUD],
    "daemon/web/README.md": [SUDOKUD],
    "tests/README.md": EVERY_PROGRAM,
    "tests/bench/README.md": EVERY_PROGRAM,
    "deploy/man/sudokud.8": [SUDOKUD],
    "deploy/man/sudoku-client.1": CLIENT_COMMANDS,
    "deploy/man/sudoku-bench.1": [BENCH],
    "deploy/sudokud.default": [SUDOKUD],
    "deploy/sudokud.service": [SUDOKUD],
    "deploy/sudokud@.service": [SUDOKUD],
    "deploy/sudokud.socket": [SUDOKUD],
    "deploy/kubernetes.yaml": [SUDOKUD],
    "deploy/Containerfile": [SUDOKUD],
    "deploy/haproxy.cfg": [SUDOKUD],
}

# Limits stated without their constant's name beside them: in the document, the pattern's group
# is the constant's value. Each must be found (else the wording changed: update it here).
STATEMENTS = [
    ("proto/sudoku.proto", r"a solution_limit above (\d[\d,]*\d)", "kMaxSolutionLimit"),
    ("proto/sudoku.proto", r"or (\d+) packed\)", "kPackedPuzzleBytes"),
    ("proto/sudoku.proto", r"not a multiple of (\d+)", "kPackedPuzzleBytes"),
    ("proto/sudoku.proto", r"would pass ([\d,]+) branches", "kMaxTrialBranches"),
    ("proto/sudoku.proto", r"branches or ([\d,]+) links", "kMaxTrialLinks"),
    ("proto/README.md", r"packed_puzzles, (\d+) bytes", "kPackedPuzzleBytes"),
    ("proto/README.md", r"accept frames of (\d+ MiB)", "kDefaultMaxFrameBytes"),
    ("client/README.md", r"asks for at most (\d+) per request", "kRequestPuzzles"),
    ("deploy/man/sudokud.8", r"at most (\d+), its default without a limit", "kMaxMemoryCap"),
    ("deploy/man/sudokud.8", r"never less than ([\d,]+) puzzles", "kMinShare"),
    ("README.md", r"never below ([\d,]+) puzzles", "kMinShare"),
    ("tests/README.md", r"never less than ([\d,]+) puzzles", "kMinShare"),
]

# Where the code's constants are looked for: the product's sources, not the tests'.
CODE_DIRS = ["proto", "daemon", "client", "solver"]

# A stated value: a number, a duration or an address ("65536", "30s", "127.0.0.1:9810"), and
# the unit a reader may have put after a space ("30 s", "16 MiB"), kept so that it is reported.
UNIT = r"(?: (?:ms|s|m|h|KiB|MiB|GiB|bytes)\b)?"
VALUE = r"\d[\w.:]*\w" + UNIT + r"|\d" + UNIT
FLAG = r"--([a-z][a-z0-9-]*[a-z0-9])"
DURATION = re.compile(r"\d+(?:\.\d+)?(?:ms|s|m|h)")

# ---- the programs ----


def stated_default(text):
    """Where a flag's description states its default, the value its group 1 holds: "(default
    30s)", "default: off", "output: line (default), grid".
    """
    return (re.search(r"\bdefault:? (" + VALUE + r"|off)\b", text) or
            re.search(r"(?:^|: )([a-z]+) \(default[):]", text))


def help_defaults(help_text):
    """{flag: default} from a --help text: boost's "(=65536)", or "default 30s" in the text."""
    entries = []
    for line in help_text.splitlines():
        # An option starts two spaces in; its description's lines go on far deeper (where a
        # line may begin with another flag's name).
        option = re.match(r"  (?:-\w \[ )?--([a-z][a-z0-9-]*)", line)
        if option:
            entries.append([option.group(1), line])
        elif entries and line.startswith("   "):
            entries[-1][1] += " " + line.strip()
        elif entries:
            entries.append([None, ""])
    defaults = {}
    for flag, text in entries:
        if flag is None:
            continue
        boost = re.search(r"\(=([^)]*)\)", text)
        stated = stated_default(text)
        if boost:
            defaults[flag] = boost.group(1)
        elif stated:
            defaults[flag] = stated.group(1)
        else:
            defaults.setdefault(flag, None)
    return defaults


def program_defaults(sudokud, client, bench):
    """{program: {flag: default or None}} for every program and client command."""
    commands = {SUDOKUD: [sudokud], BENCH: [bench]}
    for command in CLIENT_COMMANDS:
        commands[command] = [client, command.split()[1]]
    programs = {}
    for name, argv in commands.items():
        run = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30)
        if run.returncode != 0:
            sys.exit(f"FAIL: {name} --help exited {run.returncode}: {run.stderr.strip()}")
        programs[name] = help_defaults(run.stdout)
        if len(programs[name]) < 3:
            sys.exit(f"FAIL: {name} --help lists {len(programs[name])} options:\n{run.stdout}")
    return programs


# ---- the code's constants ----


def evaluate(expression):
    """The value of a constant's initializer: 65536, 16 << 20, uint64_t{4} << 30, 1000000."""
    expression = re.sub(r"\b(?:u?int\d+_t|size_t)\{(\d+)\}", r"\1", expression)
    expression = re.sub(r"(\d)(?:u|U|l|L|ull|ULL)+\b", r"\1", expression)
    if not re.fullmatch(r"[\d\s<>*+()-]+", expression):
        return None
    return eval(expression, {"__builtins__": {}})  # digits and operators only, as checked above


def code_constants(source):
    """{name: (value, path)} for every integer, duration and text constant of the product."""
    definition = re.compile(
        r"constexpr\s+([\w:<>]+)\s+(k[A-Z]\w*)\s*(?:=\s*([^;]+);|\{([^}]*)\};)")
    constants = {}
    for directory in CODE_DIRS:
        for root, _, files in os.walk(os.path.join(source, directory)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for match in definition.finditer(text):
                    kind, constant = match.group(1), match.group(2)
                    initializer = (match.group(3) or match.group(4) or "").strip()
                    if "milliseconds" in kind or "seconds" in kind:
                        number = evaluate(initializer)
                        if number is None:
                            continue
                        value = ("ms", number if "milli" in kind else number * 1000)
                    elif "string_view" in kind and initializer.startswith('"'):
                        value = ("text", initializer.strip('"'))
                    else:
                        number = evaluate(initializer)
                        if number is None:
                            continue
                        value = ("number", number)
                    # A name defined twice with different values is not one constant.
                    relative = os.path.relpath(path, source)
                    if constant in constants and constants[constant][0] != value:
                        constants[constant] = (None, relative)
                    else:
                        constants.setdefault(constant, (value, relative))
    return constants


def as_value(text, kind):
    """A stated value read as a constant of `kind` would hold it; None if it cannot be."""
    text = text.replace(",", "")
    if kind == "text":
        return text
    match = re.fullmatch(r"(\d+(?:\.\d+)?) ?(ms|s|m|h|KiB|MiB|GiB|bytes)?", text)
    if not match:
        return None
    number, unit = float(match.group(1)), match.group(2)
    if kind == "ms":
        scale = {"ms": 1, "s": 1000, "m": 60000, "h": 3600000, None: 1000}.get(unit)
    else:
        scale = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "bytes": 1, None: 1}.get(unit)
    return None if scale is None else number * scale


def constant_text(value):
    kind, number = value
    if kind == "text":
        return number
    if kind == "ms":
        return f"{number // 1000}s" if number % 1000 == 0 else f"{number}ms"
    return str(number)


# ---- the documents ----


class Document:
    """A document as a reader reads it: markup and comment markers gone, each line kept."""

    def __init__(self, path, raw, lines):
        self.path = path
        self.raw = raw  # the file's lines as written
        self.lines = lines  # (line number, text as read)
        # One text for statements that span lines, with where each line starts in it.
        self.text = ""
        self.starts = []
        for number, line in lines:
            self.starts.append((len(self.text), number))
            self.text += line + " "

    def line_of(self, offset):
        number = self.starts[0][1]
        for start, line in self.starts:
            if start > offset:
                break
            number = line
        return number


def man_text(line):
    """A man page line as it reads: font macros and escapes gone, quotes dropped."""
    if line.startswith('.\\"'):
        return None
    line = line.replace("\\-", "-").replace("\\&", "").replace("\\(em", "-")
    line = re.sub(r"\\f[BIRP]", "", line)
    macro = re.match(r"\.(B|I|BI|BR|IR|RB|RI|IB)\s+(.*)", line)
    if macro:
        words = [quoted or bare for quoted, bare in re.findall(r'"([^"]*)"|(\S+)', macro.group(2))]
        # .B and .I set their words with spaces; .BR and the like alternate fonts without.
        return (" " if len(macro.group(1)) == 1 else "").join(words)
    if line.startswith("."):
        return ""
    return line


def read_document(path, display):
    with open(path, encoding="utf-8") as f:
        raw = f.read().splitlines()
    lines = []
    for number, line in enumerate(raw, 1):
        if re.search(r"\.[0-9]$", path):
            text = man_text(line)
            if text is None:
                continue
        elif path.endswith(".md"):
            text = line.replace("`", "").replace("**", "")
        else:
            text = re.sub(r"^\s*(?://|#)\s?", "", line)
        lines.append((number, text))
    return Document(display, raw, lines)


class Checker:
    def __init__(self, programs, constants):
        self.programs = programs
        self.constants = constants
        self.failures = []
        self.checked = 0

    def fail(self, document, line, message):
        where = document.path if line is None else f"{document.path} line {line}"
        self.failures.append(f"{where}: {message}")

    def flag_default(self, document, line, flag, stated, context, every=False):
        """A flag's default as `document` states it at `line`, against the programs of `context`
        that have the flag (or, none having it, any that has): one of them must agree, or with
        `every` (a man page's section for several commands) each one.
        """
        having = [p for p in context if flag in self.programs[p]]
        if not having:
            having = [p for p in EVERY_PROGRAM if flag in self.programs[p]]
        if not having:
            return  # another program's flag (podman's --stop-timeout, a test script's)
        self.checked += 1
        defaults = [(p, self.programs[p][flag]) for p in having]
        # "off" where a program states no value is no difference.
        agree = [default == stated or (stated == "off" and default is None)
                 for _, default in defaults]
        if all(agree) if every else any(agree):
            return
        says = "; ".join(
            f"{p} --help says {default}" if default is not None
            else f"{p} --help states no default"
            for (p, default), agreed in zip(defaults, agree) if not agreed)
        self.fail(document, line, f"--{flag} default {stated}, {says}")

    def man_entries(self, document, context_of_section):
        """Each .TP entry of a man page: its flag, and the first default its text states."""
        commands = context_of_section(None)
        entry = None  # [flag, body lines], from the line after the entry's tag

        def finish():
            if entry is None:
                return
            flag, body = entry
            # The body as one text, so that "default" at a line's end still finds its value.
            text, starts = "", []
            for number, line in body:
                starts.append((len(text), number))
                text += line + " "
            stated = stated_default(text)
            if stated:
                line = max(n for start, n in starts if start <= stated.start())
                self.flag_default(document, line, flag, stated.group(1), commands, every=True)

        after_tp = False
        for number, text in document.lines:
            raw = document.raw[number - 1]
            if raw.startswith((".TP", ".SS", ".SH")):
                finish()
                entry = None
                after_tp = raw.startswith(".TP")
                if not after_tp:
                    commands = context_of_section(raw)
                continue
            if after_tp:
                after_tp = False
                flags = re.findall(FLAG, text)
                # ".BR \-h ", " \-\-help": the long name.
                entry = [flags[-1], []] if flags else None
                continue
            if entry is not None:
                entry[1].append((number, text))
        finish()

    def tables(self, document, context):
        """Markdown tables with a "default" column: the flags of a row, and that cell."""
        column = None
        for number, text in document.lines:
            if not text.startswith("|"):
                column = None
                continue
            cells = [c.strip() for c in text.strip().strip("|").split("|")]
            if column is None:
                column = next((i for i, c in enumerate(cells) if c.lower() == "default"), -1)
                continue
            if column < 1 or column >= len(cells) or set(cells[0]) <= set("-: "):
                continue
            stated = re.match(r"(" + VALUE + r"|off)\b", cells[column])
            if not stated:
                continue
            for flag in re.findall(FLAG, cells[0]):
                self.flag_default(document, number, flag, stated.group(1), context)

    def settings_list(self, document, context):
        """deploy/sudokud.default's list of defaults: "#   --max-batch 65536   why"."""
        for number, raw in enumerate(document.raw, 1):
            listed = re.match(r"#\s{2,}" + FLAG + r" (\S+)", raw)
            if listed and re.match(VALUE, listed.group(2)):
                self.flag_default(document, number, listed.group(1), listed.group(2), context)

    def prose(self, document, context):
        """Defaults stated in sentences, wherever they are."""
        text = document.text
        patterns = [
            # "--max-connections, default 16384", "(--timeout, default 30s)"
            FLAG + r"(?: [A-Z][A-Z:\[\]]*)?,? \(?default:? (" + VALUE + r")",
            # "exceeds --max-frame-bytes 16777216": a fault's message, at the default
            r"exceeds " + FLAG + r" (" + VALUE + r")",
        ]
        found = []
        for pattern in patterns:
            for match in re.finditer(pattern, text):
                found.append((match.start(), match.group(1), match.group(2)))
        # "65536 puzzles (the daemon's default --max-batch", "at most 65536: sudokud's default
        # --max-batch"
        owner = r"(?:the daemon's |sudokud's |its )?"
        for match in re.finditer(r"(?<![\w.,])(" + VALUE + r")(?: [a-z]+){0,3}(?: \(|: )" +
                                 owner + r"default " + FLAG, text):
            found.append((match.start(), match.group(2), match.group(1)))
        # "--drain-timeout (30s)": a duration flag's value in brackets after it, unless a
        # multiple of it ("twice --timeout (60s)").
        for match in re.finditer(r"(\w+ )?" + FLAG + r" \((?:both )?(" + VALUE + r")\)", text):
            if match.group(1) in ("twice ", "half "):
                continue
            flag = match.group(2)
            defaults = [self.programs[p].get(flag) for p in EVERY_PROGRAM]
            if any(d and DURATION.fullmatch(d) for d in defaults):
                found.append((match.start(2) - 2, flag, match.group(3)))
        for offset, flag, stated in sorted(set(found)):
            self.flag_default(document, document.line_of(offset), flag, stated, context)

    def constant_statements(self, document):
        """A constant's value beside its name, and the file it names for it."""
        text = document.text
        for match in re.finditer(r"\b(k[A-Z]\w*)\b", text):
            name = match.group(1)
            if name not in self.constants:
                continue
            value, home = self.constants[name]
            line = document.line_of(match.start())
            # "kDefaultFirstConnectFor (5s)"
            after = re.match(r"\)? \((" + VALUE + r")\)", text[match.end():])
            # "16 MiB (sudoku-client does, proto/framing.h kDefaultMaxFrameBytes)", "at most
            # 1000000 (kMaxSolutionLimit in"
            before = re.search(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|" + VALUE + r")(?: [a-z]+){0,3} "
                               r"\([^()]*$",
                               text[max(0, match.start() - 80):match.start()])
            for stated in [m.group(1) for m in (after, before) if m]:
                self.checked += 1
                if value is None:
                    self.fail(document, line, f"{name} is defined twice, with different values")
                elif as_value(stated, value[0]) != value[1]:
                    self.fail(document, line, f"{name} {stated}, {home} says "
                                              f"{constant_text(value)}")
            # "kMaxSolutionLimit in proto/codec.h", "proto/framing.h kDefaultMaxFrameBytes"
            window = text[max(0, match.start() - 40):match.end() + 40]
            for place in re.findall(r"(?:^|[\s(])((?:proto|daemon|client|solver)/[\w.]+\.h)\b",
                                    window):
                near = re.search(re.escape(place) + r" " + name + r"\b|" + name + r" in " +
                                 re.escape(place), window)
                if near:
                    self.checked += 1
                    if place != home:
                        self.fail(document, line, f"{name} in {place}, but it is defined in "
                                                  f"{home}")

    def file_tables(self, document):
        """A table row that says what a file owns ("framing.{h,cc}") names its constants."""
        folder = os.path.dirname(document.path)
        for number, text in document.lines:
            row = re.match(r"\| (([\w/]+)\.(?:\{h,cc\}|h|cc)) \|", text)
            if not row:
                continue
            stem = os.path.join(folder, row.group(2))
            for name in re.findall(r"\b(k[A-Z]\w*)\b", text):
                if name not in self.constants:
                    continue
                home = self.constants[name][1]
                self.checked += 1
                if os.path.splitext(home)[0] != stem:
                    self.fail(document, number, f"{name} in the row of {row.group(1)}, but it "
                                                f"is defined in {home}")

    def statements(self, document):
        """STATEMENTS: the limits a document states in words of its own."""
        for path, pattern, name in STATEMENTS:
            if path != document.path:
                continue
            matches = list(re.finditer(pattern, document.text))
            if not matches:
                self.fail(document, None, f"no longer says /{pattern}/ ({name}): update "
                                          "STATEMENTS in tests/documented_defaults_test.py")
            value, home = self.constants.get(name, (None, None))
            for match in matches:
                line = document.line_of(match.start(1))
                self.checked += 1
                if value is None:
                    self.fail(document, line, f"{name} is not one constant of the code")
                elif as_value(match.group(1), value[0]) != value[1]:
                    self.fail(document, line, f"{name} {match.group(1)}, {home} says "
                                              f"{constant_text(value)}")

    def check(self, path, display, context):
        document = read_document(path, display)
        if re.search(r"\.[0-9]$", path):
            def context_of_section(header):
                if header and header.startswith(".SS"):
                    name = header[3:].strip().strip('"')
                    commands = [c for c in context if c.split()[-1] == name]
                    return commands or context
                return context
            self.man_entries(document, context_of_section)
        if path.endswith(".md"):
            self.tables(document, context)
            self.file_tables(document)
        if os.path.basename(path) == "sudokud.default":
            self.settings_list(document, context)
        self.prose(document, context)
        self.constant_statements(document)
        self.statements(document)


def main():
    arguments = sys.argv[1:]
    fixture = None
    if len(arguments) == 6 and arguments[4] == "--fixture":
        fixture = arguments.pop(5)
        arguments.pop(4)
    if len(arguments) != 4:
        sys.exit(__doc__)
    source, sudokud, client, bench = arguments
    checker = Checker(program_defaults(sudokud, client, bench), code_constants(source))
    if fixture:
        # The checker's own test: the fixture's documents, at the paths of the real ones, are
        # checked as those are, and the failures must be exactly those expected.txt lists.
        for document, context in DOCUMENTS.items():
            if os.path.exists(os.path.join(fixture, document)):
                checker.check(os.path.join(fixture, document), document, context)
        with open(os.path.join(fixture, "expected.txt"), encoding="utf-8") as f:
            expected = f.read().splitlines()
        if checker.failures == expected:
            print("\n".join(f"ok: found {failure}" for failure in expected))
            return 0
        print("FAIL: the checker's failures on the fixture documents differ from expected.txt")
        for line in difflib.unified_diff(expected, checker.failures, "expected.txt", "found",
                                         lineterm=""):
            print(line)
        return 1
    for document, context in DOCUMENTS.items():
        checker.check(os.path.join(source, document), document, context)
    for failure in checker.failures:
        print(f"FAIL: {failure}")
    if checker.failures:
        print(f"{len(checker.failures)} of {checker.checked} stated defaults and limits differ "
              "from the programs'")
        return 1
    print(f"ok: {checker.checked} stated defaults and limits in {len(DOCUMENTS)} files agree "
          "with the programs' --help and constants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
