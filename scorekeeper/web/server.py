"""waitress, hardened against a device on the network that has no key.

waitress reads requests asynchronously and gives its threads only complete
ones, so a slow client holds no thread; what a stranger can still hold is
connections, disk and CPU (docs/RELIABILITY.md, bench/slow_clients.py):

- connections: an address keeps at most PER_ADDRESS of them, the server
  MAX_CONNECTIONS. A connection beyond either pushes out the least recently
  active one that is not being answered (an idle keep-alive, or a request
  still arriving), so a phone's tap always finds a place. A request's line
  and headers must arrive within HEADER_SECONDS; a silent connection is
  closed after IDLE_SECONDS.
- bodies: a request that the access check would refuse (the same
  `Gate.admits` as access.py, decided on the headers, before any body is
  read) may carry STRANGER_BODY bytes at most and no chunked body, and its
  connection closes after the answer. The table's devices may send up to
  the import's 64 MiB. A chunk-size line or a trailer has a bound (waitress
  rescans an unfinished one on every read: a line that never ends pinned a
  core), and so have the headers.
- waitress's own refusals (400, 413, 431…) carry the security headers.
"""

import time
from functools import partial

import waitress
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import ChunkedReceiver
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import BadRequest, Error

from . import access, security
from .views.transfer import MAX_IMPORT_BYTES

THREADS = 8
MAX_CONNECTIONS = 250
PER_ADDRESS = 20  # a browser opens 6 per site; several tabs or phones behind one address
HEADER_SECONDS = 10
IDLE_SECONDS = 60
STRANGER_BODY = 8 * 1024  # the key page's form is a few dozen bytes
MAX_BODY = MAX_IMPORT_BYTES + 1024 * 1024  # the import's file and its form around it
MAX_HEADERS = 32 * 1024
MAX_CHUNK_LINE = 1024
MAX_TRAILER = 8 * 1024


class NoBody(Error):
    code = 403
    reason = "Forbidden"


class BoundedChunks(ChunkedReceiver):
    """waitress's chunked body, with a bound on the lines it keeps rescanning."""

    def received(self, s):
        consumed = super().received(s)
        if len(self.control_line) > MAX_CHUNK_LINE or len(self.trailer) > MAX_TRAILER:
            self.error = BadRequest("A chunk-size line or the trailer is too long.")
            self.all_chunks_received = True
        return consumed


class GuardedParser(HTTPRequestParser):
    def __init__(self, adj, channel):
        super().__init__(adj)
        self.channel = channel
        self.started = time.time()  # the request's first bytes

    def parse_header(self, header_plus):
        super().parse_header(header_plus)
        if self.chunked:
            self.body_rcv = BoundedChunks(self.body_rcv.buf)
        header = {name.lower().replace("_", "-"): value for name, value in self.headers.items()}
        admitted = self.channel.server.gate.admits(
            self.channel.addr[0], header, access.cookies_of(header.get("cookie")))
        if admitted:
            return
        self.headers["CONNECTION"] = "close"  # a stranger's connection ends with its answer
        if self.chunked or self.content_length > STRANGER_BODY:
            self.error = NoBody("This device needs the table's access key: it may not send "
                                "a body.")
            self.completed = True
            self.expect_continue = False
            self.content_length = 0  # none of it is read


class GuardedErrorTask(ErrorTask):
    def execute(self):
        self.response_headers.extend(security.HEADERS.items())
        super().execute()


class GuardedChannel(HTTPChannel):
    error_task_class = GuardedErrorTask

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        self.parser_class = partial(GuardedParser, channel=self)
        self.group = address_group(addr[0])

    def evictable(self) -> bool:
        """Nothing being answered nor left to send: closing it loses nothing."""
        return not (self.requests or self.total_outbufs_len or self.will_close)

    def too_slow(self, now: float) -> bool:
        request = self.request
        return (request is not None and not request.headers_finished
                and now - request.started > self.server.header_seconds)


def address_group(address: str | None) -> str:
    """An IPv4 address, or an IPv6 address's /64: a device can take many of those."""
    if address and ":" in address:
        return ":".join(address.split(":")[:4])
    return address or "?"


class GuardedServer(TcpWSGIServer):
    def __init__(self, application, gate: access.Gate, header_seconds: float, **kw):
        self.gate = gate
        self.header_seconds = header_seconds
        super().__init__(application, **kw)

    def channel_class(self, server, sock, addr, adj, map=None):
        """A new connection, once there is room for it (waitress calls this
        on accept)."""
        group = address_group(addr[0])
        open_channels = [c for c in self.active_channels.values() if not c.will_close]
        mine = [c for c in open_channels if c.group == group]
        if len(mine) >= PER_ADDRESS and not self._push_out(mine):
            sock.close()
            return None
        if len(open_channels) >= MAX_CONNECTIONS and not self._push_out(open_channels):
            sock.close()
            return None
        return GuardedChannel(server, sock, addr, adj, map)

    @staticmethod
    def _push_out(channels) -> bool:
        candidates = [c for c in channels if c.evictable()]
        if not candidates:
            return False
        min(candidates, key=lambda c: c.last_activity).handle_close()
        return True

    def maintenance(self, now):
        super().maintenance(now)  # silent for IDLE_SECONDS: closed
        for channel in list(self.active_channels.values()):
            if channel.too_slow(now):
                channel.will_close = True


def create_server(application, gate: access.Gate, header_seconds: float = HEADER_SECONDS,
                  **kw):
    """waitress's create_server, with GuardedServer for every address listened on."""
    adj = Adjustments(**kw)
    socket_map: dict = {}
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    servers = [GuardedServer(application, gate, header_seconds, map=socket_map,
                             dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
               for sockinfo in adj.listen]
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher, servers[0].log_info)


def settings(host: str, port: int) -> dict:
    return {
        "host": host, "port": port, "threads": THREADS,
        # waitress's own limit stops accepting altogether: ours pushes out first.
        "connection_limit": MAX_CONNECTIONS + 20,
        "channel_timeout": IDLE_SECONDS,
        "cleanup_interval": 1,  # the header deadline is checked every second
        "max_request_header_size": MAX_HEADERS,
        "max_request_body_size": MAX_BODY,
        "asyncore_use_poll": True,  # select() stops at 1,024 descriptors
        "ident": "scorekeeper",
    }


def serve(app, host: str, port: int) -> None:
    header_seconds = float(app.config.get("SERVER_HEADER_SECONDS", HEADER_SECONDS))
    waitress.serve(app, _server=partial(create_server, gate=access.gate(app),
                                        header_seconds=header_seconds),
                   **settings(host, port))
