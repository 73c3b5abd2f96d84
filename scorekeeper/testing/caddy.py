"""https in the tests, as a club serves it: Debian's Caddy in front of the
real server, with a certificate of its own local authority (`tls internal`),
on free loopback ports, and a browser profile that trusts that authority.

Nothing here reaches the internet: no admin endpoint, no ACME, no redirect
listener, the authority's root kept out of the system's trust store and
every file of Caddy's in the test's own folder. `docs/HTTPS.md` has the
same set-up for a real table.
"""

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import processes
from .live_server import LiveServer, free_ports

CADDY = os.environ.get("CADDY", "/usr/bin/caddy")
CERTUTIL = os.environ.get("CERTUTIL", "/usr/bin/certutil")
NAME = "table.lan"  # the name phones ask for; the browser maps it to loopback

CADDYFILE = """{{
	admin off
	auto_https disable_redirects
	skip_install_trust
	local_certs
	http_port {http_port}
	https_port {https_port}
	storage file_system {{
		root {storage}
	}}
	servers {{
		protocols h1 h2
	}}
}}
https://{name}:{https_port} {{
	bind 127.0.0.1
	tls internal
	reverse_proxy 127.0.0.1:{upstream}{upstream_host}
}}
"""
# nginx's default `proxy_pass`: the app is asked for its own loopback address.
UPSTREAM_HOST = """ {
		header_up Host {upstream_hostport}
	}"""


class Caddy:
    """Caddy serving https://NAME:port/ in front of the app on `upstream`
    (a loopback port), its files in `folder`; `host_of_upstream`: the app
    is asked for 127.0.0.1:PORT, as nginx's default `proxy_pass` does. Not
    started yet."""

    def __init__(self, folder: Path, upstream: int, name: str = NAME,
                 host_of_upstream: bool = False):
        if not Path(CADDY).exists():
            raise RuntimeError(f"{CADDY} is missing: `make https-tools` installs Debian's caddy")
        self.folder = Path(folder)
        self.name = name
        # Two ports asked for one after the other can be the same one, and
        # Caddy refuses https on its own http_port.
        self.port, http_port = free_ports(2)
        self.url = f"https://{name}:{self.port}"
        self.storage = self.folder / "caddy-data"
        self.config = self.folder / "Caddyfile"
        self.log = self.folder / "caddy.log"
        self.config.write_text(CADDYFILE.format(
            http_port=http_port, https_port=self.port, storage=self.storage, name=name,
            upstream=upstream, upstream_host=UPSTREAM_HOST if host_of_upstream else ""))
        self.process: subprocess.Popen | None = None

    @property
    def root_certificate(self) -> Path:
        """The local authority's root: what a client must trust."""
        return self.storage / "pki" / "authorities" / "local" / "root.crt"

    def start(self, timeout: float = 20) -> None:
        home = self.folder / "caddy-home"
        env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"),
                   XDG_CONFIG_HOME=str(home / "config"))
        with open(self.log, "ab") as out:
            self.process = processes.start(
                [CADDY, "run", "--config", str(self.config), "--adapter", "caddyfile"],
                cwd=self.folder, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Caddy did not start:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.1)

    def _answers(self) -> bool:
        """Whether Caddy completes a TLS handshake for NAME with a certificate of its authority."""
        if not self.root_certificate.exists():
            return False
        context = ssl.create_default_context(cafile=str(self.root_certificate))
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                with context.wrap_socket(sock, server_hostname=self.name):
                    return True
        except (OSError, ssl.SSLError):
            return False

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts Caddy's authority, and nothing else."""
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None, source: str = "127.0.0.1",
                timeout: float = 10) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request over https to NAME, from the loopback address `source`
        (the phone's address, as Caddy forwards it)."""
        connection = Connection(self, source, timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.headers, response.read()
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process is not None:
            processes.stop(self.process)


def trusting_home(folder: Path, root_certificate: Path) -> Path:
    """A home folder whose NSS database (the one Chromium reads on Linux,
    ~/.pki/nssdb) trusts `root_certificate` to name web sites: give it to
    Chromium as HOME, with a fresh profile. Nothing of the system's changes."""
    if not Path(CERTUTIL).exists():
        raise RuntimeError(f"{CERTUTIL} is missing: `make https-tools` installs libnss3-tools")
    home = Path(folder) / "browser-home"
    nssdb = home / ".pki" / "nssdb"
    shutil.rmtree(nssdb, ignore_errors=True)
    nssdb.mkdir(parents=True)
    subprocess.run([CERTUTIL, "-N", "--empty-password", "-d", f"sql:{nssdb}"], check=True,
                   capture_output=True)
    subprocess.run([CERTUTIL, "-A", "-n", "caddy local authority", "-t", "C,,",
                    "-i", str(root_certificate), "-d", f"sql:{nssdb}"], check=True,
                   capture_output=True)
    return home


class Connection(http.client.HTTPSConnection):
    """https to Caddy's NAME, reached on loopback from a chosen address."""

    def __init__(self, caddy: Caddy, source: str, timeout: float):
        super().__init__(caddy.name, caddy.port, timeout=timeout, context=caddy.ssl_context())
        self.caddy, self.source = caddy, source

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.caddy.port), self.timeout,
                                        source_address=(self.source, 0))
        self.sock = self._context.wrap_socket(sock, server_hostname=self.caddy.name)


@contextmanager
def serving_https(folder: Path, name: str, **env: str) -> Iterator[tuple[LiveServer, Caddy]]:
    """The real server (told of its proxy: TRUSTED_PROXY=127.0.0.1, answering
    to NAME) behind Caddy, both answering when entered; `env`: more of the
    server's environment (FLASK_ACCESS_KEY, FLASK_SECRET_KEY…)."""
    folder = Path(folder)
    env = dict({"FLASK_ALLOWED_HOSTS": NAME, "FLASK_TRUSTED_PROXY": "127.0.0.1"}, **env)
    live = LiveServer(folder, folder / f"{name}.sqlite3", **env)
    live.start()
    caddy = Caddy(folder, live.port)
    try:
        live.get("/")  # answers (a 403: from the proxy's own address, nobody is this machine)
        caddy.start()
        yield live, caddy
    finally:
        caddy.stop()
        live.kill()
