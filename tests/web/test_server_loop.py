"""The hardened server's event loop (scorekeeper/web/guard/server.py) and
the threads writing its answers: the loop leaves an answer to the thread
writing it, and still sends whatever that thread leaves behind, however
long the answer and however slow its reader. In-process, on loopback, no
clock waited on but the reader's own pace."""

import socket
import threading

import pytest
from waitress import wasyncore

from scorekeeper.web.guard import access
from scorekeeper.web.guard.server import GuardedChannel, create_server, settings

CHUNK = 64 * 1024


@pytest.fixture
def server(app):
    """The server as `make run` builds it, on a free loopback port, with a
    small output watermark so that a long answer makes its thread wait for
    the loop; `server.serve(wsgi)` runs the loop in a thread until the test ends."""
    options = settings("127.0.0.1", 0) | {"outbuf_high_watermark": 4 * CHUNK}
    made = create_server(app, gate=access.gate(app), **options)
    # Its connections inherit a small send buffer: an answer's chunk is
    # more than one send takes, and the rest waits in waitress's buffers.
    made.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    stop = threading.Event()
    loop = threading.Thread(target=lambda: _loop(made, stop), daemon=True)

    def serve(wsgi):
        made.application = wsgi
        loop.start()

    made.serve = serve
    yield made
    stop.set()
    if loop.is_alive():
        loop.join(timeout=5)
    made.task_dispatcher.shutdown(timeout=5)
    for dispatcher in list(made._map.values()):
        dispatcher.close()


def _loop(server, stop):
    while not stop.is_set():
        wasyncore.loop(timeout=0.05, map=server._map, use_poll=True, count=1)


@pytest.fixture
def channel(server):
    """A table's connection on `server`, outside its loop (its own map)."""
    ours, theirs = socket.socketpair()
    made = GuardedChannel(server, ours, ("127.0.0.1", 50000), server.adj, map={})
    made.requests = ["a request being answered"]
    made.outbufs[-1].append(b"HTTP/1.1 200 OK\r\n")
    made.total_outbufs_len = len(b"HTTP/1.1 200 OK\r\n")
    yield made
    made.requests = []
    made.close()
    theirs.close()


def _held(lock):
    """`lock` held by another thread until the returned event is set."""
    taken, done = threading.Event(), threading.Event()

    def hold():
        with lock:
            taken.set()
            done.wait(5)

    threading.Thread(target=hold, daemon=True).start()
    assert taken.wait(5)
    return done


def test_the_loop_does_not_ask_to_write_what_a_thread_is_writing(channel):
    release = _held(channel.outbuf_lock)
    try:
        assert not channel.writable()
    finally:
        release.set()


def test_the_loop_writes_what_the_thread_left_once_it_lets_go(channel):
    release = _held(channel.outbuf_lock)
    release.set()
    channel.outbuf_lock.acquire()  # the holder is gone
    channel.outbuf_lock.release()
    assert channel.writable()


def test_a_connection_to_close_is_still_closed_while_its_thread_writes(channel):
    channel.will_close = True
    release = _held(channel.outbuf_lock)
    try:
        assert channel.writable()
    finally:
        release.set()


def test_nothing_to_send_is_nothing_to_write(channel):
    channel.total_outbufs_len = 0
    assert not channel.writable()


def _long_answer(chunks: int, pause: threading.Event | None = None):
    """A WSGI app answering `chunks` chunks of CHUNK bytes, each one's bytes
    its own number; paused after the first chunk until `pause` is set."""

    def wsgi(environ, start_response):
        start_response("200 OK", [("Content-Type", "application/octet-stream"),
                                  ("Content-Length", str(chunks * CHUNK))])

        def body():
            for number in range(chunks):
                yield bytes([number % 256]) * CHUNK
                if pause is not None and number == 0:
                    pause.wait(30)  # longer than the reader waits

        return body()

    return wsgi


def _get(port: int, receive_buffer: int = 4096) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /long HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return sock


def _read(sock: socket.socket, until: int | None = None) -> bytearray:
    """What `sock` receives, a few KB at a time (a slow reader), until it
    closes or, given `until`, once that many bytes have come."""
    received = bytearray()
    while until is None or len(received) < until:
        chunk = sock.recv(8192)
        if not chunk:
            break
        received += chunk
    return received


def _body(received: bytes) -> bytes:
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return body


def test_a_long_answer_to_a_slow_reader_arrives_whole(server):
    """Far beyond the watermark: the writing thread waits for the loop to
    send, again and again; a loop that never asked to write would leave it
    waiting and the reader with a cut answer."""
    chunks = 48
    server.serve(_long_answer(chunks))
    with _get(int(server.effective_port)) as sock:
        body = _body(_read(sock))
    assert len(body) == chunks * CHUNK
    assert all(body[n * CHUNK] == n % 256 and body[(n + 1) * CHUNK - 1] == n % 256
               for n in range(chunks))


def test_what_the_thread_leaves_unsent_is_sent_while_it_still_answers(server):
    """The first chunk, more than a slow reader's socket takes at once, is
    sent by the loop while the answering thread waits before the next."""
    pause = threading.Event()
    server.serve(_long_answer(2, pause))
    with _get(int(server.effective_port)) as sock:
        try:
            first = _read(sock, until=CHUNK + 20)  # the headers and the first chunk
        finally:
            pause.set()
        body = _body(first + _read(sock))
    assert body == bytes([0]) * CHUNK + bytes([1]) * CHUNK
