"""A stranger on the same network against the server, side by side: waitress
as `make run` started it before it was hardened against such a stranger
(`waitress.serve(app, threads=8)`, its defaults otherwise) and the guarded
waitress of scorekeeper/web/guard/server.py.

    .venv/bin/python -m bench.slow_clients           # every attack, about 3 minutes
    .venv/bin/python -m bench.slow_clients --smoke   # each attack briefly

Everything stays on this machine. The stranger connects from other loopback
addresses (127.0.x.y) and asks for `table.lan` (FLASK_ALLOWED_HOSTS), a name
that needs the key even from loopback; the table taps from 127.0.0.1, one
new connection per tap (the worst case), and gives up on a tap after 8 s, as
a phone would. Attacks:

- slow headers: connections that send one header line every 5 s, from one
  address (110) or from 400 addresses;
- big bodies: 3 connections each sending a 300 MiB body; what the server
  spools to its temporary files (read from /proc/<pid>/fd) at the peak;
- endless chunk-size line: 8 connections sending a chunked body whose
  chunk-size line never ends; the server's CPU while they send and after.

For each: the taps' answer times (median, max) and how many were answered
within 2 s, or not at all within 8 s.
"""

import argparse
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import live
from .common import median, ms

TAP_TIMEOUT = 8.0
STOCK = [sys.executable, "-c", "from waitress import serve; from scorekeeper import create_app; "
         "serve(create_app(), host='127.0.0.1', port={port}, threads=8)"]


class Server(live.Server):
    def __init__(self, kind: str, folder: Path):
        super().__init__(folder, kind, STOCK if kind == "stock" else None,
                         FLASK_ALLOWED_HOSTS="table.lan")
        self.game = self.new_game()

    def tap(self, number: int) -> float | None:
        """Seconds until the tap's answer; None when none came within 8 s."""
        side, points = number % 2, (1, -1)[number // 2 % 2]
        started = time.monotonic()
        try:
            status, _ = self.call("POST", f"/api/games/{self.game}/events",
                                  {"type": "adjust", "side": side, "points": points},
                                  timeout=TAP_TIMEOUT)
        except (OSError, http.client.HTTPException):
            return None
        return time.monotonic() - started if status == 200 else None

    def spooled_bytes(self) -> int:
        """Bytes of the regular files the server holds open outside its store."""
        total = 0
        for fd in Path(f"/proc/{self.process.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
                if target.startswith("/") and ".sqlite3" not in target and not target.startswith(
                        ("/dev/", "/proc/")) and not target.endswith(".log"):
                    total += os.stat(fd).st_size
            except OSError:
                pass
        return total


def taps_during(server: Server, seconds: float, every: float = 0.5) -> list[float | None]:
    results, number, end = [], 0, time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        results.append(server.tap(number))
        number += 1
        time.sleep(max(0.0, every - (time.monotonic() - started)))
    return results


def summary(waits: list[float | None]) -> dict:
    answered = [w for w in waits if w is not None]
    return {"taps": len(waits), "within_2_s": sum(w < 2 for w in answered),
            "unanswered_in_8_s": len(waits) - len(answered),
            "median_ms": ms(median(answered)) if answered else None,
            "max_ms": ms(max(answered)) if answered else None}


def _connect(server: Server, source: str) -> socket.socket | None:
    try:
        return socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                        source_address=(source, 0))
    except OSError:
        return None


def slow_headers(server: Server, addresses: int, count: int, every: float, seconds: float):
    sources = ["127.0.0.2"] * count if addresses == 1 else [
        f"127.0.{1 + n // 250}.{2 + n % 250}" for n in range(count)]
    stop = threading.Event()
    opened = []

    def stranger():
        for source in sources:
            sock = _connect(server, source)
            if sock is not None:
                sock.setblocking(False)
                try:
                    sock.send(b"GET / HTTP/1.1\r\nHost: table.lan\r\n")
                except OSError:
                    pass
                opened.append(sock)
        line = 0
        while not stop.wait(every):
            line += 1
            for sock in opened:
                try:
                    sock.send(b"X-Slow-%d: yes\r\n" % line)
                except OSError:
                    pass

    thread = threading.Thread(target=stranger, daemon=True)
    thread.start()
    time.sleep(1.0)
    waits = taps_during(server, seconds)
    stop.set()
    thread.join()
    for sock in opened:
        sock.close()
    return {**summary(waits), "stranger_connections": count, "addresses": addresses}


def big_bodies(server: Server, count: int, size: int, seconds: float):
    stop = threading.Event()
    sent = [0] * count

    def send(index: int):
        sock = _connect(server, "127.0.0.2")
        if sock is None:
            return
        chunk = b"x" * (1 << 20)
        try:
            sock.sendall(b"POST /api/games/import HTTP/1.1\r\nHost: table.lan\r\n"
                         b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % size)
            while sent[index] < size and not stop.is_set():
                sock.sendall(chunk)
                sent[index] += len(chunk)
        except OSError:
            pass
        finally:
            sock.close()

    threads = [threading.Thread(target=send, args=(i,), daemon=True) for i in range(count)]
    peak = [0]

    def watch():
        while not stop.is_set():
            peak[0] = max(peak[0], server.spooled_bytes())
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    for thread in threads:
        thread.start()
    waits = taps_during(server, seconds)
    for thread in threads:
        thread.join(timeout=60)
    stop.set()
    watcher.join()
    return {**summary(waits), "bodies": count, "body_mib": size >> 20,
            "stranger_mib_sent": sum(sent) >> 20, "peak_spooled_mib": round(peak[0] / 2**20, 1)}


def endless_chunk_line(server: Server, count: int, seconds: float, after: float):
    stop = threading.Event()

    def send():
        sock = _connect(server, "127.0.0.2")
        if sock is None:
            return
        try:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: table.lan\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            while not stop.wait(0.01):
                sock.sendall(b"a" * 8192)
        except OSError:
            pass
        finally:
            sock.close()

    threads = [threading.Thread(target=send, daemon=True) for _ in range(count)]
    cpu_before = server.cpu_seconds()
    for thread in threads:
        thread.start()
    started = time.monotonic()
    waits = taps_during(server, seconds)
    during = (server.cpu_seconds() - cpu_before) / (time.monotonic() - started)
    stop.set()
    for thread in threads:
        thread.join()
    cpu_left = server.cpu_seconds()
    time.sleep(after)
    after_share = (server.cpu_seconds() - cpu_left) / after
    return {**summary(waits), "connections": count,
            "server_cpu_while_sending": f"{during:.0%}",
            "server_cpu_after_they_left": f"{after_share:.0%}"}


def run(smoke: bool) -> dict:
    seconds = 3 if smoke else 15
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("stock", "guarded"):
            server = Server(kind, Path(folder))
            try:
                rows = {"idle": summary(taps_during(server, 2 if smoke else 5, every=0.25))}
                rows["slow_headers_one_address"] = slow_headers(
                    server, 1, 110, every=1 if smoke else 5, seconds=seconds)
                rows["slow_headers_400_addresses"] = slow_headers(
                    server, 400, 400, every=1 if smoke else 5, seconds=seconds)
                rows["big_bodies"] = big_bodies(server, 3, (8 if smoke else 300) << 20,
                                                seconds=seconds)
                rows["endless_chunk_line"] = endless_chunk_line(
                    server, 8, seconds=seconds, after=2 if smoke else 10)
            finally:
                server.stop()
            results[kind] = rows
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    print(json.dumps(run(args.smoke), indent=1))


if __name__ == "__main__":
    main()
