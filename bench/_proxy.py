"""A TCP proxy that delays what the client sends by a fixed time, as a network round trip
between a worker and Redis would (bench/concurrency.py, issue 36).

    python bench/_proxy.py --listen 7400 --to 127.0.0.1:6379 --delay-ms 0.5

Every chunk read from a client is forwarded to the server ``--delay-ms`` after it was
read (the chunks of one connection keep their order); the server's replies go back at
once. So each Redis command (or pipeline) is answered one delay later than without the
proxy. Threads rather than asyncio: ``time.sleep`` keeps sub-millisecond delays, where
an event loop rounds its timeouts up to whole milliseconds. It prints ``ready <port>``
once listening and runs until killed.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import socket
import threading
import time

CHUNK = 65536


def _upstream(client: socket.socket, server: socket.socket, delay_s: float) -> None:
    """Client to server, each chunk ``delay_s`` after it arrived."""
    pending: queue.SimpleQueue[tuple[float, bytes]] = queue.SimpleQueue()

    def send() -> None:
        while True:
            due, chunk = pending.get()
            if not chunk:
                break
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            try:
                server.sendall(chunk)
            except OSError:
                break
        _close(server)

    threading.Thread(target=send, daemon=True).start()
    while True:
        try:
            chunk = client.recv(CHUNK)
        except OSError:
            chunk = b""
        pending.put((time.perf_counter() + delay_s, chunk))
        if not chunk:
            return


def _downstream(server: socket.socket, client: socket.socket) -> None:
    """Server to client, at once."""
    while True:
        try:
            chunk = server.recv(CHUNK)
            if not chunk:
                break
            client.sendall(chunk)
        except OSError:
            break
    _close(client)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def serve(listen: int, host: str, port: int, delay_s: float) -> None:
    """Accept connections on ``listen`` and proxy each to ``host:port``."""
    sock = socket.create_server(("127.0.0.1", listen), reuse_port=False)
    print(f"ready {sock.getsockname()[1]}", flush=True)
    while True:
        client, _addr = sock.accept()
        server = socket.create_connection((host, port))
        for s in (client, server):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=_upstream, args=(client, server, delay_s), daemon=True).start()
        threading.Thread(target=_downstream, args=(server, client), daemon=True).start()


def main() -> None:
    """Parse the options and serve."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", type=int, default=0, help="port (0: any free one)")
    parser.add_argument("--to", default="127.0.0.1:6379", help="the Redis server host:port")
    parser.add_argument("--delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    host, _, port = args.to.rpartition(":")
    serve(args.listen, host, int(port), args.delay_ms / 1000)


if __name__ == "__main__":
    main()
