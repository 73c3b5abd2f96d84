"""The benchmarks' server: the tests' own live server
(scorekeeper/testing/live_server.py), started and answering."""

from pathlib import Path

from scorekeeper.testing.live_server import ROOT, LiveServer


class Server(LiveServer):
    """`command` (`make run`'s by default) run from `root`, on its own store
    `<name>.sqlite3` in `folder`, answering once made; `env`: more
    environment variables."""

    def __init__(self, folder: Path, name: str, command: list[str] | None = None,
                 root: Path = ROOT, **env: str):
        env.setdefault("FLASK_BACKUP_ON_START", "false")
        super().__init__(folder, folder / f"{name}.sqlite3", command, root,
                         log=folder / f"{name}.log", **env)
        self.start()
        self.get("/api/games/none", timeout=30)  # a 404 once it answers

    def stop(self) -> None:
        self.kill()  # the benchmark is over: no clean shutdown to wait for
