"""The harness's wait for gunicorn, against local sockets: no PostgreSQL, Redis or e2e stack.

Not marked ``e2e``: these tests start nothing but a listening socket on 127.0.0.1.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator

import pytest

from tests.e2e.planner_stack import wait_until_answers

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[int, socket.socket], None]], str]]:
    """``server(handle)``: a URL whose connections are given to ``handle(n, connection)``.

    ``n`` counts the connections from 0. A handler that returns without closing the
    connection leaves it open and silent until the test ends.
    """
    listeners: list[socket.socket] = []
    held: list[socket.socket] = []
    stop = threading.Event()

    def start(handle: Callable[[int, socket.socket], None]) -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.1)
        listeners.append(listener)

        def serve() -> None:
            n = 0
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                held.append(conn)
                handle(n, conn)
                n += 1

        threading.Thread(target=serve, daemon=True).start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}/accounts/login/"

    yield start
    stop.set()
    for s in listeners + held:
        s.close()


def answer(conn: socket.socket) -> None:
    conn.recv(65536)
    conn.sendall(OK)
    conn.close()


def test_a_server_that_accepts_and_never_answers_is_not_ready_and_raises_nothing() -> None:
    # The kernel accepts connections into the backlog: the request is sent, the answer
    # never comes, and the read times out (TimeoutError, not wrapped in URLError).
    with socket.create_server(("127.0.0.1", 0)) as silent:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        assert wait_until_answers(url, timeout_s=0.5, request_timeout_s=0.1, pause_s=0.05) is False


def test_a_timed_out_first_request_is_tried_again(server: Callable[..., str]) -> None:
    def handle(n: int, conn: socket.socket) -> None:
        if n > 0:  # the first connection is held open and never answered
            answer(conn)

    url = server(handle)
    assert wait_until_answers(url, timeout_s=30, request_timeout_s=0.2, pause_s=0.05) is True


@pytest.mark.parametrize("first", ["close at once", "reset", "half a status line", "500"])
def test_dropped_or_broken_first_answers_are_tried_again(server: Callable[..., str], first: str) -> None:
    def handle(n: int, conn: socket.socket) -> None:
        if n > 0:
            answer(conn)
            return
        conn.recv(65536)
        if first == "reset":  # RST instead of FIN: ConnectionResetError on the client
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif first == "half a status line":  # BadStatusLine on the client
            conn.sendall(b"HTTP/1.1 20")
        elif first == "500":
            conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
        conn.close()  # "close at once": RemoteDisconnected on the client

    url = server(handle)
    assert wait_until_answers(url, timeout_s=30, request_timeout_s=2, pause_s=0.05) is True


def test_a_refused_connection_is_not_ready() -> None:
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    # The port is free again: connections to it are refused.
    assert wait_until_answers(f"http://127.0.0.1:{port}/", timeout_s=0.2, pause_s=0.05) is False
