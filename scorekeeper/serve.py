"""`make run`: serve the app on this machine and on the local network, and
say where to find it: an address, and a QR code that opens the app on a
phone once (a pairing code, scorekeeper/web/guard/pairing.py), with the access key for
a phone that cannot scan. The server is waitress, hardened against a
stranger on the same network (scorekeeper/web/guard/server.py). With
FLASK_REPLICA, Litestream runs beside it and keeps a copy of the store there
(scorekeeper/storage/replica.py)."""

import _thread
import os
import signal
import socket
import sys
import threading
from contextlib import contextmanager

import segno

from . import create_app
from .storage import replica
from .storage.lock import StoreInUse, serving_lock
from .web.guard import access, pairing, server
from .web.guard.secret import SecretError
from .web.wording.catalogs import CatalogError

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Browsers grant what makes the board a phone app (the Wake Lock API,
# installing it, a service worker) to secure contexts only: https, or the
# server on the phone itself. Plain http on the local network is neither.
PLAIN_HTTP_NOTE = (
    "Over the local network this is plain http, which a phone's browser does not treat as "
    "secure: the board works (taps made while the Wi-Fi drops wait and are sent once it is "
    "back, and a silent video keeps the screen on), but the app cannot be installed and the "
    "browser's own screen lock is unavailable. For those, run the server on the phone itself "
    "and open http://127.0.0.1:{port}/ there (docs/SERVING.md: \"One phone, no Wi-Fi\")."
)


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # No packet is sent: connecting a UDP socket only picks the route.
        probe.connect(("192.168.255.255", 9))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def _network_address(host: str) -> str | None:
    if host in LOCAL_HOSTS:
        return None
    return lan_address() if host in ("0.0.0.0", "::") else host


def announce(app, host: str, port: int) -> None:
    """Where to find the app: its address, and for a phone a QR code and the key."""
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Ronda scorekeeper: http://{shown_host}:{port}/", flush=True)
    lan = _network_address(host)
    if lan:
        access.allow_host(app, lan)
        name = f"[{lan}]" if ":" in lan else lan
        with app.app_context():
            url = pairing.pairing_url(f"http://{name}:{port}", pairing.codes().new())
        print(f"On a phone on the same network, scan this QR code or open {url}", flush=True)
        segno.make(url, error="m").terminal(compact=True)
        print(f"(It works once, within {pairing.CODE_SECONDS // 60} minutes. For the next "
              f"phone: Add a phone, on any phone already in or at "
              f"http://127.0.0.1:{port}/pair here.)", flush=True)
        print(f"A phone that cannot scan: open http://{name}:{port}/ and type the access key "
              f"{app.config['ACCESS_KEY']}", flush=True)
    if host not in LOCAL_HOSTS:
        print(PLAIN_HTTP_NOTE.format(port=port), flush=True)


def main() -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    try:
        app = create_app()
    except (SecretError, CatalogError) as error:
        sys.exit(f"The scorekeeper cannot start: {error}")
    try:
        # The replica is written before the address is given: a server that
        # cannot keep it shows no QR code to a phone.
        with serving_lock(app.config["DATABASE"]), _replica(app):
            announce(app, host, port)
            server.serve(app, host=host, port=port)
    except StoreInUse as error:
        sys.exit(f"The scorekeeper cannot start: {error}")
    except replica.ReplicaError as error:
        done = "stopped" if replica_running.is_set() else "cannot start"
        sys.exit(f"The scorekeeper {done}: {error}")


replica_running = threading.Event()  # a ReplicaError once it is set stopped the server


@contextmanager
def _replica(app):
    """Litestream beside the server when FLASK_REPLICA names a replica: the
    server starts only once the replica was written, stops when Litestream
    stops, and Litestream stops with the server."""
    where = app.config.get("REPLICA")
    if not where:
        yield
        return
    with replica.replicating(app.config["DATABASE"], str(where), app.instance_path,
                             when_it_stops=_thread.interrupt_main) as process:
        replica_running.set()
        # A plain `kill` stops the server as Ctrl+C does, so that Litestream
        # is stopped after it, on every system.
        signal.signal(signal.SIGTERM, _stop_as_interrupted)
        print(f"Replicating the store to {where} (Litestream, process {process.pid}); "
              f"`make restore REPLICA={where}` brings it back.", flush=True)
        yield


def _stop_as_interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
