"""The real server (`python -m scorekeeper.serve`, waitress) in a subprocess,
on a free loopback port and a given database."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    def __init__(self, folder: Path, database: Path, **env: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server-{self.port}.log"
        self.env = dict(
            os.environ, HOST="127.0.0.1", PORT=str(self.port), FLASK_DATABASE=str(database),
            FLASK_BACKUP_DIR=str(folder / "backups"), **env,
        )
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.serve"], cwd=ROOT, env=self.env,
                stdout=out, stderr=subprocess.STDOUT,
            )

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, as a pulled plug."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()

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


@contextmanager
def serving(folder: Path, name: str, **env: str):
    """A live server on its own database in `folder`, answering when entered;
    `env`, more of its environment (configuration keys as FLASK_...)."""
    live = LiveServer(folder, folder / f"{name}.sqlite3", **env)
    live.start()
    try:
        live.get("/")  # waits until it answers
        yield live
    finally:
        live.kill()
