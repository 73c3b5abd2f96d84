"""Is the board an installable app over https? Lighthouse and Chromium say.

    mkdir /tmp/lh && (cd /tmp/lh && npm i -E lighthouse@12.2.3)
    .venv/bin/python -m bench.installable --lighthouse /tmp/lh

The real server behind a real Caddy (`tls internal`, scorekeeper/testing/caddy.py),
a phone's pass and a game; then bench/installable.mjs, run with Node from
the Lighthouse folder, opens the board in Debian's Chromium (a normal
profile: a private one never installs), lets the service worker start,
runs Lighthouse (accessibility, best practices, and the PWA category where
the version still has one: Lighthouse 12 removed it) and asks Chromium
itself (`Page.getInstallabilityErrors`, what Lighthouse's own
installability audit asked). Nothing leaves this machine.
"""

import argparse
import json
import shutil
import subprocess
from pathlib import Path

from scorekeeper.service import phones
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as storage
from scorekeeper.testing.caddy import NAME, serving_https, trusting_home
from scorekeeper.testing.chromium import CHROMIUM
from scorekeeper.web.guard import access

from .common import scratch_dir

SCRIPT = Path(__file__).with_name("installable.mjs")
KEY, SECRET = "installable2345", "a secret for the installability check only"


def new_pass(database: str) -> str:
    """A phone's pass, as the key page gives one (bench/club_proxy.py does the same)."""
    connection = storage.connect(database)
    try:
        token, _ = phones.let_in(connection, "key", "Lighthouse", phones.key_mark(KEY, SECRET),
                                 utc_now())
    finally:
        connection.close()
    return token


def check(lighthouse: Path) -> dict:
    with scratch_dir("installable") as folder:
        with serving_https(folder, "installable", FLASK_ACCESS_KEY=KEY,
                           FLASK_SECRET_KEY=SECRET) as (live, caddy):
            token = new_pass(live.env["FLASK_DATABASE"])
            status, _, body = caddy.request(
                "POST", "/api/games", body=json.dumps({"sides": ["Nous", "Eux"]}).encode(),
                headers={"Content-Type": "application/json",
                         "Cookie": f"{access.COOKIE}={token}"})
            assert status == 201, body
            info = folder / "info.json"
            info.write_text(json.dumps({
                "url": caddy.url, "name": NAME, "game": json.loads(body)["id"],
                "cookie": access.COOKIE, "token": token, "chromium": CHROMIUM,
                "home": str(trusting_home(folder, caddy.root_certificate)),
                "profile": str(folder / "profile")}))
            runner = lighthouse / "installable.mjs"
            shutil.copyfile(SCRIPT, runner)  # its imports resolve in that folder
            try:
                done = subprocess.run(["node", str(runner), str(info)], capture_output=True,
                                      text=True, timeout=300)
            finally:
                runner.unlink()
            assert done.returncode == 0, done.stderr[-3000:]
            return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", type=Path, required=True,
                        help="a folder where `npm i -E lighthouse@12.2.3` ran")
    args = parser.parse_args()
    print(json.dumps(check(args.lighthouse.resolve()), indent=2))


if __name__ == "__main__":
    main()
