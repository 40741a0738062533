#!/usr/bin/env python3
"""sudokud under hostile load: a normal client's service while everyone else attacks.

Starts one sudokud on loopback, with its TCP port, --metrics and --http listeners, times a normal
`sudoku-client solve` of a puzzle file on it while it is idle, then again while, all at once:
  - idle connections that send nothing (reconnecting when the daemon closes them),
  - connections that begin a frame and stall inside it,
  - connections that send most of a maximal (--max-frame-bytes) frame and never finish it,
  - clients that send big batches and never read,
  - connections that ask for solution_limit at the cap (1,000,000) on an empty grid, again and
    again,
  - a storm of faulty connections (an HTTP request line, a TLS ClientHello, a frame that does
    not decode, a length over the limit, a solution_limit over the cap), a bounded number at once,
  - generate: connections that each ask for --generate-count (1,024) minimal symmetric puzzles
    (a GenerateRequest), read every answer, and ask again,
  - explain: connections that keep 16 ExplainRequests of very hard puzzles in flight, forever,
  - leavers: connections that send 100 empty grids at solution_limit 1,000,000, close (a FIN)
    after 0.5 s, connect again and repeat,
  - big batches: connections that each send one --big-batch (65,536) puzzle batch, read its
    answer and send it again,
  - http idle: sockets on --metrics and on --http (--http-idle on each) that send nothing,
    reconnecting when closed,
  - http generate: connections that POST /api/generate {"count":16,"minimal":true,
    "symmetric":true} in a loop (keep-alive),
  - http explain leavers: connections that POST /api/explain of a very hard puzzle and close
    (a FIN) after 0.3 s, as `curl -m 0.3` does, again and again,
  - rate batches: connections that each send one --rate-batch (8,192) puzzle batch of
    forum-hardest puzzles with rate set (../shared/data/forum_hardest_11plus_half.txt beside
    the repository when present, else tests/data/very_hard.txt, repeated to fill the batch),
    read its answer and send it again,
  - http rated solves: keep-alive connections to --http that POST /api/solve {"puzzle": <a
    forum-hardest puzzle>, "rate": true} in a loop,
  - generate leavers: connections that send a GenerateRequest for --generate-leaver-count
    (65,536) puzzles rated se_min 11.0, reset the connection (SO_LINGER 0) after 0.2 s, connect
    again and repeat,
then once more idle. The normal client starts --warmup s (2; 1 with --quick) after every
attacker has connected, and the attack goes on until it is done, the storm is over, the slow TLS
sender has its answer and --attack-seconds (30; 5 with --quick) have passed. Every answer of the
normal client is checked (a complete valid grid that keeps the givens; with --verify, also by
that script). While the attack runs, a prober GETs /readyz on --metrics every 0.5 s (2 s
timeout) as a load balancer would.

--tls: the script makes a throwaway self-signed certificate (P-256, CN localhost, subjectAltName
IP:127.0.0.1 and DNS:localhost) with `openssl req` in its temporary directory and starts the
daemon with --tls-cert, --tls-key and --http-tls: the TCP port speaks TLS and --metrics and
--http HTTPS. The normal client runs with --tls --tls-ca CERT, every group on the TCP port
wraps its connections in TLS, the HTTP groups and the /readyz prober use HTTPS; the storm sends
its HTTP request line and a plaintext frame raw (the daemon answers those in plaintext) and its
other faulty frames inside TLS. Three more groups then:
  - ffdhe replays: a ClientHello that offers only the ffdhe8192 group, captured once at the
    start from `openssl s_client -tls1_3 -groups ffdhe8192` by a one-shot listener, sent raw
    again and again (read up to 1 s, reset, connect again): half the connections (at least one)
    to the TCP port, the others to --http and --metrics in turn. Counted per listener: ServerHello
    (a first byte 0x16), alert (0x15), closed; and the handshakes per second they forced,
  - slow TLS: one connection that completes its handshake, then sends one SolveRequest of 480
    puzzles (about 40 KB) whose TLS records (up to 16 KiB each, made with ssl.MemoryBIO) it
    dribbles at 1,400 bytes/s; it reports "served" or the fault it got (about 30 s: not in
    --quick unless --slow-tls is given),
  - idle TLS: connections that complete the handshake and send nothing, reconnecting when
    closed. They connect first, alone: the daemon's RSS (VmRSS) is taken before they connect
    and once they all have, which gives the RSS per idle TLS connection, and again 3 s after
    the attackers have left.

Attackers on their own CPU: every attacker process runs on --attacker-cpus (default: the last
CPU this script may use when it may use 2 or more; an empty list turns the split off), sudokud
and the normal client on the others, in the idle runs as in the attacked one.

Two modes. By default (sized) the daemon gets --max-connections room for every attacker,
--max-memory and --max-frame-bytes, as an operator sizing it for the load would. With --defaults
it gets nothing beyond its three listeners (`--listen 127.0.0.1:0 --metrics 127.0.0.1:0 --http
127.0.0.1:0`, and the TLS flags with --tls): every limit is the daemon's default (--max-memory 4
GiB, --max-connections 1,024), and the full-size crowd is issue 28's item 10 (5,000 idle, 1,000
stalled, 50 unfinished 16 MiB frames, 4 never read, 2 at the maximal limit; no storm unless
--storm says so) plus the new groups above, where the sized run keeps its bigger crowd (10,000
idle, 2,000 stalled, 100 unfinished, a storm of 20,000). The new groups' full sizes, in both
modes: generate 2, explain 2, leavers 64, big batches 64 (of 65,536 puzzles), http idle 64 on
each listener, http generate 8, http explain leavers 8, rate batches 4 (of 8,192 puzzles), http
rated solves 8, generate leavers 40; with --tls, ffdhe replays 16, slow TLS 1, idle TLS 1,900.
--quick uses the same small counts in both modes (1 to 4 of each new group, big batches of
4,096, rate batches of 64, generate leavers asking for 1,024 puzzles, idle TLS 20, no slow TLS).

Prints which mode ran, the CPU split, the group sizes, the normal client's time to the first
answer and in total, idle and attacked, what happened to each group's connections, /readyz
during the attack, the idle TLS connections' RSS, the daemon's peak RSS (VmHWM) against its
memory budget, its log lines and their kinds; then whether each goal was met: first answer
within 0.5 s, total within twice the idle figure plus 1 s, peak RSS within the memory budget,
/readyz ready on every probe, and the daemon back to its idle speed within 2 s after the
attackers left (the recovery time: how much later than on the idle daemon the run started as
they left was done).

Loopback only (127.0.0.x); bounded in count (every group has a fixed size; reconnects stop when
the attacked run ends) and in time (--time-limit). Python 3 standard library only (and the
`openssl` command with --tls).

Exit status: 0 when every answer was right and the daemon served to the end and exited 0;
1 otherwise. The goals are printed, not part of the exit status (timings on a shared machine are
not a verdict): --quick runs small counts as a check that the script itself works.

usage: hostile_load.py --daemon SUDOKUD --client SUDOKU_CLIENT [--puzzles FILE | --count N]
                       [--verify VERIFY.py] [--quick] [--defaults] [--tls]
                       [--attacker-cpus LIST] [group sizes...]
"""
import argparse
import asyncio
import collections
import http.client
import json
import multiprocessing
import os
import queue
import random
import re
import resource
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

SOLUTION_LIMIT_CAP = 1_000_000  # kMaxSolutionLimit in proto/framing.h
MAX_FRAME_BYTES = 16 << 20      # sudokud's default --max-frame-bytes
DEFAULT_MAX_MEMORY = 4 << 30    # sudokud's default --max-memory
EXPLAINS_IN_FLIGHT = 16         # per explain connection
LEAVER_PUZZLES = 100            # empty grids per leaver's batch
LEAVER_SECONDS = 0.5            # how long a leaver stays
HTTP_LEAVER_SECONDS = 0.3       # how long an http explain leaver stays (curl -m 0.3)
HTTP_GENERATE_BODY = b'{"count":16,"minimal":true,"symmetric":true}'
GENERATE_LEAVER_SECONDS = 0.2   # how long a generate leaver stays
GENERATE_LEAVER_SE_MIN = 110    # se_min 11.0, in tenths: the rarest puzzles there are
FFDHE_READ_SECONDS = 1.0        # how long an ffdhe replay waits for the daemon's answer
SLOW_TLS_PUZZLES = 480          # the slow TLS sender's batch: about 40 KB
SLOW_TLS_BYTES_PER_SECOND = 1_400
SLOW_TLS_ANSWER_SECONDS = 60    # how long it waits for its answer once all is sent
IDLE_TLS_AFTER_SECONDS = 3.0    # the idle TLS group's RSS is taken again this long after
FIRST_ANSWER_GOAL = 0.5         # seconds, the attacked client's first answer
RECOVERY_GOAL = 2.0             # seconds, the client's speed back after the attackers left
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORUM_HARDEST = os.path.join(REPOSITORY, "..", "shared", "data",
                             "forum_hardest_11plus_half.txt")
VERY_HARD = os.path.join(REPOSITORY, "tests", "data", "very_hard.txt")

# Very hard puzzles (tests/data/very_hard.txt): what the explain groups ask about.
HARD_PUZZLES = [
    # Inkala 2012, AI Escargot, Easter Monster, Golden Nugget, Platinum Blonde
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
]


# ---- The wire format (proto/sudoku.proto), written by hand: only what the attackers send ----

def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def length_delimited(field, body):
    return varint(field << 3 | 2) + varint(len(body)) + body


def frame(body):
    return varint(len(body)) + body


def solve_frame(batch_id, puzzles, solution_limit=0, rate=False):
    """A Request{solve: SolveRequest{batch_id, puzzles, solution_limit, rate}} frame."""
    solve = varint(1 << 3) + varint(batch_id)
    solve += b"".join(length_delimited(2, p) for p in puzzles)
    if solution_limit:
        solve += varint(3 << 3) + varint(solution_limit)
    if rate:
        solve += varint(4 << 3) + varint(1)
    return frame(length_delimited(1, solve))


def generate_frame(request_id, count, seed, first_index, minimal=True, symmetric=True,
                   se_min=0):
    """A Request{generate: GenerateRequest{request_id, count, seed, first_index, symmetric,
    minimal, se_min}} frame (clues, difficulty and se_max unset)."""
    generate = varint(1 << 3) + varint(request_id) + varint(2 << 3) + varint(count)
    generate += varint(3 << 3) + varint(seed) + varint(4 << 3) + varint(first_index)
    if symmetric:
        generate += varint(6 << 3) + varint(1)
    if minimal:
        generate += varint(7 << 3) + varint(1)
    if se_min:
        generate += varint(10 << 3) + varint(se_min)
    return frame(length_delimited(4, generate))


def explain_frame(request_id, puzzle):
    """A Request{explain: ExplainRequest{request_id, puzzle}} frame."""
    explain = varint(1 << 3) + varint(request_id) + length_delimited(2, puzzle)
    return frame(length_delimited(3, explain))


def read_varint(data, i):
    value, shift = 0, 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def message_fields(body):
    """The fields of a protobuf message, as a dict: number -> the last value (an int for a
    varint or a fixed field, bytes for a length-delimited one). Enough for what is read here."""
    fields, i = {}, 0
    while i < len(body):
        key, i = read_varint(body, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = read_varint(body, i)
        elif wire == 2:
            n, i = read_varint(body, i)
            value, i = body[i:i + n], i + n
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            value, i = int.from_bytes(body[i:i + n], "little"), i + n
        else:
            raise ValueError(f"wire type {wire}")
        fields[number] = value
    return fields


RESPONSE_KINDS = {1: "solve", 2: "fault", 3: "stats", 4: "explain", 5: "generate"}
FAULT_KINDS = {0: "UNKNOWN", 1: "FRAME_TOO_LARGE", 2: "MALFORMED", 3: "EMPTY_REQUEST",
               4: "BATCH_TOO_LARGE", 5: "TOO_MANY_CONNECTIONS", 6: "IDLE_TIMEOUT",
               11: "BAD_GENERATE_REQUEST", 12: "BAD_SOLVE_REQUEST", 13: "BAD_EXPLAIN_REQUEST",
               20: "NOT_THIS_PROTOCOL", 21: "REQUEST_TIMEOUT"}


def response_of(body):
    """A Response's kind ("solve", "fault", "explain", "generate", ...) and its fields."""
    for number, value in message_fields(body).items():
        if number in RESPONSE_KINDS and isinstance(value, bytes):
            return RESPONSE_KINDS[number], message_fields(value)
    return "empty", {}


def fault_name(fields):
    kind = fields.get(1, 0)
    return FAULT_KINDS.get(kind, f"kind {kind}")


def split_message(buffer):
    """The body of the first whole frame in `buffer` (a bytearray), removed from it; None while
    the frame is not whole yet."""
    length, shift, i = 0, 0, 0
    while True:
        if i >= len(buffer):
            return None
        byte = buffer[i]
        i += 1
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    if len(buffer) < i + length:
        return None
    body = bytes(buffer[i:i + length])
    del buffer[:i + length]
    return body


def http_request(method, path, body=b"", keep_alive=True):
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n")
    if not keep_alive:
        head += "Connection: close\r\n"
    return head.encode() + b"\r\n" + body


async def read_http_response(reader):
    """One HTTP/1.1 response: (status, body, whether the connection stays open). Raises
    asyncio.IncompleteReadError (or ValueError) when the connection ends first."""
    status_line = await reader.readline()
    if not status_line:
        raise asyncio.IncompleteReadError(b"", None)
    parts = status_line.split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        raise ValueError(f"not an HTTP status line: {status_line[:60]!r}")
    status = int(parts[1])
    headers = {}
    while True:
        line = await reader.readline()
        if not line:
            raise asyncio.IncompleteReadError(b"", None)
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip().lower()
    keep_alive = headers.get(b"connection") != b"close" and parts[0] != b"HTTP/1.0"
    if b"content-length" in headers:
        body = await reader.readexactly(int(headers[b"content-length"]))
    elif headers.get(b"transfer-encoding") == b"chunked":
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass  # the trailer
                break
            body += await reader.readexactly(size)
            await reader.readexactly(2)
    else:
        body = await reader.read()
        keep_alive = False
    return status, body, keep_alive


EMPTY_GRID = b"." * 81

# What the storm sends; each gets a ProtocolFault and the connection is closed.
TLS_CLIENT_HELLO = bytes.fromhex("16030100a5010000a10303") + bytes(32) + b"\x00\x00\x02\x13\x01"
STORM_PAYLOADS = [
    b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",           # NOT_THIS_PROTOCOL
    TLS_CLIENT_HELLO,                                       # NOT_THIS_PROTOCOL
    frame(b"\xff\xff\xff\xff"),                             # a body that does not decode
    varint(1 << 30),                                        # a length over --max-frame-bytes
    solve_frame(1, [EMPTY_GRID], SOLUTION_LIMIT_CAP + 1),   # solution_limit over the cap
]
# With --tls: (payload, sent raw). The TLS port answers an HTTP request line and a plaintext
# frame in plaintext (NOT_THIS_PROTOCOL); the other faults come inside TLS (the ClientHello,
# sent raw, would begin a handshake, not earn a fault).
STORM_PAYLOADS_TLS = [
    (STORM_PAYLOADS[0], True),
    (solve_frame(1, [EMPTY_GRID]), True),
    (STORM_PAYLOADS[2], False),
    (STORM_PAYLOADS[3], False),
    (STORM_PAYLOADS[4], False),
]


# ---- Puzzles and answers ----

def generate_puzzles(count, seed=1, clues=34):
    """`count` puzzles with a solution: a shuffled pattern grid with `clues` cells kept."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        def order():
            return [3 * band + i
                    for band in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
        rows, cols, digits = order(), order(), rng.sample("123456789", 9)
        grid = [digits[(3 * (r % 3) + r // 3 + c) % 9] for r in rows for c in cols]
        kept = set(rng.sample(range(81), clues))
        lines.append("".join(grid[i] if i in kept else "." for i in range(81)))
    return lines


def forum_hardest(count):
    """`count` forum-hardest puzzles (SE 11 and up) as bytes: from FORUM_HARDEST when it is
    there, else the very hard ones of tests/data, repeated to fill the count."""
    path = FORUM_HARDEST if os.path.exists(FORUM_HARDEST) else VERY_HARD
    puzzles = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if len(line) >= 81 and not line.startswith("#"):
                puzzles.append(line[:81].encode())
                if len(puzzles) == count:
                    break
    return [puzzles[i % len(puzzles)] for i in range(count)]


UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)]
         + [[r * 9 + c for r in range(9)] for c in range(9)]
         + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])
ALL_DIGITS = set("123456789")


def solves(puzzle, line):
    solution = line[:81]
    if len(solution) != 81 or set(solution) - ALL_DIGITS:
        return False
    if any(p in ALL_DIGITS and p != s for p, s in zip(puzzle, solution)):
        return False
    return all(set(solution[i] for i in unit) == ALL_DIGITS for unit in UNITS)


# ---- The normal client ----

class ClientRun:
    """One `sudoku-client solve` of the puzzle file (over TLS with --tls, on the daemon's CPUs),
    timed: to its first output line, to exit."""

    def __init__(self, args, port, puzzles_path, label, cpu_of):
        self.label = label
        self.puzzles_path = puzzles_path
        self.output_path = os.path.join(args.workdir, label.replace(" ", "_") + ".out")
        command = [args.client, "solve", "--connect", f"127.0.0.1:{port}"]
        if args.tls:
            command += ["--tls", "--tls-ca", args.tls_cert]
        command.append(puzzles_path)
        cpu_before = {name: cpu_seconds(pids) for name, pids in cpu_of.items()}
        start = time.monotonic()
        first = None
        with open(self.output_path, "wb") as output, \
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 preexec_fn=pinned(args.daemon_cpus)) as process:
            stderr_lines = []
            stderr_reader = threading.Thread(
                target=lambda: stderr_lines.extend(process.stderr), daemon=True)
            stderr_reader.start()
            while True:
                chunk = process.stdout.read1(1 << 16)
                if not chunk:
                    break
                if first is None:
                    first = time.monotonic() - start
                output.write(chunk)
            status = process.wait()
            stderr_reader.join()
        self.end = time.monotonic()
        self.total = self.end - start
        # CPU seconds each process group spent while the client ran.
        self.cpu = {name: cpu_seconds(pids) - cpu_before[name] for name, pids in cpu_of.items()}
        self.first = first
        self.status = status
        self.stderr = b"".join(stderr_lines).decode(errors="replace").strip()
        self.wrong = None
        self.verify_line = None

    def check(self, args, puzzles):
        """Checks every answer (after the timing, and after the attack has stopped)."""
        with open(self.output_path) as output:
            lines = output.read().splitlines()
        if len(lines) != len(puzzles):
            self.wrong = f"{len(lines)} answers for {len(puzzles)} puzzles"
        else:
            wrong = sum(not solves(p, line) for p, line in zip(puzzles, lines))
            if wrong:
                self.wrong = f"{wrong} wrong answers"
        if not self.wrong and args.verify:
            check = subprocess.run([sys.executable, args.verify, self.puzzles_path,
                                    self.output_path], capture_output=True, text=True)
            self.verify_line = (check.stdout.strip().splitlines() or [""])[-1]
            if check.returncode != 0:
                self.wrong = f"{args.verify}: {self.verify_line}"
        os.unlink(self.output_path)
        return self

    def ok(self):
        return self.status == 0 and not self.wrong

    def describe(self):
        first = "none" if self.first is None else f"{self.first:.3f} s"
        text = f"{self.label}: first answer {first}, total {self.total:.3f} s"
        if self.status != 0:
            text += f", exit {self.status}: {self.stderr}"
        if self.cpu:
            text += "; CPU seconds meanwhile: " + ", ".join(
                f"{name} {seconds:.2f}" for name, seconds in self.cpu.items())
        if self.wrong:
            text += f", {self.wrong}"
        elif self.verify_line:
            text += f" ({self.verify_line})"
        # What the client said on the way (waiting, reconnecting), beside its closing summary.
        said = [line for line in self.stderr.splitlines() if not line.startswith("puzzles ")]
        if said and self.status == 0:
            text += "".join(f"\n    client: {line}" for line in said[:5])
        return text


def pinned(cpus):
    """A preexec_fn that runs the child on `cpus` only; None (no pinning) when `cpus` is empty."""
    if not cpus:
        return None
    return lambda: os.sched_setaffinity(0, cpus)


def parse_cpus(text):
    """A CPU list as taskset -c writes one ("1", "0-2,5"), as a set; empty for ""."""
    cpus = set()
    for part in filter(None, text.replace(" ", "").split(",")):
        first, _, last = part.partition("-")
        if not first.isdigit() or not (last or first).isdigit() or int(last or first) < int(first):
            raise ValueError(f"{part!r} is not a CPU or a range of CPUs (e.g. 1 or 0-2,5)")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def cpu_list(cpus):
    """A set of CPUs as taskset -c lists them."""
    ranges, cpus = [], sorted(cpus)
    for cpu in cpus:
        if ranges and ranges[-1][1] == cpu - 1:
            ranges[-1][1] = cpu
        else:
            ranges.append([cpu, cpu])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)


def cpu_seconds(pids):
    """User and system CPU time of the processes `pids` so far (0 for one that is gone)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


# ---- The attackers (one asyncio loop in a thread of their own) ----

def reset(writer):
    """Closes with a reset, as a client that goes away does: closed with a FIN, the connection
    would be a half-closed peer still owed its answers, and the daemon would go on solving."""
    try:
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                   struct.pack("ii", 1, 0))
    except (OSError, AttributeError):
        pass
    writer.transport.abort()


def ignore_outcome(future):
    """A read abandoned when the attack stops may still fail: that is expected, not news."""
    if not future.cancelled():
        future.exception()


class Attack:
    """One hostile group, in a process of its own (one Python event loop cannot keep up with
    thousands of connections the daemon keeps closing and a storm beside them): connects its
    connections, then holds them until `shared.stop` is set; counts what happened to them."""

    def __init__(self, args, ports, group, size, shared):
        self.args = args
        self.ports = ports  # "tcp", "metrics", "http"
        self.port = ports["tcp"]
        self.group = group
        self.size = size
        self.shared = shared
        self.stopping = None  # an asyncio.Event, made in the group's loop
        self.counts = {}
        # With --tls, every connection but a raw one is wrapped in TLS, trusting the run's
        # certificate (made in the group's process).
        self.tls = client_tls_context(args.tls_cert) if args.tls else None
        # Spread the attackers over source addresses so that 4-tuples (and TIME_WAIT) never
        # run out of ephemeral ports on one address.
        self.next_source = GROUPS.index(group) * 41
        if group == "never read":
            puzzles = [p.encode() for p in generate_puzzles(args.never_read_batch, seed=7)]
            self.never_read_frame = [solve_frame(i, puzzles) for i in (1, 2)]
        if group == "big batches":
            # One frame for all: a batch's id is free again once its answer has been read, and
            # a big-batch connection has one batch in flight at a time.
            self.big_batch_frame = solve_frame(
                1, [p.encode() for p in generate_puzzles(args.big_batch, seed=11)])
        if group == "rate batches":
            self.rate_batch_frame = solve_frame(1, forum_hardest(args.rate_batch), rate=True)
        if group == "http rated solves":
            self.rated_bodies = [json.dumps({"puzzle": p.decode(), "rate": True}).encode()
                                 for p in forum_hardest(64)]
        # The main figure of each group, so that it is printed even when it stays 0.
        for what in {"generate": ["requests answered", "puzzles received"],
                     "explain": ["answered"], "leavers": ["left after 0.5 s"],
                     "big batches": ["batches answered"], "http idle": ["reconnected"],
                     "http generate": ["answered 200"],
                     "http explain leavers": ["left after 0.3 s"],
                     "rate batches": ["batches answered"],
                     "http rated solves": ["answered 200"],
                     "generate leavers": ["left after 0.2 s"],
                     "idle TLS": ["reconnected"]}.get(group, []):
            self.count(f"{group}: {what}", 0)

    def connected_once(self):
        with self.shared.established.get_lock():
            self.shared.established.value += 1

    def count(self, what, n=1):
        self.counts[what] = self.counts.get(what, 0) + n

    def source(self):
        self.next_source += 1
        return (f"127.0.0.{2 + self.next_source % 250}", 0)

    async def connect(self, port=None, raw=False):
        """A connection to the TCP port (or `port`): in TLS (the handshake done) with --tls
        unless `raw`."""
        return await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port or self.port, local_addr=self.source(),
                                    limit=1 << 16, ssl=None if raw else self.tls),
            timeout=30)

    async def connect_or_wait(self, group, first, port=None, raw=False):
        """Connects (counting the first connect of a connection, or a reconnect); on failure
        counts it and waits 0.5 s. The reader and writer, or None."""
        try:
            reader, writer = await self.connect(port, raw)
        except (OSError, asyncio.TimeoutError) as error:
            self.count(f"{group}: connect failed ({type(error).__name__})")
            await asyncio.sleep(0.5)
            return None
        if first:
            self.connected_once()
        else:
            self.count(f"{group}: reconnected")
        return reader, writer

    async def until_closed_or_stopped(self, reader):
        """Waits until the daemon closes the connection (True) or the attack stops (False)."""
        read = asyncio.ensure_future(reader.read(1 << 16))
        read.add_done_callback(ignore_outcome)
        stop = asyncio.ensure_future(self.stopping.wait())
        while True:
            done, _ = await asyncio.wait({read, stop}, return_when=asyncio.FIRST_COMPLETED)
            if stop in done:
                read.cancel()
                return False
            try:
                data = read.result()
            except OSError:
                data = b""
            if not data:
                stop.cancel()
                return True
            read = asyncio.ensure_future(reader.read(1 << 16))
            read.add_done_callback(ignore_outcome)
    async def hold(self, group, opening=b"", after=None, port=None):
        """One connection of `group` (to the TCP port, or `port`): sends `opening` (then
        `after()`), waits; reconnects when the daemon closes it, until the attack stops."""
        first = True
        while not self.stopping.is_set():
            try:
                reader, writer = await self.connect(port)
            except (OSError, asyncio.TimeoutError) as error:
                self.count(f"{group}: connect failed ({type(error).__name__})")
                await asyncio.sleep(0.5)
                continue
            try:
                if opening:
                    writer.write(opening)
                if first:
                    self.connected_once()
                    first = False
                else:
                    self.count(f"{group}: reconnected")
                if after:
                    worker = asyncio.ensure_future(after(reader, writer))
                    closed = await self.until_closed_or_stopped(reader)
                    worker.cancel()
                else:
                    closed = await self.until_closed_or_stopped(reader)
                if not closed:
                    return
            except (OSError, asyncio.TimeoutError):
                pass
            finally:
                reset(writer)

    async def unfinished_frame(self, reader, writer):
        """Sends a maximal frame's length and then its bytes, all but the last, as fast as the
        daemon takes them."""
        chunk = bytes(1 << 20)
        body = self.args.max_frame_bytes
        sent = 0
        try:
            while sent < body - 1:
                n = min(len(chunk), body - 1 - sent)
                writer.write(chunk[:n])
                await writer.drain()
                sent += n
        except OSError:
            return  # closed by the daemon: hold() sees it and connects again
        await asyncio.Event().wait()

    async def never_read(self, group):
        """Sends big batches and never reads a byte of their answers. The daemon's write-stall
        timeout closes it, which this side cannot see without reading: it holds on until the
        attack stops (or a write fails, and it connects again)."""
        first = True
        while not self.stopping.is_set():
            try:
                reader, writer = await self.connect()
            except (OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.5)
                continue
            writer.transport.pause_reading()
            if first:
                self.connected_once()
                first = False
            try:
                for batch in self.never_read_frame:
                    writer.write(batch)
                    await writer.drain()
                await self.stopping.wait()
            except OSError:
                self.count(f"{group}: reconnected")
            finally:
                reset(writer)

    async def maximal_limit(self, group, index):
        """Asks for every solution of the empty grid up to the cap, again as soon as answered."""
        batch_id = 0
        while not self.stopping.is_set():
            try:
                reader, writer = await self.connect()
            except (OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.5)
                continue
            if batch_id == 0:
                self.connected_once()
            try:
                while not self.stopping.is_set():
                    batch_id += 1
                    writer.write(solve_frame(batch_id, [EMPTY_GRID], SOLUTION_LIMIT_CAP))
                    await writer.drain()
                    length = await self.read_frame(reader)
                    if length is None:
                        break
                    self.count(f"{group}: answered")
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                pass
            finally:
                reset(writer)

    async def read_frame(self, reader):
        """Reads one response frame; its length, or None when the connection ends or stops."""
        read = asyncio.ensure_future(self.read_frame_bytes(reader))
        read.add_done_callback(ignore_outcome)
        stop = asyncio.ensure_future(self.stopping.wait())
        done, _ = await asyncio.wait({read, stop}, return_when=asyncio.FIRST_COMPLETED)
        if stop in done:
            read.cancel()
            return None
        stop.cancel()
        try:
            return read.result()
        except (OSError, asyncio.IncompleteReadError):
            return None

    @staticmethod
    async def read_frame_bytes(reader):
        return len(await Attack.read_message(reader))

    @staticmethod
    async def read_message(reader):
        """One response frame's body; asyncio.IncompleteReadError when the connection ends."""
        length, shift = 0, 0
        while True:
            byte = (await reader.readexactly(1))[0]
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        return await reader.readexactly(length)

    async def read_response(self, group, reader):
        """One Response: its kind and fields. A fault is counted (by kind) and ends the
        connection: ConnectionEnded."""
        kind, fields = response_of(await self.read_message(reader))
        if kind == "fault":
            self.count(f"{group}: fault {fault_name(fields)}")
            raise ConnectionEnded()
        return kind, fields

    # The new groups run until their task is cancelled when the attack stops; a connection the
    # daemon closes (or refuses) is counted and made again. They all leave with a reset, as the
    # older groups do, except the leavers, whose point is the plain close.

    async def generate(self, group, index):
        """Asks for --generate-count minimal symmetric puzzles, reads every answer, asks again."""
        count = self.args.generate_count
        seed = 1_000_003 * (index + 1)
        request_id = first_index = 0
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                while not self.stopping.is_set():
                    request_id += 1
                    writer.write(generate_frame(request_id, count, seed, first_index))
                    await writer.drain()
                    first_index += count
                    while True:
                        kind, fields = await self.read_response(group, reader)
                        if kind != "generate":
                            self.count(f"{group}: unexpected {kind} response")
                            continue
                        self.count(f"{group}: puzzles received", len(fields.get(4, b"")) // 81)
                        if fields.get(7):
                            break
                    self.count(f"{group}: requests answered")
            except (OSError, asyncio.IncompleteReadError, ConnectionEnded, ValueError):
                await asyncio.sleep(0.1)
            finally:
                reset(writer)

    async def explain(self, group, index):
        """Keeps EXPLAINS_IN_FLIGHT explain requests of very hard puzzles in flight."""
        request_id = 0
        first = True

        def next_request():
            nonlocal request_id
            request_id += 1
            puzzle = HARD_PUZZLES[(index + request_id) % len(HARD_PUZZLES)]
            return explain_frame(request_id, puzzle.encode())

        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                writer.write(b"".join(next_request() for _ in range(EXPLAINS_IN_FLIGHT)))
                await writer.drain()
                while not self.stopping.is_set():
                    kind, _ = await self.read_response(group, reader)
                    if kind != "explain":
                        self.count(f"{group}: unexpected {kind} response")
                        continue
                    self.count(f"{group}: answered")
                    writer.write(next_request())
                    await writer.drain()
            except (OSError, asyncio.IncompleteReadError, ConnectionEnded, ValueError):
                await asyncio.sleep(0.1)
            finally:
                reset(writer)

    async def leaver(self, group):
        """Sends LEAVER_PUZZLES empty grids at the solution limit's cap, closes with a FIN after
        LEAVER_SECONDS without reading, connects again."""
        batch = solve_frame(1, [EMPTY_GRID] * LEAVER_PUZZLES, SOLUTION_LIMIT_CAP)
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            _, writer = connection
            try:
                writer.write(batch)
                await writer.drain()
                await asyncio.sleep(LEAVER_SECONDS)
                self.count(f"{group}: left after 0.5 s")
            except OSError:
                self.count(f"{group}: closed by the daemon first")
            finally:
                writer.close()  # a FIN, not a reset: what a client that just goes away sends

    async def big_batches(self, group, batch):
        """Sends one batch (--big-batch puzzles; a rate batch's --rate-batch), reads its answer,
        sends it again."""
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                while not self.stopping.is_set():
                    writer.write(batch)
                    await writer.drain()
                    kind, _ = await self.read_response(group, reader)
                    while kind != "solve":
                        self.count(f"{group}: unexpected {kind} response")
                        kind, _ = await self.read_response(group, reader)
                    self.count(f"{group}: batches answered")
            except (OSError, asyncio.IncompleteReadError, ConnectionEnded, ValueError):
                await asyncio.sleep(0.1)
            finally:
                reset(writer)

    async def http_posts(self, group, path, bodies):
        """POSTs `path` again and again, keep-alive, with each of `bodies` in turn: /api/generate
        (16 minimal symmetric puzzles), or /api/solve of a forum-hardest puzzle, rated."""
        requests = [http_request("POST", path, body) for body in bodies]
        sent = 0
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first, self.ports["http"])
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                while not self.stopping.is_set():
                    writer.write(requests[sent % len(requests)])
                    sent += 1
                    await writer.drain()
                    status, _, keep_alive = await read_http_response(reader)
                    self.count(f"{group}: answered {status}")
                    if not keep_alive:
                        break
                    if status != 200:
                        await asyncio.sleep(0.1)  # a refusal: not a spin of refusals
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.count(f"{group}: connection ended mid-request")
                await asyncio.sleep(0.1)
            finally:
                reset(writer)

    async def http_explain_leaver(self, group, index):
        """POSTs /api/explain of a very hard puzzle, closes with a FIN after HTTP_LEAVER_SECONDS
        (counting the answers that came sooner), connects again."""
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first, self.ports["http"])
            if connection is None:
                continue
            first = False
            reader, writer = connection
            index += 1
            body = json.dumps({"puzzle": HARD_PUZZLES[index % len(HARD_PUZZLES)]}).encode()
            try:
                writer.write(http_request("POST", "/api/explain", body))
                await writer.drain()
                status, _, _ = await asyncio.wait_for(read_http_response(reader),
                                                      HTTP_LEAVER_SECONDS)
                self.count(f"{group}: answered {status} within 0.3 s")
                await asyncio.sleep(0.01)
            except asyncio.TimeoutError:
                self.count(f"{group}: left after 0.3 s")
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.count(f"{group}: closed by the daemon first")
                await asyncio.sleep(0.1)
            finally:
                writer.close()  # a FIN, as curl -m 0.3 leaves

    async def generate_leaver(self, group, index):
        """Asks for --generate-leaver-count puzzles of se_min 11.0 (which take the generator
        for ever to find), resets the connection after GENERATE_LEAVER_SECONDS (counting what
        came sooner), connects again."""
        request = generate_frame(1, self.args.generate_leaver_count, 7_000_003 * (index + 1), 0,
                                 minimal=False, symmetric=False, se_min=GENERATE_LEAVER_SE_MIN)
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                writer.write(request)
                await writer.drain()
                leave = time.monotonic() + GENERATE_LEAVER_SECONDS
                while True:
                    try:
                        kind, _ = await asyncio.wait_for(self.read_response(group, reader),
                                                         max(0.0, leave - time.monotonic()))
                    except asyncio.TimeoutError:
                        self.count(f"{group}: left after 0.2 s")
                        break
                    self.count(f"{group}: {kind} response within 0.2 s")
            except (OSError, asyncio.IncompleteReadError, ConnectionEnded, ValueError):
                self.count(f"{group}: closed by the daemon first")
                await asyncio.sleep(0.1)
            finally:
                reset(writer)

    async def ffdhe_replay(self, group, index):
        """Sends the captured ffdhe8192-only ClientHello (raw bytes), reads what comes back
        within FFDHE_READ_SECONDS, resets, connects again: to the TCP port (even connections),
        or to --http and --metrics in turn (odd ones); a lone connection does all three."""
        if self.size == 1:
            listeners = ["tcp", "http", "metrics"]
        else:
            listeners = ["tcp"] if index % 2 == 0 else ["http", "metrics"]
        hello = self.args.ffdhe_hello
        sent = 0
        first = True
        while not self.stopping.is_set():
            listener = listeners[sent % len(listeners)]
            sent += 1
            try:
                reader, writer = await self.connect(self.ports[listener], raw=True)
            except (OSError, asyncio.TimeoutError) as error:
                self.count(f"{group}: {listener}: connect failed ({type(error).__name__})")
                await asyncio.sleep(0.5)
                continue
            if first:
                self.connected_once()
                first = False
            self.count(f"{group}: {listener}: connections")
            try:
                writer.write(hello)
                data = await asyncio.wait_for(reader.read(1 << 16), FFDHE_READ_SECONDS)
                outcome = ("closed" if not data else "ServerHello" if data[0] == 0x16
                           else "alert" if data[0] == 0x15 else f"a record of type {data[0]}")
            except asyncio.TimeoutError:
                outcome = f"no answer within {FFDHE_READ_SECONDS:g} s"
            except OSError:
                outcome = "closed"
            finally:
                reset(writer)
            self.count(f"{group}: {listener}: {outcome}")

    async def slow_tls(self, group):
        """Completes a TLS handshake, then sends one SolveRequest of SLOW_TLS_PUZZLES puzzles
        whose TLS records (up to 16 KiB: ssl.MemoryBIO makes them) it dribbles at
        SLOW_TLS_BYTES_PER_SECOND; counts "served" or the fault it got, and the time."""
        try:
            await self.slow_tls_once(group)
        finally:
            with self.shared.slow_done.get_lock():
                self.shared.slow_done.value += 1
        await self.stopping.wait()

    async def slow_tls_once(self, group):
        request = solve_frame(1, [p.encode() for p in generate_puzzles(SLOW_TLS_PUZZLES, 13)])
        connection = None
        for _ in range(5):
            connection = await self.connect_or_wait(group, True, raw=True)
            if connection is not None or self.stopping.is_set():
                break
        if connection is None:
            self.count(f"{group}: never connected")
            return
        reader, writer = connection
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        tls = self.tls.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
        plain = bytearray()

        async def receive():
            """Reads until a whole response frame is decrypted: its body, or why none."""
            while True:
                data = await reader.read(1 << 16)
                if not data:
                    return "closed by the daemon"
                incoming.write(data)
                try:
                    while True:
                        plain.extend(tls.read(1 << 16))
                except ssl.SSLWantReadError:
                    pass
                except ssl.SSLZeroReturnError:
                    return "closed by the daemon (close_notify)"
                body = split_message(plain)
                if body is not None:
                    return body

        start = time.monotonic()
        answer = None
        try:
            while True:
                try:
                    tls.do_handshake()
                    break
                except ssl.SSLWantReadError:
                    writer.write(outgoing.read())
                    data = await asyncio.wait_for(reader.read(1 << 16), 30)
                    if not data:
                        raise ConnectionResetError("closed during the handshake")
                    incoming.write(data)
            writer.write(outgoing.read())  # the client's Finished
            written = 0
            while written < len(request):
                written += tls.write(request[written:])
            stream = outgoing.read()
            records, i = 0, 0
            while i + 5 <= len(stream):
                records += 1
                i += 5 + int.from_bytes(stream[i + 3:i + 5], "big")
            receiving = asyncio.ensure_future(receive())
            receiving.add_done_callback(ignore_outcome)
            start, sent, piece = time.monotonic(), 0, SLOW_TLS_BYTES_PER_SECOND // 10
            try:
                while sent < len(stream) and not receiving.done() and not self.stopping.is_set():
                    writer.write(stream[sent:sent + piece])
                    sent += len(stream[sent:sent + piece])
                    await writer.drain()
                    await asyncio.sleep(max(0.0, start + sent / SLOW_TLS_BYTES_PER_SECOND
                                            - time.monotonic()))
            except OSError:
                pass  # closed by the daemon: what it said first, if anything, is read below
            self.count(f"{group}: {len(request):,}-byte frame in {records} TLS records of "
                       f"{len(stream):,} bytes; bytes sent", sent)
            stop = asyncio.ensure_future(self.stopping.wait())
            await asyncio.wait({receiving, stop}, timeout=SLOW_TLS_ANSWER_SECONDS,
                               return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if receiving.done():
                answer = receiving.result()
            else:
                receiving.cancel()
                answer = "no answer (the attack stopped first)" if self.stopping.is_set() else \
                    f"no answer within {SLOW_TLS_ANSWER_SECONDS} s of the last byte"
        except (OSError, asyncio.TimeoutError) as error:
            answer = f"{type(error).__name__}: {error}"
        finally:
            reset(writer)
        took = time.monotonic() - start
        if isinstance(answer, bytes):
            kind, fields = response_of(answer)
            if kind == "solve":
                answer = "served (a SolveResponse)"
            elif kind == "fault":
                message = fields.get(2, b"").decode(errors="replace")
                answer = f"fault {fault_name(fields)}: {message}"
            else:
                answer = f"a {kind} response"
        self.count(f"{group}: {answer}, {took:.1f} s after its first byte", 1)

    @staticmethod
    def storm_count(value):
        with value.get_lock():
            value.value += 1

    async def storm(self):
        """--storm faulty connections, --storm-at-once at a time; each expects its fault and the
        close. With --tls, some raw and the others inside TLS (STORM_PAYLOADS_TLS)."""
        queue = asyncio.Queue()
        payloads = (STORM_PAYLOADS_TLS if self.tls
                    else [(payload, True) for payload in STORM_PAYLOADS])
        for i in range(self.size):
            queue.put_nowait(payloads[i % len(payloads)])

        async def worker():
            while not queue.empty():
                payload, raw = queue.get_nowait()
                try:
                    reader, writer = await self.connect(raw=raw)
                except (OSError, asyncio.TimeoutError) as error:
                    self.count(f"storm: connect failed ({type(error).__name__})")
                    self.storm_count(self.shared.storm_done)
                    continue
                try:
                    writer.write(payload)
                    length = await asyncio.wait_for(self.read_frame_bytes(reader), timeout=30)
                    if length:
                        self.storm_count(self.shared.storm_faults)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                    self.count("storm: no fault")
                finally:
                    reset(writer)
                self.storm_count(self.shared.storm_done)

        await asyncio.gather(*(worker() for _ in range(self.args.storm_at_once)))

    async def main(self):
        self.stopping = asyncio.Event()
        loop = asyncio.get_running_loop()

        parent = os.getppid()

        def wait_for(event):
            """Waits for the parent's `event`; False when the parent has gone first (so that a
            group never outlives the run)."""
            while not event.wait(1):
                if os.getppid() != parent:
                    return False
            return True

        def wait_for_stop():
            wait_for(self.shared.stop)
            loop.call_soon_threadsafe(self.stopping.set)
        loop.run_in_executor(None, wait_for_stop)
        tasks = []
        args = self.args
        group = self.group
        stall = varint(1000) + b"\x0a\x10"  # a 1,000-byte frame begun, 2 bytes of it sent
        make = {
            "idle": lambda i: self.hold(group),
            "stalled": lambda i: self.hold(group, stall),
            "unfinished": lambda i: self.hold(group, varint(args.max_frame_bytes),
                                              self.unfinished_frame),
            "never read": lambda i: self.never_read(group),
            "maximal limit": lambda i: self.maximal_limit(group, 0),
            "generate": lambda i: self.generate(group, i),
            "explain": lambda i: self.explain(group, i),
            "leavers": lambda i: self.leaver(group),
            "big batches": lambda i: self.big_batches(group, self.big_batch_frame),
            # --http-idle on each HTTP listener: the even ones on --metrics, the odd on --http.
            "http idle": lambda i: self.hold(
                group, port=self.ports["metrics" if i % 2 == 0 else "http"]),
            "http generate": lambda i: self.http_posts(group, "/api/generate",
                                                       [HTTP_GENERATE_BODY]),
            "http explain leavers": lambda i: self.http_explain_leaver(group, i),
            "rate batches": lambda i: self.big_batches(group, self.rate_batch_frame),
            "http rated solves": lambda i: self.http_posts(group, "/api/solve",
                                                           self.rated_bodies[i:] +
                                                           self.rated_bodies[:i]),
            "generate leavers": lambda i: self.generate_leaver(group, i),
            "ffdhe replays": lambda i: self.ffdhe_replay(group, i),
            "slow TLS": lambda i: self.slow_tls(group),
            "idle TLS": lambda i: self.hold(group),
        }.get(group)
        if make:
            # A bounded number of connects at once: a burst of thousands of SYNs overflows the
            # listen backlog, and a dropped SYN waits a second to be sent again.
            for i in range(held_connections(group, self.size)):
                tasks.append(asyncio.ensure_future(make(i)))
                if i % 200 == 199:
                    await asyncio.sleep(0.02)
        else:  # the storm, once the parent says go, to its end
            if await loop.run_in_executor(None, wait_for, self.shared.storm_go):
                await self.storm()
        started = time.monotonic()
        await self.stopping.wait()
        if group == "ffdhe replays":
            hellos = sum(n for what, n in self.counts.items() if what.endswith(": ServerHello"))
            self.count(f"{group}: handshakes forced per second (ServerHellos over "
                       f"{time.monotonic() - started:.1f} s)",
                       round(hellos / max(0.001, time.monotonic() - started), 1))
        pending = set(tasks)
        while pending:
            # Cancelled again until done: a cancel that lands as an asyncio.wait_for ends can be
            # lost (before Python 3.12), and the task would go on.
            for task in pending:
                task.cancel()
            _, pending = await asyncio.wait(pending, timeout=1)
        # abort() resets the connection on the loop's next turns: let them come before the loop
        # closes, or a connection left to the garbage collector ends with a FIN, and the daemon
        # goes on solving the batch a half-closed peer sent (for seconds, at the cap).
        await asyncio.sleep(0.5)


class ConnectionEnded(Exception):
    """The daemon sent a fault: the connection is over."""


GROUPS = ["idle", "stalled", "unfinished", "never read", "maximal limit", "storm", "generate",
          "explain", "leavers", "big batches", "http idle", "http generate",
          "http explain leavers", "rate batches", "http rated solves", "generate leavers",
          "ffdhe replays", "slow TLS", "idle TLS"]
# The ones on the TCP port (--max-connections counts them; the ffdhe replays only half there).
TCP_GROUPS = GROUPS[:10] + ["rate batches", "generate leavers", "ffdhe replays", "slow TLS",
                            "idle TLS"]


def held_connections(group, size):
    """Connections a group of `size` holds: two per unit for http idle (one on each listener);
    none held for the storm, whose connections come and go."""
    if group == "storm":
        return 0
    return 2 * size if group == "http idle" else size


class SharedState:
    """What the group processes and the parent share."""

    def __init__(self):
        self.stop = multiprocessing.Event()
        self.storm_go = multiprocessing.Event()
        self.established = multiprocessing.Value("l", 0)
        self.storm_done = multiprocessing.Value("l", 0)
        self.storm_faults = multiprocessing.Value("l", 0)
        self.slow_done = multiprocessing.Value("l", 0)
        self.counts = multiprocessing.Queue()


def run_group(args, ports, group, size, shared):
    if args.attacker_cpus:
        os.sched_setaffinity(0, args.attacker_cpus)
    attack = Attack(args, ports, group, size, shared)
    try:
        asyncio.run(attack.main())
    finally:
        shared.counts.put((group, attack.counts))


class Attackers:
    """Every group at once, each in its own process; the groups `first` (if any) alone before
    the others, `between()` called once they have all connected."""

    def __init__(self, args, ports, first=(), between=None):
        self.shared = SharedState()
        self.sizes = group_sizes(args)
        self.processes = {
            g: multiprocessing.Process(target=run_group, args=(args, ports, g, n, self.shared),
                                       daemon=True)
            for g, n in self.sizes.items() if n > 0}
        early = [g for g in first if g in self.processes]
        for group in early + [g for g in self.processes if g not in early]:
            self.processes[group].start()
            RUNNING_ATTACKERS.append(self.processes[group])
            if early and group == early[-1]:
                self.wait_established(timeout=120, groups=early)
                if between:
                    between(self)

    def wait_established(self, timeout, groups=None):
        """Until every held connection (of `groups`, or of all) has connected once (or `timeout`
        s); how many did."""
        held = sum(held_connections(g, n) for g, n in self.sizes.items()
                   if groups is None or g in groups)
        give_up = time.monotonic() + timeout
        while self.shared.established.value < held and time.monotonic() < give_up:
            time.sleep(0.05)
        return self.shared.established.value, held

    def wait_for_storm(self, timeout):
        """Until every connection of the storm has had its answer (or `timeout` s)."""
        give_up = time.monotonic() + timeout
        while self.shared.storm_done.value < self.sizes["storm"] and time.monotonic() < give_up:
            time.sleep(0.05)

    def wait_for_slow_tls(self, timeout):
        """Until the slow TLS sender has its answer (or `timeout` s)."""
        give_up = time.monotonic() + timeout
        while (self.shared.slow_done.value < self.sizes.get("slow TLS", 0)
               and time.monotonic() < give_up):
            time.sleep(0.1)

    def stop(self, timeout=60):
        """Stops every group; what each counted. A group that has not stopped within `timeout`
        s is killed, and counted as such."""
        self.shared.stop.set()
        counts = {}
        waiting = set(self.processes)
        give_up = time.monotonic() + timeout
        while waiting:
            try:
                group, group_counts = self.shared.counts.get(
                    timeout=max(0.1, give_up - time.monotonic()))
            except queue.Empty:
                break
            waiting.discard(group)
            for what, n in group_counts.items():
                counts[what] = counts.get(what, 0) + n
        for group in waiting:
            counts[f"{group}: did not stop within {timeout} s (killed; its counts lost)"] = 1
            self.processes[group].kill()
        for process in self.processes.values():
            process.join()
        return counts


# ---- The daemon ----

RUNNING_DAEMON = []  # for --time-limit, which must not leave it running
RUNNING_ATTACKERS = []  # the same for the group processes

# Where the log says each listener's port (port 0 is asked for, the daemon picks).
LISTENER_LINES = {
    "tcp": r"listening on \S+:(\d+) ",
    "metrics": r"serving metrics on https?://\S+:(\d+)/metrics",
    "http": r"serving the page on https?://\S+:(\d+)/ ",
}


def start_daemon(args, log_path):
    """Starts sudokud (on the daemon's CPUs): with --defaults, its three listeners and nothing
    else; otherwise sized for the attack; with --tls, TLS on all three. The command, the
    process and the ports {"tcp", "metrics", "http"}."""
    command = [args.daemon, "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0",
               "--http", "127.0.0.1:0"]
    if args.tls:
        command += ["--tls-cert", args.tls_cert, "--tls-key", args.tls_key, "--http-tls"]
    if not args.defaults:
        command += ["--max-connections", str(args.max_connections), "--max-memory",
                    str(args.max_memory), "--max-frame-bytes", str(args.max_frame_bytes)]
    log = open(log_path, "wb")
    daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log,
                              preexec_fn=pinned(args.daemon_cpus))
    RUNNING_DAEMON.append(daemon)
    log.close()
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        with open(log_path, errors="replace") as text:
            log_text = text.read()
        found = {name: re.search(line, log_text) for name, line in LISTENER_LINES.items()}
        if all(found.values()):
            return command, daemon, {name: int(m.group(1)) for name, m in found.items()}
        if daemon.poll() is not None:
            break
        time.sleep(0.05)
    daemon.kill()
    daemon.wait()
    with open(log_path, errors="replace") as text:
        sys.exit(f"hostile_load: sudokud did not start:\n{text.read()}")


def make_certificate(workdir):
    """A throwaway self-signed certificate and its key (P-256, CN localhost, for 127.0.0.1 and
    localhost), made in `workdir`, which goes with the run: (certificate, key) paths."""
    cert, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-keyout", key, "-out", cert, "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"hostile_load: openssl req could not make the certificate:\n{made.stderr}")
    return cert, key


def client_tls_context(cert):
    """A client's TLS context that trusts `cert` (the run's self-signed certificate) alone."""
    return ssl.create_default_context(cafile=cert)


def capture_ffdhe_hello(cpus):
    """The first TLS record `openssl s_client -tls1_3 -groups ffdhe8192` sends (its ClientHello,
    offering that group only), caught by a one-shot listener on 127.0.0.1:0."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(20)
        client = subprocess.Popen(
            ["openssl", "s_client", "-connect", f"127.0.0.1:{listener.getsockname()[1]}",
             "-tls1_3", "-groups", "ffdhe8192"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=pinned(cpus))
        try:
            connection, _ = listener.accept()
            with connection:
                connection.settimeout(20)
                record = b""
                while len(record) < 5 or len(record) < 5 + int.from_bytes(record[3:5], "big"):
                    data = connection.recv(1 << 16)
                    if not data:
                        break
                    record += data
        except OSError as error:
            record = f"{type(error).__name__}: {error}".encode()
        finally:
            client.kill()
            stderr = client.communicate()[1].decode(errors="replace").strip()
    if record[:3] != b"\x16\x03\x01" or len(record) < 5 + int.from_bytes(record[3:5], "big"):
        sys.exit(f"hostile_load: no ClientHello from openssl s_client -groups ffdhe8192 "
                 f"({record[:60]!r}); its stderr: {stderr}")
    return record[:5 + int.from_bytes(record[3:5], "big")]


class ReadyProbe:
    """GETs /readyz (HTTPS with --tls) every PERIOD s (a new connection each, TIMEOUT s for the
    answer), as a load balancer does, until stopped; counts the probes answered 200 and the
    others. Samples the daemon's peak RSS as it goes, so that it is known even if the daemon
    dies."""
    PERIOD = 0.5
    TIMEOUT = 2.0

    def __init__(self, port, daemon_pid, tls_cert=None):
        self.port = port
        self.tls = client_tls_context(tls_cert) if tls_cert else None
        self.daemon_pid = daemon_pid
        self.peak_rss = 0
        self.ready = 0
        self.probes = 0
        self.slowest = 0.0
        self.first_failure = None
        self.stopping = threading.Event()
        self.start_time = time.monotonic()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def probe(self):
        """None when ready, else why not."""
        if self.tls:
            connection = http.client.HTTPSConnection("127.0.0.1", self.port,
                                                     timeout=self.TIMEOUT, context=self.tls)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                    timeout=self.TIMEOUT)
        try:
            connection.request("GET", "/readyz", headers={"Connection": "close"})
            response = connection.getresponse()
            body = response.read().decode(errors="replace").strip()
            return None if response.status == 200 else f"{response.status} {body}"
        except (OSError, http.client.HTTPException) as error:
            return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        finally:
            connection.close()

    def run(self):
        while not self.stopping.is_set():
            start = time.monotonic()
            failure = self.probe()
            took = time.monotonic() - start
            self.slowest = max(self.slowest, took)
            self.probes += 1
            if failure is None:
                self.ready += 1
            elif self.first_failure is None:
                self.first_failure = (f"{failure} ({start - self.start_time:.1f} s into the "
                                      f"attack, after {took:.2f} s)")
            self.peak_rss = max(self.peak_rss, peak_rss_bytes(self.daemon_pid))
            self.stopping.wait(max(0.0, self.PERIOD - took))

    def stop(self):
        self.stopping.set()
        self.thread.join()
        return self

    def describe(self):
        text = (f"readyz during the attack: {self.ready} of {self.probes} probes ready "
                f"(slowest answer {self.slowest:.2f} s)")
        if self.first_failure:
            text += f"; first failure: {self.first_failure}"
        return text


def log_kinds(lines, top=15, width=60):
    """The distinct kinds of log line: each line with its numbers as N and the 'sudokud: '
    prefix dropped, cut to `width` characters; (count, kind) most frequent first."""
    kinds = collections.Counter()
    for line in lines:
        text = line.decode(errors="replace")
        if text.startswith("sudokud: "):
            text = text[len("sudokud: "):]
        kinds[re.sub(r"\d+", "N", text)[:width]] += 1
    return kinds.most_common(top), len(kinds)


def group_sizes(args):
    """Each group's size, by name (http idle: on each HTTP listener); the TLS groups only with
    --tls."""
    sizes = {"idle": args.idle, "stalled": args.stalled, "unfinished": args.unfinished,
             "never read": args.never_read, "maximal limit": args.maximal, "storm": args.storm,
             "generate": args.generate, "explain": args.explain, "leavers": args.leavers,
             "big batches": args.big_batches, "http idle": args.http_idle,
             "http generate": args.http_generate,
             "http explain leavers": args.http_explain_leavers,
             "rate batches": args.rate_batches, "http rated solves": args.http_rated,
             "generate leavers": args.generate_leavers}
    if args.tls:
        sizes.update({"ffdhe replays": args.ffdhe_replays, "slow TLS": args.slow_tls,
                      "idle TLS": args.idle_tls})
    return sizes


def peak_rss_bytes(pid, field="VmHWM"):
    """The process's peak RSS (VmHWM), or its RSS now (field VmRSS); 0 once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--daemon", required=True, help="the sudokud binary")
    ap.add_argument("--client", required=True, help="the sudoku-client binary")
    ap.add_argument("--puzzles",
                    help="the normal client's puzzle file (default: --count made here)")
    ap.add_argument("--count", type=int, help="puzzles to make when --puzzles is not given")
    ap.add_argument("--verify", help="also check the answers with this script (PUZZLES OUTPUT)")
    ap.add_argument("--quick", action="store_true",
                    help="small counts, to check that the script works (the ctest test)")
    ap.add_argument("--defaults", action="store_true",
                    help="start sudokud with no flag beyond its listeners (every limit its "
                         "default), against issue 28's crowd")
    ap.add_argument("--tls", action="store_true",
                    help="TLS on the TCP port and HTTPS on --metrics and --http (a self-signed "
                         "certificate made for the run), and the TLS groups")
    ap.add_argument("--attacker-cpus", metavar="LIST",
                    help="run every attacker on these CPUs (taskset -c's form), sudokud and the "
                         "normal client on the others; empty: no split (default: the last CPU, "
                         "given 2 or more)")
    ap.add_argument("--idle", type=int)
    ap.add_argument("--stalled", type=int)
    ap.add_argument("--unfinished", type=int)
    ap.add_argument("--never-read", type=int)
    ap.add_argument("--never-read-batch", type=int)
    ap.add_argument("--maximal", type=int)
    ap.add_argument("--storm", type=int)
    ap.add_argument("--storm-at-once", type=int, default=32)
    ap.add_argument("--generate", type=int, help="connections asking for generated puzzles")
    ap.add_argument("--generate-count", type=int, help="puzzles per generate request")
    ap.add_argument("--explain", type=int, help="connections pipelining explain requests")
    ap.add_argument("--leavers", type=int, help="connections that send work and leave")
    ap.add_argument("--big-batches", type=int, help="connections sending big batches")
    ap.add_argument("--big-batch", type=int, help="puzzles in each big batch")
    ap.add_argument("--http-idle", type=int, help="idle sockets on each HTTP listener")
    ap.add_argument("--http-generate", type=int, help="connections POSTing /api/generate")
    ap.add_argument("--http-explain-leavers", type=int,
                    help="connections POSTing /api/explain and leaving after 0.3 s")
    ap.add_argument("--rate-batches", type=int,
                    help="connections sending rated batches of forum-hardest puzzles")
    ap.add_argument("--rate-batch", type=int, help="puzzles in each rate batch")
    ap.add_argument("--http-rated", type=int,
                    help="connections POSTing rated /api/solve of forum-hardest puzzles")
    ap.add_argument("--generate-leavers", type=int,
                    help="connections asking for puzzles of se_min 11.0, reset after 0.2 s")
    ap.add_argument("--generate-leaver-count", type=int,
                    help="puzzles per generate leaver's request")
    ap.add_argument("--ffdhe-replays", type=int,
                    help="(--tls) connections replaying an ffdhe8192-only ClientHello")
    ap.add_argument("--slow-tls", type=int,
                    help="(--tls) connections dribbling a 40 KB request's TLS records at "
                         "1,400 bytes/s (--quick: 0 unless given)")
    ap.add_argument("--idle-tls", type=int,
                    help="(--tls) connections that complete the handshake and send nothing")
    ap.add_argument("--max-memory", type=int, help="the daemon's --max-memory (sized runs)")
    ap.add_argument("--max-frame-bytes", type=int,
                    help="the daemon's --max-frame-bytes (sized runs)")
    ap.add_argument("--max-connections", type=int,
                    help="the daemon's --max-connections (sized runs; default: room for all)")
    ap.add_argument("--warmup", type=float,
                    help="seconds the attack runs before the normal client starts")
    ap.add_argument("--attack-seconds", type=float,
                    help="the attack lasts at least this long (the /readyz probes with it)")
    ap.add_argument("--log", help="keep the daemon's log in this file")
    ap.add_argument("--time-limit", type=float, default=600,
                    help="seconds the whole run may take before it is abandoned")
    args = ap.parse_args()
    # The sized run's crowd, the --defaults run's (issue 28, item 10, plus items 4-7), and the
    # small one of --quick (either mode).
    full = dict(count=100_000, idle=10_000, stalled=2_000, unfinished=100, never_read=4,
                never_read_batch=65_536, maximal=2, storm=20_000, generate=2,
                generate_count=1_024, explain=2, leavers=64, big_batches=64, big_batch=65_536,
                http_idle=64, http_generate=8, http_explain_leavers=8, rate_batches=4,
                rate_batch=8_192, http_rated=8, generate_leavers=40,
                generate_leaver_count=65_536, ffdhe_replays=16, slow_tls=1, idle_tls=1_900,
                max_memory=1 << 30, warmup=2.0, attack_seconds=30.0)
    full_defaults = dict(full, idle=5_000, stalled=1_000, unfinished=50, never_read=4,
                         maximal=2, storm=0)
    quick = dict(count=2_000, idle=200, stalled=50, unfinished=3, never_read=2,
                 never_read_batch=4_096, maximal=2, storm=300, generate=1, generate_count=1_024,
                 explain=1, leavers=4, big_batches=4, big_batch=4_096, http_idle=4,
                 http_generate=2, http_explain_leavers=2, rate_batches=1, rate_batch=64,
                 http_rated=2, generate_leavers=2, generate_leaver_count=1_024,
                 ffdhe_replays=2, slow_tls=0, idle_tls=20, max_memory=256 << 20,
                 warmup=1.0, attack_seconds=5.0)
    if args.defaults:
        sizing = [flag for flag, value in (("--max-memory", args.max_memory),
                                           ("--max-connections", args.max_connections),
                                           ("--max-frame-bytes", args.max_frame_bytes))
                  if value is not None]
        if sizing:
            ap.error(f"--defaults runs sudokud with its default limits: {', '.join(sizing)} "
                     "does not apply")
        # What the daemon uses when not told: the budget the goals hold it to.
        args.max_memory = DEFAULT_MAX_MEMORY
        args.max_frame_bytes = MAX_FRAME_BYTES
    elif args.max_frame_bytes is None:
        args.max_frame_bytes = MAX_FRAME_BYTES
    if not args.tls:
        tls_only = [f"--{name.replace('_', '-')}" for name in ("ffdhe_replays", "slow_tls",
                                                               "idle_tls") if getattr(args, name)]
        if tls_only:
            ap.error(f"{', '.join(tls_only)}: TLS groups, for a --tls run")
    for name, value in (quick if args.quick else full_defaults if args.defaults else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    allowed = os.sched_getaffinity(0)
    if args.attacker_cpus is None:
        args.attacker_cpus = str(max(allowed)) if len(allowed) >= 2 else ""
    try:
        attacker_cpus = parse_cpus(args.attacker_cpus)
    except ValueError as error:
        ap.error(f"--attacker-cpus {args.attacker_cpus!r}: {error}")
    if attacker_cpus - allowed:
        ap.error(f"--attacker-cpus {args.attacker_cpus!r}: this script may use CPUs "
                 f"{cpu_list(allowed)} only")
    if attacker_cpus and not allowed - attacker_cpus:
        ap.error(f"--attacker-cpus {args.attacker_cpus!r} leaves no CPU for sudokud and the "
                 "normal client")
    args.attacker_cpus = attacker_cpus  # empty: no split
    args.daemon_cpus = allowed - attacker_cpus if attacker_cpus else set()
    args.tls_cert = args.tls_key = args.ffdhe_hello = None  # made in the run's directory
    sizes = group_sizes(args)
    held = sum(held_connections(g, n) for g, n in sizes.items())
    held_tcp = sum(held_connections(g, sizes[g]) for g in TCP_GROUPS if g in sizes)
    if args.max_connections is None and not args.defaults:
        # Room for every attacker on the TCP port, the storm and the normal client: nobody is
        # refused for the count alone, so what is measured is the rest of the defences.
        args.max_connections = held_tcp + args.storm_at_once + 64

    descriptors = raise_descriptor_limit()
    if descriptors < held + args.storm_at_once + 256:
        sys.exit(f"hostile_load: the descriptor limit ({descriptors}) is below what "
                 f"{held} held connections need; raise `ulimit -Hn` or lower the counts")
    def give_up():
        print(f"hostile_load: gave up after --time-limit {args.time_limit} s", flush=True)
        for process in RUNNING_ATTACKERS:
            process.kill()
        if RUNNING_DAEMON:
            RUNNING_DAEMON[0].kill()
        os._exit(1)
    alarm = threading.Timer(args.time_limit, give_up)
    alarm.daemon = True
    alarm.start()

    if args.defaults:
        print("mode: --defaults (sudokud with its listeners only; default limits, memory "
              f"budget {DEFAULT_MAX_MEMORY / 2**20:.0f} MiB)", flush=True)
    else:
        print(f"mode: sized (--max-connections {args.max_connections}, --max-memory "
              f"{args.max_memory}, --max-frame-bytes {args.max_frame_bytes})", flush=True)
    if args.tls:
        print("TLS: --tls-cert, --tls-key and --http-tls (a self-signed P-256 certificate made "
              "for the run): TLS on the TCP port, HTTPS on --metrics and --http", flush=True)
    if attacker_cpus:
        print(f"CPUs: sudokud and the normal client on {cpu_list(args.daemon_cpus)}, every "
              f"attacker on {cpu_list(attacker_cpus)} (--attacker-cpus)", flush=True)
    else:
        print(f"CPUs: no split (--attacker-cpus is empty): everyone on {cpu_list(allowed)}",
              flush=True)
    print("groups: " + ", ".join(
        f"{g} {n:,}" + (" on each HTTP listener" if g == "http idle" else "")
        for g, n in sizes.items()) + f"; big batches of {args.big_batch:,}, never-read batches "
        f"of {args.never_read_batch:,}, generate requests of {args.generate_count:,}, rate "
        f"batches of {args.rate_batch:,}, generate leavers asking for "
        f"{args.generate_leaver_count:,} (se_min {GENERATE_LEAVER_SE_MIN / 10:.1f})"
        + (" (--quick)" if args.quick else ""), flush=True)

    with tempfile.TemporaryDirectory(prefix="hostile_load.") as workdir:
        args.workdir = workdir
        if args.puzzles:
            puzzles_path = args.puzzles
            with open(puzzles_path) as f:
                puzzles = f.read().splitlines()
        else:
            puzzles_path = os.path.join(workdir, "puzzles.txt")
            puzzles = generate_puzzles(args.count)
            with open(puzzles_path, "w") as f:
                f.write("\n".join(puzzles) + "\n")
        if args.tls:
            args.tls_cert, args.tls_key = make_certificate(workdir)
            if sizes.get("ffdhe replays"):
                args.ffdhe_hello = capture_ffdhe_hello(args.attacker_cpus)
                print(f"ffdhe replays: a {len(args.ffdhe_hello):,}-byte ClientHello record "
                      "offering ffdhe8192 only, from openssl s_client", flush=True)
        log_path = os.path.join(workdir, "sudokud.log")
        command, daemon, ports = start_daemon(args, log_path)
        port = ports["tcp"]
        idle_tls = {}
        try:
            daemon_cpu = {"sudokud": [daemon.pid]}
            idle_before = ClientRun(args, port, puzzles_path, "idle daemon", daemon_cpu)
            setup_start = time.monotonic()

            def idle_tls_connected(attackers):
                """The idle TLS connections have all connected, alone: their RSS."""
                idle_tls["connected"] = attackers.shared.established.value
                idle_tls["peak"] = 0
                for _ in range(5):
                    idle_tls["peak"] = max(idle_tls["peak"],
                                           peak_rss_bytes(daemon.pid, "VmRSS"))
                    time.sleep(0.1)
            idle_tls["before"] = peak_rss_bytes(daemon.pid, "VmRSS")
            attackers = Attackers(args, ports, first=["idle TLS"], between=idle_tls_connected)
            ready_probe = ReadyProbe(ports["metrics"], daemon.pid, args.tls_cert)
            connected, held = attackers.wait_established(timeout=120)
            established = time.monotonic()
            print(f"attackers connected in {established - setup_start:.1f} s: {connected} of "
                  f"{held} held connections", flush=True)
            attackers.shared.storm_go.set()
            time.sleep(args.warmup)  # the attack in full swing before the client comes
            attacked = ClientRun(args, port, puzzles_path, "attacked daemon",
                                 dict(daemon_cpu,
                                      attackers=[p.pid for p in attackers.processes.values()]))
            storm_during = attackers.shared.storm_done.value
            attackers.wait_for_storm(timeout=300)
            attackers.wait_for_slow_tls(timeout=180)
            time.sleep(max(0.0, established + args.attack_seconds - time.monotonic()))
            print(f"attack stopped after {time.monotonic() - established:.1f} s (client started "
                  f"after {args.warmup:g} s, at least {args.attack_seconds:g} s in all)",
                  flush=True)
            rss_attacked = max(ready_probe.peak_rss, peak_rss_bytes(daemon.pid))
            ready_probe.stop()
            counts = attackers.stop()
            print(f"storm: {attackers.shared.storm_done.value} faulty connections ({storm_during} "
                  f"by the time the client was done), {attackers.shared.storm_faults.value} "
                  f"answered with a fault", flush=True)
            for what, n in sorted(counts.items()):
                print(f"  {what}: {n}")
            print(ready_probe.describe(), flush=True)
            left = time.monotonic()  # every attacker process has ended, its connections reset
            idle_after = ClientRun(args, port, puzzles_path, "idle daemon again", daemon_cpu)
            if "connected" in idle_tls:
                time.sleep(max(0.0, left + IDLE_TLS_AFTER_SECONDS - time.monotonic()))
                idle_tls["after"] = peak_rss_bytes(daemon.pid, "VmRSS")
                before, peak, after, connected = (idle_tls[what] for what in (
                    "before", "peak", "after", "connected"))
                print(f"idle TLS: RSS {before / 2**20:.0f} MiB before they connected, "
                      f"{peak / 2**20:.0f} MiB once {connected:,} of {args.idle_tls:,} had "
                      f"(alone); RSS per idle TLS connection: "
                      f"{(peak - before) / 1024 / max(1, connected):.0f} KiB; RSS after they "
                      f"left: {after / 2**20:.0f} MiB (start {before / 2**20:.0f} MiB), "
                      f"{IDLE_TLS_AFTER_SECONDS:g} s after every attacker had gone", flush=True)
            for run in (idle_before, attacked, idle_after):
                print(run.check(args, puzzles).describe(), flush=True)
            alive = daemon.poll() is None
            rss = max(rss_attacked, peak_rss_bytes(daemon.pid) if alive else 0)
        finally:
            if daemon.poll() is None:
                daemon.send_signal(signal.SIGTERM)
            try:
                daemon_status = daemon.wait(timeout=120)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon_status = daemon.wait()
        with open(log_path, "rb") as log:
            log_bytes = log.read()
        log_lines = log_bytes.splitlines()
        if args.log:
            with open(args.log, "wb") as kept:
                kept.write(log_bytes)
        budget = (f"the default --max-memory {args.max_memory / 2**20:.0f} MiB" if args.defaults
                  else f"--max-memory {args.max_memory / 2**20:.0f} MiB")
        shown = " ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(command))
        print(f"sudokud: {shown}")
        print(f"sudokud peak RSS (VmHWM): {rss / 2**20:.0f} MiB of {budget}; "
              f"{len(log_lines)} log lines; exit {daemon_status}")
        if not alive:
            died = (f"killed by {signal.Signals(-daemon_status).name}" if daemon_status < 0
                    else f"exit {daemon_status}")
            print(f"sudokud DIED during the run ({died}): the peak RSS is the last sampled")
        kinds, distinct = log_kinds(log_lines)
        print(f"log line kinds ({distinct} distinct; numbers as N, first 60 characters; "
              f"top {len(kinds)}):")
        for kind, n in kinds:
            print(f"  {n:7d}  {kind}")
        for line in log_lines[-1:]:
            print(f"  last log line: {line.decode(errors='replace')}")

    idle_total = (idle_before.total + idle_after.total) / 2
    # How much later than on the idle daemon the run started as the attackers left was done.
    recovery = max(0.0, idle_after.end - left - idle_before.total)
    goals = [
        (f"first answer within {FIRST_ANSWER_GOAL:g} s (attacked: "
         f"{'none' if attacked.first is None else f'{attacked.first:.2f} s'})",
         attacked.first is not None and attacked.first <= FIRST_ANSWER_GOAL),
        (f"total within 2x idle + 1 s ({attacked.total:.2f} s vs {idle_total:.2f} s idle, mean "
         f"of before and after; every answer in)",
         attacked.ok() and attacked.total <= 2 * idle_total + 1.0),
        (f"peak RSS within the memory budget ({rss / 2**20:.0f} MiB of "
         f"{args.max_memory / 2**20:.0f} MiB)", rss <= args.max_memory),
        (f"/readyz ready on every probe ({ready_probe.ready} of {ready_probe.probes})",
         ready_probe.probes > 0 and ready_probe.ready == ready_probe.probes),
        (f"back to idle speed within {RECOVERY_GOAL:g} s after the attackers left (recovery "
         f"{recovery:.2f} s: the run started as they left was done {idle_after.end - left:.2f} "
         f"s after, in {idle_after.total:.2f} s; idle before: {idle_before.total:.2f} s)",
         idle_after.ok() and recovery <= RECOVERY_GOAL),
    ]
    for goal, met in goals:
        print(f"goal {'met' if met else 'MISSED'}: {goal}")
    ok = (idle_before.ok() and attacked.ok() and idle_after.ok() and alive and daemon_status == 0)
    print("hostile_load: " + ("every answer right, daemon served throughout and exited 0" if ok
                              else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
