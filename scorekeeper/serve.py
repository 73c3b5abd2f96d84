"""`make run`: serve the app with waitress, on this machine and on the local
network, and say where to find it: an address, and a QR code that opens the
app on a phone with the access key."""

import os
import socket

import segno
from waitress import serve

from . import create_app

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Browsers grant what makes the board a phone app (the Wake Lock API,
# installing it, a service worker) to secure contexts only: https, or the
# server on the phone itself. Plain http on the local network is neither.
PLAIN_HTTP_NOTE = (
    "Over the local network this is plain http, which a phone's browser does not treat as "
    "secure: the board works (taps made while the Wi-Fi drops wait and are sent once it is "
    "back, and a silent video keeps the screen on), but the app cannot be installed and the "
    "browser's own screen lock is unavailable. For those, run the server on the phone itself "
    "and open http://127.0.0.1:5000/ there (README: \"One phone, no Wi-Fi\")."
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


def main() -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    app = create_app()
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Ronda scorekeeper: http://{shown_host}:{port}/", flush=True)
    if host not in LOCAL_HOSTS:
        lan = lan_address() if host in ("0.0.0.0", "::") else host
        if lan:
            url = f"http://{lan}:{port}/?key={app.config['ACCESS_KEY']}"
            print(f"On a phone on the same network: {url}", flush=True)
            print(f"(access key: {app.config['ACCESS_KEY']})", flush=True)
            segno.make(url, error="m").terminal(compact=True)
        print(PLAIN_HTTP_NOTE, flush=True)
    serve(app, host=host, port=port, threads=8)


if __name__ == "__main__":
    main()
