#!/usr/bin/env python3
"""TLS handshakes one attacker connection can force on sudokud: replays a ClientHello that offers
only the ffdhe8192 group (captured from `openssl s_client`, as hostile_load.py does), each time on
a new connection, one at a time, for SECONDS; counts the daemon's ServerHellos (a handshake it
computed: 110-190 ms of a core for ffdhe8192) and alerts (refused). The daemon runs on CPU 0, the
replayer on CPU 1 (a machine of 2 CPUs or more). Loopback only; the certificate is made for the run.

usage: handshake_rate.py SUDOKUD [SECONDS]      (SECONDS: 10)
Prints: "SUDOKUD: over 10 s, one connection at a time: 5.3 ServerHellos/s (handshakes forced),
0.0 alerts/s, 0 closed". Speed is never asserted; a tool for measuring by hand.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_load  # noqa: E402  (its certificate and capture)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    daemon = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) == 3 else 10.0
    workdir = tempfile.mkdtemp(prefix="handshake_rate.")
    try:
        cert, key = hostile_load.make_certificate(workdir)
        hello = hostile_load.capture_ffdhe_hello({1})
        process = subprocess.Popen(
            [daemon, "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key],
            stderr=subprocess.PIPE, text=True, preexec_fn=hostile_load.pinned({0}))
        line = process.stderr.readline()
        port = int(line.split("listening on 127.0.0.1:")[1].split()[0])
        os.sched_setaffinity(0, {1})
        counts = {"server hello": 0, "alert": 0, "closed": 0}
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with socket.create_connection(("127.0.0.1", port),
                                          source_address=("127.0.0.2", 0)) as connection:
                connection.sendall(hello)
                connection.settimeout(5)
                try:
                    first = connection.recv(1)
                except OSError:
                    first = b""
            kind = {b"\x16": "server hello", b"\x15": "alert"}.get(first, "closed")
            counts[kind] += 1
        print(f"{daemon}: over {seconds:.0f} s, one connection at a time: "
              f"{counts['server hello'] / seconds:.1f} ServerHellos/s (handshakes forced), "
              f"{counts['alert'] / seconds:.1f} alerts/s, {counts['closed']} closed")
        process.terminate()
        process.wait()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
