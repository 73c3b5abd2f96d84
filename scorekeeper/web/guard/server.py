# Our own on waitress's classes: no WSGI server limits a stranger's body and connections before reading them.
"""waitress, hardened against a device on the network that has no key.

waitress reads requests asynchronously and gives its threads only complete
ones, so a slow client holds no thread; what a stranger can still hold is
connections, disk and CPU (docs/SECURITY.md, bench/slow_clients.py):

- connections: an address (an IPv6 /64) keeps at most PER_ADDRESS of them
  that the table has not shown to be its own, the server MAX_CONNECTIONS.
  A connection whose last request the access check let in is the table's:
  it counts in the server's total only, so a club of fifty tables behind
  one address, or one proxy, is never pushed out by that cap. Behind the
  trusted proxy (TRUSTED_PROXY) a connection counts for the phone it
  forwards. A connection beyond either cap pushes out the least recently
  active one that is not being answered (a stranger's first, then an idle
  keep-alive), so a phone's tap always finds a place. A request's line and
  headers must arrive within HEADER_SECONDS; a silent connection is closed
  after IDLE_SECONDS.
- who asks: the access check reads the request's headers here, before
  waitress clears the proxy headers (Forwarded, X-Forwarded-*), and hands
  its reading to the app (access.ProxyAware). A request line in absolute
  form (`GET http://other.example/ HTTP/1.1`) asks for the name it holds,
  whatever its Host header says, as HTTP/1.1 has it.
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
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import BadRequest, Error

from ..plumbing.app_request import MAX_IMPORT_BYTES
from . import access, security

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
        self.asker: access.Asker | None = None

    def parse_header(self, header_plus):
        super().parse_header(header_plus)
        if self.proxy_netloc:  # absolute form: the request line names the host
            self.headers["HOST"] = self.proxy_netloc
        if self.chunked:
            self.body_rcv = BoundedChunks(self.body_rcv.buf)
        header = {name.lower().replace("_", "-"): value for name, value in self.headers.items()}
        channel = self.channel
        the_gate = channel.server.gate
        self.asker = the_gate.client(channel.addr[0], header, self.url_scheme)
        admitted = the_gate.admits(channel.addr[0], header,
                                   access.cookies_of(header.get("cookie")), self.asker)
        channel.admitted = admitted
        if channel.through_proxy:
            channel.group = access.address_group(self.asker.address)
            if not admitted:
                channel.server.make_room_for(channel)
        if admitted:
            return
        self.headers["CONNECTION"] = "close"  # a stranger's connection ends with its answer
        if self.chunked or self.content_length > STRANGER_BODY:
            self.error = NoBody("This device needs the table's access key: it may not send "
                                "a body.")
            self.completed = True
            self.expect_continue = False
            self.content_length = 0  # none of it is read


class GuardedTask(WSGITask):
    def get_environment(self):
        environ = super().get_environment()
        if self.request.asker is not None:
            environ[access.ASKER] = self.request.asker  # read before waitress cleared the headers
        return environ


class GuardedErrorTask(ErrorTask):
    def execute(self):
        self.response_headers.extend(security.HEADERS.items())
        super().execute()


class GuardedChannel(HTTPChannel):
    error_task_class = GuardedErrorTask
    task_class = GuardedTask

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        self.parser_class = partial(GuardedParser, channel=self)
        self.group = access.address_group(addr[0])
        self.through_proxy = server.gate.is_trusted(addr[0])
        self.admitted = False  # whether its last request was the table's

    def writable(self):
        """waitress's answer, except while a thread is writing this channel's
        answer: that thread sends what it writes itself, and wakes the loop
        when it leaves some unsent (channel.write_soon pulls the trigger).
        Asked to write meanwhile, the loop polled the ready socket, found the
        output locked and polled again, tens of thousands of times a second,
        holding the interpreter lock the writing thread waited for: at a club
        of fifty tables that spin took most of the server's CPU."""
        if self.requests and self.total_outbufs_len and not (
                self.will_close or self.close_when_flushed):
            if not self.outbuf_lock.acquire(blocking=False):
                return False
            self.outbuf_lock.release()
        return super().writable()

    def evictable(self) -> bool:
        """Nothing being answered nor left to send: closing it loses nothing."""
        return not (self.requests or self.total_outbufs_len or self.will_close)

    def too_slow(self, now: float) -> bool:
        request = self.request
        return (request is not None and not request.headers_finished
                and now - request.started > self.server.header_seconds)


class GuardedServer(TcpWSGIServer):
    def __init__(self, application, gate: access.Gate, header_seconds: float, **kw):
        self.gate = gate
        self.header_seconds = header_seconds
        super().__init__(application, **kw)

    def channel_class(self, server, sock, addr, adj, map=None):
        """A new connection, once there is room for it (waitress calls this
        on accept)."""
        open_channels = self._open()
        if not self.gate.is_trusted(addr[0]):  # the proxy's own: counted by the phone it forwards
            group = access.address_group(addr[0])
            mine = [c for c in open_channels if c.group == group and not c.admitted]
            if len(mine) >= PER_ADDRESS and not self._push_out(mine):
                sock.close()
                return None
        if len(open_channels) >= MAX_CONNECTIONS and not self._push_out(open_channels):
            sock.close()
            return None
        return GuardedChannel(server, sock, addr, adj, map)

    def _open(self) -> list:
        return [c for c in self.active_channels.values() if not c.will_close]

    def make_room_for(self, channel) -> None:
        """A stranger's request forwarded by the proxy: its phone keeps
        PER_ADDRESS connections at most, as it would without the proxy."""
        mine = [c for c in self._open() if c.group == channel.group and not c.admitted
                and c is not channel]
        if len(mine) >= PER_ADDRESS:
            self._push_out(mine)

    @staticmethod
    def _push_out(channels) -> bool:
        """Close the least recently active connection that is not being
        answered, a stranger's before the table's."""
        candidates = [c for c in channels if c.evictable()]
        if not candidates:
            return False
        min(candidates, key=lambda c: (c.admitted, c.last_activity)).handle_close()
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
