"""The one live server of the tests and the benchmarks: the real server
(`python -m scorekeeper.serve`, waitress, as `make run` serves it) in a
subprocess, on a free loopback port and a given database."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from . import processes

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "scorekeeper.serve"]


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """`count` distinct free loopback ports: each socket is held until all are
    bound, so the system cannot hand the same port out twice."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


class LiveServer:
    """`command` (`make run`'s by default; "{port}" in it is the port) run from
    `root` on `database`, its backups in `folder`; `env`: more of its
    environment (configuration keys as FLASK_...). Not started yet."""

    def __init__(self, folder: Path, database: Path, command: list[str] | None = None,
                 root: Path = ROOT, log: Path | None = None, **env: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log or folder / f"server-{self.port}.log"
        self.root = root
        self.command = [part.format(port=self.port) for part in (command or SERVE)]
        self.env = dict(os.environ, HOST="127.0.0.1", PORT=str(self.port),
                        FLASK_DATABASE=str(database), FLASK_BACKUP_DIR=str(folder / "backups"))
        self.env.update(env)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = processes.start(
                self.command, cwd=self.root, env=self.env, stdout=out,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, as a pulled plug."""
        if self.process is not None:
            processes.kill(self.process)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM), SIGKILL after ten seconds."""
        if self.process is not None:
            processes.stop(self.process)

    def restart(self) -> None:
        """Started again on the same port and database, once it answers."""
        self.kill()
        self.start()
        self.get("/")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def get(self, path: str, timeout: float = 15) -> tuple[int, bytes]:
        """GET path in English, waiting for the server to answer at all."""
        deadline = time.monotonic() + timeout
        request = urllib.request.Request(self.url + path, headers={"Accept-Language": "en"})
        while True:
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()
            except OSError:
                assert self.running(), self.log.read_text()
                assert time.monotonic() < deadline, self.log.read_text()
                time.sleep(0.05)

    def call(self, method: str, path: str, body: bytes | dict | None = None,
             timeout: float = 8.0) -> tuple[int, bytes]:
        """One request on a new connection, as a phone's tap would be."""
        if isinstance(body, dict):
            body = json.dumps(body).encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body or None,
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def new_game(self) -> str:
        status, body = self.call("POST", "/api/games", {"sides": ["Nous", "Eux"],
                                                        "rules": {"target": 101}})
        assert status == 201, body
        return json.loads(body)["id"]

    def cpu_seconds(self) -> float | None:
        """The server process's CPU time so far (Linux), to tell its cost per event."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def serving(folder: Path, name: str, **env: str):
    """A live server on its own database in `folder`, answering when entered;
    `env`, more of its environment (configuration keys as FLASK_...)."""
    live = LiveServer(folder, folder / f"{name}.sqlite3", **env)
    live.start()
    try:
        # Waits until it answers: a start takes a second, but several tests'
        # workers starting theirs on a loaded machine have taken over 15 s.
        live.get("/", timeout=60)
        yield live
    finally:
        live.kill()
