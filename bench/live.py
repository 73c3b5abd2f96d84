"""A server in a subprocess on a free loopback port, for the benchmarks that
need the real thing (bench/slow_clients.py, bench/big_import.py)."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from .common import ROOT

SERVE = [sys.executable, "-m", "scorekeeper.serve"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`command` (`make run`'s by default) run from `root`, on its own store in
    `folder`; `env`: more environment variables."""

    def __init__(self, folder: Path, name: str, command: list[str] | None = None,
                 root: Path = ROOT, **env: str):
        self.port = free_port()
        environment = dict(os.environ, HOST="127.0.0.1", PORT=str(self.port),
                           FLASK_DATABASE=str(folder / f"{name}.sqlite3"),
                           FLASK_BACKUP_DIR=str(folder / "backups"),
                           FLASK_BACKUP_ON_START="false", **env)
        command = [part.format(port=self.port) for part in (command or SERVE)]
        self.log = open(folder / f"{name}.log", "wb")
        self.process = subprocess.Popen(command, cwd=root, env=environment, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.call("GET", "/api/games/none", timeout=1)
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: see {self.log.name}")
                time.sleep(0.1)

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

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.log.close()
