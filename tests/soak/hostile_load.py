#!/usr/bin/env python3
"""sudokud under hostile load: a normal client's service while everyone else attacks.

Starts one sudokud on loopback, times a normal `sudoku-client solve` of a puzzle file on it
while it is idle, then again while, all at once:
  - idle connections that send nothing (reconnecting when the daemon closes them),
  - connections that begin a frame and stall inside it,
  - connections that send most of a maximal (--max-frame-bytes) frame and never finish it,
  - clients that send big batches and never read,
  - connections that ask for solution_limit at the cap (1,000,000) on an empty grid, again and
    again,
  - a storm of faulty connections (an HTTP request line, a TLS ClientHello, a frame that does
    not decode, a length over the limit, a solution_limit over the cap), a bounded number at once,
then once more idle. Every answer of the normal client is checked (a complete valid grid that
keeps the givens; with --verify, also by that script). Prints the normal client's time to the
first answer and in total, idle and attacked, the daemon's peak RSS (VmHWM) against its
--max-memory, and the log lines it wrote; then whether each goal was met:
first answer within 2 s, total within twice the idle figure, peak RSS within --max-memory.

Loopback only; bounded in count (every group has a fixed size; reconnects stop when the
attacked run ends) and in time (--time-limit). Python 3 standard library only.

Exit status: 0 when every answer was right and the daemon served to the end and exited 0;
1 otherwise. The goals are printed, not part of the exit status (timings on a shared machine are
not a verdict): --quick runs small counts as a check that the script itself works.

usage: hostile_load.py --daemon SUDOKUD --client SUDOKU_CLIENT [--puzzles FILE | --count N]
                       [--verify VERIFY.py] [--quick] [group sizes...]
"""
import argparse
import asyncio
import multiprocessing
import os
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
            return [3 * band + i for band in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
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
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
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

    def __init__(self, args, port, group, size, shared):
        self.args = args
        self.port = port
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

    def connected_once(self):
        with self.shared.established.get_lock():
            self.shared.established.value += 1

    def count(self, what, n=1):
        self.counts[what] = self.counts.get(what, 0) + n

    def source(self):
        self.next_source += 1
        return (f"127.0.0.{2 + self.next_source % 250}", 0)

    async def connect(self):
        return await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port, local_addr=self.source(), limit=1 << 16),
            timeout=30)

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
    async def hold(self, group, opening=b"", after=None):
        """One connection of `group`: sends `opening` (then `after()`), waits; reconnects when
        the daemon closes it, until the attack stops."""
        first = True
        while not self.stopping.is_set():
            try:
                reader, writer = await self.connect()
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
        length, shift = 0, 0
        while True:
            byte = (await reader.readexactly(1))[0]
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        await reader.readexactly(length)
        return length

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

        def wait_for_stop():
            self.shared.stop.wait()
            loop.call_soon_threadsafe(self.stopping.set)
        loop.run_in_executor(None, wait_for_stop)
        tasks = []
        args = self.args
        group = self.group
        stall = varint(1000) + b"\x0a\x10"  # a 1,000-byte frame begun, 2 bytes of it sent
        make = {
            "idle": lambda: self.hold(group),
            "stalled": lambda: self.hold(group, stall),
            "unfinished": lambda: self.hold(group, varint(args.max_frame_bytes),
                                            self.unfinished_frame),
            "never read": lambda: self.never_read(group),
            "maximal limit": lambda: self.maximal_limit(group, 0),
        }.get(group)
        if make:
            # A bounded number of connects at once: a burst of thousands of SYNs overflows the
            # listen backlog, and a dropped SYN waits a second to be sent again.
            for i in range(self.size):
                tasks.append(asyncio.ensure_future(make()))
                if i % 200 == 199:
                    await asyncio.sleep(0.02)
        else:  # the storm, once the parent says go, to its end
            await loop.run_in_executor(None, self.shared.storm_go.wait)
            await self.storm()
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # abort() resets the connection on the loop's next turns: let them come before the loop
        # closes, or a connection left to the garbage collector ends with a FIN, and the daemon
        # goes on solving the batch a half-closed peer sent (for seconds, at the cap).
        await asyncio.sleep(0.5)


GROUPS = ["idle", "stalled", "unfinished", "never read", "maximal limit", "storm"]


class SharedState:
    """What the group processes and the parent share."""

    def __init__(self):
        self.stop = multiprocessing.Event()
        self.storm_go = multiprocessing.Event()
        self.established = multiprocessing.Value("l", 0)
        self.storm_done = multiprocessing.Value("l", 0)
        self.storm_faults = multiprocessing.Value("l", 0)
        self.counts = multiprocessing.Queue()


def run_group(args, port, group, size, shared):
    attack = Attack(args, port, group, size, shared)
    try:
        asyncio.run(attack.main())
    finally:
        shared.counts.put(attack.counts)


class Attackers:
    """Every group at once, each in its own process."""

    def __init__(self, args, port):
        self.shared = SharedState()
        self.sizes = {"idle": args.idle, "stalled": args.stalled, "unfinished": args.unfinished,
                      "never read": args.never_read, "maximal limit": args.maximal,
                      "storm": args.storm}
        self.processes = [
            multiprocessing.Process(target=run_group, args=(args, port, g, n, self.shared))
            for g, n in self.sizes.items() if n > 0]
        for process in self.processes:
            process.start()

    def wait_established(self, timeout):
        """Until every held connection has connected once (or `timeout` s); how many did."""
        held = sum(n for g, n in self.sizes.items() if g != "storm")
        give_up = time.monotonic() + timeout
        while self.shared.established.value < held and time.monotonic() < give_up:
            time.sleep(0.05)
        return self.shared.established.value, held

    def wait_for_storm(self, timeout):
        """Until every connection of the storm has had its answer (or `timeout` s)."""
        give_up = time.monotonic() + timeout
        while self.shared.storm_done.value < self.sizes["storm"] and time.monotonic() < give_up:
            time.sleep(0.05)

    def stop(self):
        self.shared.stop.set()
        counts = {}
        for _ in self.processes:
            for what, n in self.shared.counts.get(timeout=120).items():
                counts[what] = counts.get(what, 0) + n
        for process in self.processes:
            process.join()
        return counts


# ---- The daemon ----

RUNNING_DAEMON = []  # for --time-limit, which must not leave it running

def start_daemon(args, log_path):
    command = [args.daemon, "--listen", "127.0.0.1:0", "--max-connections",
               str(args.max_connections), "--max-memory", str(args.max_memory),
               "--max-frame-bytes", str(args.max_frame_bytes)]
    log = open(log_path, "wb")
    daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    RUNNING_DAEMON.append(daemon)
    log.close()
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        with open(log_path, errors="replace") as text:
            found = re.search(r"listening on \S+:(\d+) ", text.read())
        if found:
            return command, daemon, int(found.group(1))
        if daemon.poll() is not None:
            break
        time.sleep(0.05)
    daemon.kill()
    daemon.wait()
    with open(log_path, errors="replace") as text:
        sys.exit(f"hostile_load: sudokud did not start:\n{text.read()}")


def peak_rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
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
    ap.add_argument("--puzzles", help="the normal client's puzzle file (default: --count made here)")
    ap.add_argument("--count", type=int, help="puzzles to make when --puzzles is not given")
    ap.add_argument("--verify", help="also check the answers with this script (PUZZLES OUTPUT)")
    ap.add_argument("--quick", action="store_true",
                    help="small counts, to check that the script works (the ctest test)")
    ap.add_argument("--idle", type=int)
    ap.add_argument("--stalled", type=int)
    ap.add_argument("--unfinished", type=int)
    ap.add_argument("--never-read", type=int)
    ap.add_argument("--never-read-batch", type=int)
    ap.add_argument("--maximal", type=int)
    ap.add_argument("--storm", type=int)
    ap.add_argument("--storm-at-once", type=int, default=32)
    ap.add_argument("--max-memory", type=int, help="the daemon's --max-memory")
    ap.add_argument("--max-frame-bytes", type=int, default=MAX_FRAME_BYTES)
    ap.add_argument("--max-connections", type=int)
    ap.add_argument("--log", help="keep the daemon's log in this file")
    ap.add_argument("--time-limit", type=float, default=600,
                    help="seconds the whole run may take before it is abandoned")
    args = ap.parse_args()
    full = dict(count=100_000, idle=10_000, stalled=2_000, unfinished=100, never_read=4,
                never_read_batch=65_536, maximal=2, storm=20_000, max_memory=1 << 30)
    quick = dict(count=2_000, idle=200, stalled=50, unfinished=3, never_read=2,
                 never_read_batch=4_096, maximal=2, storm=300, max_memory=256 << 20)
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    held = args.idle + args.stalled + args.unfinished + args.never_read + args.maximal
    if args.max_connections is None:
        # Room for every attacker, the storm and the normal client: nobody is refused for
        # the count alone, so what is measured is the rest of the defences.
        args.max_connections = held + args.storm_at_once + 64

    descriptors = raise_descriptor_limit()
    if descriptors < held + args.storm_at_once + 256:
        sys.exit(f"hostile_load: the descriptor limit ({descriptors}) is below what "
                 f"{held} held connections need; raise `ulimit -Hn` or lower the counts")
    def give_up():
        print(f"hostile_load: gave up after --time-limit {args.time_limit} s", flush=True)
        if RUNNING_DAEMON:
            RUNNING_DAEMON[0].kill()
        os._exit(1)
    alarm = threading.Timer(args.time_limit, give_up)
    alarm.daemon = True
    alarm.start()

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
        command, daemon, port = start_daemon(args, log_path)
        try:
            daemon_cpu = {"sudokud": [daemon.pid]}
            idle_before = ClientRun(args, port, puzzles_path, "idle daemon", daemon_cpu)
            setup_start = time.monotonic()
            attackers = Attackers(args, port)
            connected, held = attackers.wait_established(timeout=120)
            print(f"attackers connected in {time.monotonic() - setup_start:.1f} s: {connected} of "
                  f"{held} held connections", flush=True)
            attackers.shared.storm_go.set()
            attacked = ClientRun(args, port, puzzles_path, "attacked daemon",
                                 dict(daemon_cpu, attackers=[p.pid for p in attackers.processes]))
            storm_during = attackers.shared.storm_done.value
            attackers.wait_for_storm(timeout=300)
            rss_attacked = peak_rss_bytes(daemon.pid)
            counts = attackers.stop()
            print(f"storm: {attackers.shared.storm_done.value} faulty connections ({storm_during} "
                  f"while the client ran), {attackers.shared.storm_faults.value} answered with a "
                  f"fault", flush=True)
            for what, n in sorted(counts.items()):
                print(f"  {what}: {n}")
            idle_after = ClientRun(args, port, puzzles_path, "idle daemon again", daemon_cpu)
            for run in (idle_before, attacked, idle_after):
                print(run.check(args, puzzles).describe(), flush=True)
            alive = daemon.poll() is None
            rss = peak_rss_bytes(daemon.pid) if alive else rss_attacked
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
        print(f"sudokud: {' '.join(os.path.basename(c) if i == 0 else c for i, c in enumerate(command))}")
        print(f"sudokud peak RSS (VmHWM): {rss / 2**20:.0f} MiB of --max-memory "
              f"{args.max_memory / 2**20:.0f} MiB; {len(log_lines)} log lines; exit {daemon_status}")
        for line in log_lines[-1:]:
            print(f"  last log line: {line.decode(errors='replace')}")

    idle_total = (idle_before.total + idle_after.total) / 2
    goals = [
        ("first answer within 2 s", attacked.first is not None and attacked.first <= 2.0),
        (f"total within 2x idle ({attacked.total:.2f} s vs {idle_total:.2f} s idle, mean of "
         f"before and after)", attacked.total <= 2 * idle_total),
        ("peak RSS within --max-memory", rss <= args.max_memory),
    ]
    for goal, met in goals:
        print(f"goal {'met' if met else 'MISSED'}: {goal}")
    ok = (idle_before.ok() and attacked.ok() and idle_after.ok() and alive and daemon_status == 0)
    print("hostile_load: " + ("every answer right, daemon served throughout and exited 0" if ok
                              else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
