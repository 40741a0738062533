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
then once more idle. The normal client starts --warmup s (2; 1 with --quick) after every
attacker has connected, and the attack goes on until it is done, the storm is over and
--attack-seconds (30; 5 with --quick) have passed. Every answer of the normal client is checked
(a complete valid grid that keeps the givens; with --verify, also by that script). While the
attack runs, a prober GETs /readyz on --metrics every 0.5 s (2 s timeout) as a load balancer
would.

Two modes. By default (sized) the daemon gets --max-connections room for every attacker,
--max-memory and --max-frame-bytes, as an operator sizing it for the load would. With --defaults
it gets nothing beyond its three listeners (`--listen 127.0.0.1:0 --metrics 127.0.0.1:0 --http
127.0.0.1:0`): every limit is the daemon's default (--max-memory 4 GiB, --max-connections 1,024),
and the full-size crowd is issue 28's item 10 (5,000 idle, 1,000 stalled, 50 unfinished 16 MiB
frames, 4 never read, 2 at the maximal limit; no storm unless --storm says so) plus the new
groups above, where the sized run keeps its bigger crowd (10,000 idle, 2,000 stalled, 100
unfinished, a storm of 20,000). The new groups' full sizes, in both modes: generate 2, explain
2, leavers 64, big batches 64 (of 65,536 puzzles), http idle 64 on each listener, http generate
8, http explain leavers 8. --quick uses the same small counts in both modes (1 to 4 of each new
group, big batches of 4,096).

Prints which mode ran, the group sizes, the normal client's time to the first answer and in
total, idle and attacked, what happened to each group's connections, /readyz during the attack,
the daemon's peak RSS (VmHWM) against its memory budget, its log lines and their kinds; then
whether each goal was met: first answer within 2 s, total within twice the idle figure plus 1 s,
peak RSS within the memory budget, /readyz ready on every probe, and the daemon back to its idle
speed after the attackers left.

Loopback only (127.0.0.x); bounded in count (every group has a fixed size; reconnects stop when
the attacked run ends) and in time (--time-limit). Python 3 standard library only.

Exit status: 0 when every answer was right and the daemon served to the end and exited 0;
1 otherwise. The goals are printed, not part of the exit status (timings on a shared machine are
not a verdict): --quick runs small counts as a check that the script itself works.

usage: hostile_load.py --daemon SUDOKUD --client SUDOKU_CLIENT [--puzzles FILE | --count N]
                       [--verify VERIFY.py] [--quick] [--defaults] [group sizes...]
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


def solve_frame(batch_id, puzzles, solution_limit=0):
    """A Request{solve: SolveRequest{batch_id, puzzles, solution_limit}} frame."""
    solve = varint(1 << 3) + varint(batch_id)
    solve += b"".join(length_delimited(2, p) for p in puzzles)
    if solution_limit:
        solve += varint(3 << 3) + varint(solution_limit)
    return frame(length_delimited(1, solve))


def generate_frame(request_id, count, seed, first_index, minimal=True, symmetric=True):
    """A Request{generate: GenerateRequest{request_id, count, seed, first_index, symmetric,
    minimal}} frame (clues and difficulty unset)."""
    generate = varint(1 << 3) + varint(request_id) + varint(2 << 3) + varint(count)
    generate += varint(3 << 3) + varint(seed) + varint(4 << 3) + varint(first_index)
    if symmetric:
        generate += varint(6 << 3) + varint(1)
    if minimal:
        generate += varint(7 << 3) + varint(1)
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
    """One `sudoku-client solve` of the puzzle file, timed: to its first output line, to exit."""

    def __init__(self, args, port, puzzles_path, label, cpu_of):
        self.label = label
        self.puzzles_path = puzzles_path
        self.output_path = os.path.join(args.workdir, label.replace(" ", "_") + ".out")
        command = [args.client, "solve", "--connect", f"127.0.0.1:{port}", puzzles_path]
        cpu_before = {name: cpu_seconds(pids) for name, pids in cpu_of.items()}
        start = time.monotonic()
        first = None
        with open(self.output_path, "wb") as output, \
                subprocess.Popen(command, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) as process:
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
        self.total = time.monotonic() - start
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
        return text


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
        # The main figure of each group, so that it is printed even when it stays 0.
        for what in {"generate": ["requests answered", "puzzles received"],
                     "explain": ["answered"], "leavers": ["left after 0.5 s"],
                     "big batches": ["batches answered"], "http idle": ["reconnected"],
                     "http generate": ["answered 200"],
                     "http explain leavers": ["left after 0.3 s"]}.get(group, []):
            self.count(f"{group}: {what}", 0)

    def connected_once(self):
        with self.shared.established.get_lock():
            self.shared.established.value += 1

    def count(self, what, n=1):
        self.counts[what] = self.counts.get(what, 0) + n

    def source(self):
        self.next_source += 1
        return (f"127.0.0.{2 + self.next_source % 250}", 0)

    async def connect(self, port=None):
        return await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port or self.port, local_addr=self.source(),
                                    limit=1 << 16),
            timeout=30)

    async def connect_or_wait(self, group, first, port=None):
        """Connects (counting the first connect of a connection, or a reconnect); on failure
        counts it and waits 0.5 s. The reader and writer, or None."""
        try:
            reader, writer = await self.connect(port)
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

    async def big_batches(self, group):
        """Sends one --big-batch puzzle batch, reads its answer, sends it again."""
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first)
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                while not self.stopping.is_set():
                    writer.write(self.big_batch_frame)
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

    async def http_generate(self, group):
        """POSTs /api/generate (16 minimal symmetric puzzles) again and again, keep-alive."""
        request = http_request("POST", "/api/generate", HTTP_GENERATE_BODY)
        first = True
        while not self.stopping.is_set():
            connection = await self.connect_or_wait(group, first, self.ports["http"])
            if connection is None:
                continue
            first = False
            reader, writer = connection
            try:
                while not self.stopping.is_set():
                    writer.write(request)
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

    @staticmethod
    def storm_count(value):
        with value.get_lock():
            value.value += 1

    async def storm(self):
        """--storm faulty connections, --storm-at-once at a time; each expects its fault and the
        close."""
        queue = asyncio.Queue()
        for i in range(self.size):
            queue.put_nowait(STORM_PAYLOADS[i % len(STORM_PAYLOADS)])

        async def worker():
            while not queue.empty():
                payload = queue.get_nowait()
                try:
                    reader, writer = await self.connect()
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
            "big batches": lambda i: self.big_batches(group),
            # --http-idle on each HTTP listener: the even ones on --metrics, the odd on --http.
            "http idle": lambda i: self.hold(
                group, port=self.ports["metrics" if i % 2 == 0 else "http"]),
            "http generate": lambda i: self.http_generate(group),
            "http explain leavers": lambda i: self.http_explain_leaver(group, i),
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
        await self.stopping.wait()
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
          "http explain leavers"]
TCP_GROUPS = GROUPS[:10]  # the ones on the TCP port (--max-connections counts them)


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
        self.counts = multiprocessing.Queue()


def run_group(args, ports, group, size, shared):
    attack = Attack(args, ports, group, size, shared)
    try:
        asyncio.run(attack.main())
    finally:
        shared.counts.put((group, attack.counts))


class Attackers:
    """Every group at once, each in its own process."""

    def __init__(self, args, ports):
        self.shared = SharedState()
        self.sizes = group_sizes(args)
        self.processes = {
            g: multiprocessing.Process(target=run_group, args=(args, ports, g, n, self.shared),
                                       daemon=True)
            for g, n in self.sizes.items() if n > 0}
        for process in self.processes.values():
            process.start()
            RUNNING_ATTACKERS.append(process)

    def wait_established(self, timeout):
        """Until every held connection has connected once (or `timeout` s); how many did."""
        held = sum(held_connections(g, n) for g, n in self.sizes.items())
        give_up = time.monotonic() + timeout
        while self.shared.established.value < held and time.monotonic() < give_up:
            time.sleep(0.05)
        return self.shared.established.value, held

    def wait_for_storm(self, timeout):
        """Until every connection of the storm has had its answer (or `timeout` s)."""
        give_up = time.monotonic() + timeout
        while self.shared.storm_done.value < self.sizes["storm"] and time.monotonic() < give_up:
            time.sleep(0.05)

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
    "metrics": r"serving metrics on http://\S+:(\d+)/metrics",
    "http": r"serving the page on http://\S+:(\d+)/ ",
}


def start_daemon(args, log_path):
    """Starts sudokud: with --defaults, its three listeners and nothing else; otherwise sized
    for the attack. The command, the process and the ports {"tcp", "metrics", "http"}."""
    command = [args.daemon, "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0",
               "--http", "127.0.0.1:0"]
    if not args.defaults:
        command += ["--max-connections", str(args.max_connections), "--max-memory",
                    str(args.max_memory), "--max-frame-bytes", str(args.max_frame_bytes)]
    log = open(log_path, "wb")
    daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
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


class ReadyProbe:
    """GETs /readyz every PERIOD s (a new connection each, TIMEOUT s for the answer), as a load
    balancer does, until stopped; counts the probes answered 200 and the others. Samples the
    daemon's peak RSS as it goes, so that it is known even if the daemon dies."""
    PERIOD = 0.5
    TIMEOUT = 2.0

    def __init__(self, port, daemon_pid):
        self.port = port
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
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.TIMEOUT)
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
    """Each group's size, by name (http idle: on each HTTP listener)."""
    return {"idle": args.idle, "stalled": args.stalled, "unfinished": args.unfinished,
            "never read": args.never_read, "maximal limit": args.maximal, "storm": args.storm,
            "generate": args.generate, "explain": args.explain, "leavers": args.leavers,
            "big batches": args.big_batches, "http idle": args.http_idle,
            "http generate": args.http_generate,
            "http explain leavers": args.http_explain_leavers}


def peak_rss_bytes(pid):
    """The process's peak RSS (VmHWM); 0 once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
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
                http_idle=64, http_generate=8, http_explain_leavers=8, max_memory=1 << 30,
                warmup=2.0, attack_seconds=30.0)
    full_defaults = dict(full, idle=5_000, stalled=1_000, unfinished=50, never_read=4,
                         maximal=2, storm=0)
    quick = dict(count=2_000, idle=200, stalled=50, unfinished=3, never_read=2,
                 never_read_batch=4_096, maximal=2, storm=300, generate=1, generate_count=1_024,
                 explain=1, leavers=4, big_batches=4, big_batch=4_096, http_idle=4,
                 http_generate=2, http_explain_leavers=2, max_memory=256 << 20,
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
    for name, value in (quick if args.quick else full_defaults if args.defaults else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    sizes = group_sizes(args)
    held = sum(held_connections(g, n) for g, n in sizes.items())
    held_tcp = sum(held_connections(g, sizes[g]) for g in TCP_GROUPS)
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
    print("groups: " + ", ".join(
        f"{g} {n:,}" + (" on each HTTP listener" if g == "http idle" else "")
        for g, n in sizes.items()) + f"; big batches of {args.big_batch:,}, never-read batches "
        f"of {args.never_read_batch:,}, generate requests of {args.generate_count:,}"
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
        log_path = os.path.join(workdir, "sudokud.log")
        command, daemon, ports = start_daemon(args, log_path)
        port = ports["tcp"]
        try:
            daemon_cpu = {"sudokud": [daemon.pid]}
            idle_before = ClientRun(args, port, puzzles_path, "idle daemon", daemon_cpu)
            setup_start = time.monotonic()
            attackers = Attackers(args, ports)
            ready_probe = ReadyProbe(ports["metrics"], daemon.pid)
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
            idle_after = ClientRun(args, port, puzzles_path, "idle daemon again", daemon_cpu)
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
    goals = [
        (f"first answer within 2 s (attacked: "
         f"{'none' if attacked.first is None else f'{attacked.first:.2f} s'})",
         attacked.first is not None and attacked.first <= 2.0),
        (f"total within 2x idle + 1 s ({attacked.total:.2f} s vs {idle_total:.2f} s idle, mean "
         f"of before and after; every answer in)",
         attacked.ok() and attacked.total <= 2 * idle_total + 1.0),
        (f"peak RSS within the memory budget ({rss / 2**20:.0f} MiB of "
         f"{args.max_memory / 2**20:.0f} MiB)", rss <= args.max_memory),
        (f"/readyz ready on every probe ({ready_probe.ready} of {ready_probe.probes})",
         ready_probe.probes > 0 and ready_probe.ready == ready_probe.probes),
        (f"back to idle speed once the attackers left (after: {idle_after.total:.2f} s, "
         f"before: {idle_before.total:.2f} s; within 2x + 1 s)",
         idle_after.ok() and idle_after.total <= 2 * idle_before.total + 1.0),
    ]
    for goal, met in goals:
        print(f"goal {'met' if met else 'MISSED'}: {goal}")
    ok = (idle_before.ok() and attacked.ok() and idle_after.ok() and alive and daemon_status == 0)
    print("hostile_load: " + ("every answer right, daemon served throughout and exited 0" if ok
                              else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
