"""The one Chromium configuration of the browser tests and the benchmarks:
Debian's Chromium driven by Playwright (never a downloaded browser),
headless, with the flags this closed network needs, and a phone.

Playwright is a test dependency: it is imported only when a browser starts.
"""

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Debian's old headless shell: the same Blink and V8 as CHROMIUM, without the
# whole browser around them, for a third less CPU in a browser test. What it
# lacks is a phone's browser rather than the page's: the Wake Lock API, an
# installable app; the tests of those, and the benchmarks, use CHROMIUM.
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
# The phone at the table reaches the server by a name on the local network,
# which is no secure context (no Wake Lock API, no service worker); the
# browser maps it to loopback, so the traffic stays on this machine.
TABLE_HOST = "table.lan"
# Without the background-networking flags Chromium keeps trying to reach
# Google's hosts, which this closed network refuses (and which a benchmark
# would count as requests of ours).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--host-resolver-rules=MAP {TABLE_HOST} 127.0.0.1"]
# No service worker unless a test asks for one (service_workers="allow"): on
# 127.0.0.1, a secure context, the board registers its worker (static/sw.js),
# whose fetches Playwright's page.route() cannot see, nor a test that holds
# a tap on its way. tests/browser/test_offline_app.py tests the worker itself.
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2, "locale": "fr-FR", "service_workers": "block"}


# One Playwright driver per process: its sync API cannot be started inside
# another (the session's phones and an https test's own trusting browser
# live in one test worker), so every browser of the process shares it.
_driver: dict[str, Any] = {"playwright": None, "users": 0}


@contextmanager
def _playwright() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if _driver["users"] == 0:
        _driver["playwright"] = sync_playwright().start()
    _driver["users"] += 1
    try:
        yield _driver["playwright"]
    finally:
        _driver["users"] -= 1
        if _driver["users"] == 0:
            _driver["playwright"].stop()
            _driver["playwright"] = None


@contextmanager
def chromium(home: Path | None = None, shell: bool = False) -> Iterator[Any]:
    """A headless Chromium (a Playwright Browser), closed on leaving;
    `home`: its HOME, whose ~/.pki/nssdb says which authorities it trusts
    (testing/caddy.py's trusting_home); `shell`: the headless shell."""
    executable = HEADLESS_SHELL if shell else CHROMIUM
    if not Path(executable).exists():
        raise RuntimeError(f"{executable} is missing: `make chromium` installs it from Debian")
    with _playwright() as playwright:
        env = None if home is None else dict(os.environ, HOME=str(home))
        browser = playwright.chromium.launch(executable_path=executable, args=FLAGS, env=env)
        try:
            yield browser
        finally:
            browser.close()
