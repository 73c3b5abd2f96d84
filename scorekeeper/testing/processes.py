"""The processes the tests and the benchmarks start (a live server, Caddy):
each in a process group of its own, stopped as a group, and listed until it
is, so that whatever ends a test (a failure, its timeout, Ctrl-C) can leave
none behind: `stop_all` ends those still listed, at the end of a run."""

import ctypes
import os
import signal
import subprocess
import sys

_running: set[subprocess.Popen] = set()
PR_SET_PDEATHSIG = 1  # Linux's prctl option: a signal for the child when its parent dies
# Looked up here, not in the child between fork and exec, where loading a
# library could wait forever on a lock another thread held at the fork.
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def _die_with_parent() -> None:
    """In the child, before it runs: SIGKILL when the process that started it
    dies, even killed outright (no finalizer of its runs then). Linux sends it
    when the thread that started the child ends: start a server from a thread
    that outlives it (the test's own, as every fixture does)."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def start(command: list[str], **options) -> subprocess.Popen:
    """subprocess.Popen(command, **options), in a new process group."""
    process = subprocess.Popen(command, process_group=0,
                               preexec_fn=_die_with_parent if _prctl else None, **options)
    _running.add(process)
    return process


def _signal_group(process: subprocess.Popen, signal_number: int) -> None:
    try:
        os.killpg(process.pid, signal_number)
    except ProcessLookupError:  # the whole group has already ended
        pass


def kill(process: subprocess.Popen) -> None:
    """SIGKILL to the process and its group: no clean-up, as a pulled plug."""
    if process.returncode is None:  # not reaped yet: its pid is still its group's
        _signal_group(process, signal.SIGKILL)
        process.wait()
    _running.discard(process)


def stop(process: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM to the group (a clean shutdown), SIGKILL after `grace` seconds."""
    if process.returncode is None:
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    kill(process)


def stop_all() -> None:
    """Kill every process started here and not stopped yet."""
    for process in list(_running):
        kill(process)
