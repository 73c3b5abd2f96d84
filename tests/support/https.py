"""A table served over https: the real server behind Caddy, and a Chromium
that trusts Caddy's local authority."""

from contextlib import contextmanager
from pathlib import Path

from scorekeeper.testing.caddy import serving_https, trusting_home
from scorekeeper.testing.chromium import chromium


@contextmanager
def served_over_https(folder: Path, name: str, **env: str):
    """(browser, live server, Caddy), all answering; `env`: the server's."""
    with serving_https(folder, name, **env) as (live, caddy):
        with chromium(home=trusting_home(folder, caddy.root_certificate)) as browser:
            yield browser, live, caddy
