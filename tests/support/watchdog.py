"""A test that hangs ends its worker, and runs once more on a new one.

Each wait of the tests has a bound of its own (Playwright's 30 s, a request's
timeout), yet one run in several once sat with both workers idle at 0 % CPU
until CI's own limit, and what waited could not be seen afterwards. Past
LIMIT seconds, a worker writes what it was doing to its stderr (the test,
then every thread's and every greenlet's stack: Playwright's sync API waits
in a greenlet, which a thread's stack does not show) and exits. xdist starts
a new worker; the test's unit is back in the queue (scheduling.py) and runs
again. A browser test (one rerun allowed, browser/conftest.py) is then listed
as a rerun, and fails the run only if it hangs twice; any other test fails
the run at once.

Only in a worker: exiting the only process would end the run.
"""

import gc
import os
import signal
import sys
import threading
import traceback

import pytest

# The longest test, its module's fixture built in it, takes under a minute
# (the benchmark's smoke run: 37 s under a whole run's load). A hung touch
# of a page between two documents held a worker for the whole limit, 180 s
# then, on the run's longest path.
LIMIT = float(os.environ.get("TEST_WATCHDOG_SECONDS", "100"))
EXIT_CODE = 70


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    capture = item.config.pluginmanager.getplugin("capturemanager")
    timer = threading.Timer(LIMIT, give_up, args=(item.nodeid, capture))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def give_up(nodeid: str, capture) -> None:
    if capture is not None:  # the test's output is captured: the worker's own stderr again
        capture.suspend_global_capture()
    os.write(2, report(nodeid).encode("utf-8", "replace"))
    for child in children():  # live servers, Caddy, Playwright's driver: none outlives us
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    os._exit(EXIT_CODE)


def children() -> list[int]:
    """This process's children, as Linux's /proc lists them."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            # pid (name) state ppid …: the name may hold spaces and parentheses
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(int(entry))
    return found


def report(nodeid: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    lines = [f"\n=== {worker}: {nodeid} still running after {LIMIT:.0f} s; its stacks ===\n"]
    for ident, frame in sys._current_frames().items():
        if ident != threading.get_ident():
            lines.append(f"--- thread {ident}\n")
            lines.extend(traceback.format_stack(frame, limit=25))
    for waiting in suspended_greenlets():
        lines.append("--- greenlet\n")
        lines.extend(traceback.format_stack(waiting, limit=25))
    lines.append(f"=== {worker} exits; xdist starts another, and the test runs once more ===\n")
    return "".join(lines)


def suspended_greenlets() -> list:
    """The frames where each suspended greenlet waits."""
    try:
        from greenlet import greenlet
    except ImportError:
        return []
    return [thing.gr_frame for thing in gc.get_objects()
            if isinstance(thing, greenlet) and thing.gr_frame is not None]
