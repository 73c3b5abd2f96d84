"""What a test starts, it stops, all of it (scorekeeper/testing/processes.py):
a server's whole process group, whatever is left at the end of a run, and
everything a process started once that process is killed outright."""

import os
import subprocess
import sys
import time

from scorekeeper.testing import processes
from scorekeeper.testing.live_server import LiveServer

# A shell that starts a child of its own, and says the child's pid.
PARENT_AND_CHILD = ["sh", "-c", "sleep 60 & echo $!; wait"]


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for its parent."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone(pid: int, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def started_with_child() -> tuple[subprocess.Popen, int]:
    process = processes.start(PARENT_AND_CHILD, stdout=subprocess.PIPE, text=True)
    return process, int(process.stdout.readline())


def test_a_process_runs_in_a_group_of_its_own():
    process, child = started_with_child()
    try:
        assert os.getpgid(process.pid) == process.pid != os.getpgid(0)
        assert os.getpgid(child) == process.pid
    finally:
        processes.kill(process)


def test_stopping_a_process_stops_what_it_started():
    process, child = started_with_child()
    processes.stop(process, grace=5)
    assert process.returncode is not None and gone(child)


def test_killing_a_process_kills_what_it_started():
    process, child = started_with_child()
    processes.kill(process)
    assert process.returncode is not None and gone(child)


def test_the_end_of_a_run_stops_every_process_still_running():
    started = [started_with_child() for _ in range(2)]
    processes.stop_all()
    assert all(process.returncode is not None and gone(child) for process, child in started)


# A test process that starts a server, then dies without a finalizer.
DIES = """
import sys
from scorekeeper.testing import processes
from scorekeeper.testing.live_server import LiveServer
server = processes.start(["sleep", "60"])
print(server.pid, flush=True)
import os
os._exit(1)
"""


def test_a_process_dies_with_the_one_that_started_it():
    done = subprocess.run([sys.executable, "-c", DIES], capture_output=True, text=True,
                          timeout=30)
    assert gone(int(done.stdout))


def test_a_live_server_is_stopped_as_a_group(tmp_path):
    server = LiveServer(tmp_path, tmp_path / "unused.sqlite3", command=["sleep", "60"])
    server.start()
    try:
        assert os.getpgid(server.process.pid) == server.process.pid
    finally:
        server.kill()
    assert not alive(server.process.pid)
