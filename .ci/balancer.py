"""A small round-robin TCP balancer for CI's deployment stage (standard library only).

    python3 -I -S .ci/balancer.py LISTEN_PORT BACKEND_PORT [BACKEND_PORT...]

Listens on 127.0.0.1:LISTEN_PORT and relays each accepted connection, bytes as they are, to the
next of the backends on 127.0.0.1 in turn (the first connection to the first, the second to the
second, ...), as a PaaS's router spreads requests over a process type's processes. A backend that
refuses the connection is skipped for that connection (said on stderr). Each connection is one line
on stdout, ``connection N -> 127.0.0.1:PORT``, so that the stage can tell that every backend served.
SIGTERM or SIGINT ends it, after a line with the count per backend.

A relay of bytes, not a proxy: it adds no ``X-Forwarded-For``, so the webs see every client as
127.0.0.1, as they did when the smoke test spoke to one of them directly.
"""
from __future__ import annotations

import argparse
import itertools
import signal
import socket
import socketserver
import sys
import threading

HOST = "127.0.0.1"
CONNECT_TIMEOUT = 5  # seconds to reach a backend
CHUNK = 65536


class Backends:
    """The backends in turn, and how many connections each was given."""

    def __init__(self, ports: list[int]):
        self.ports = ports
        self.counts = {port: 0 for port in ports}
        self.accepted = 0
        self._turn = itertools.cycle(range(len(ports)))
        self._lock = threading.Lock()

    def connect(self) -> tuple[int, socket.socket] | None:
        """A connection to the next backend that accepts one (each tried once), or None."""
        with self._lock:
            self.accepted += 1
            number, start = self.accepted, next(self._turn)
        for offset in range(len(self.ports)):
            port = self.ports[(start + offset) % len(self.ports)]
            try:
                upstream = socket.create_connection((HOST, port), timeout=CONNECT_TIMEOUT)
            except OSError as exc:
                print(f"balancer: connection {number}: {HOST}:{port} refused it ({exc}); trying the next",
                      file=sys.stderr, flush=True)
                continue
            upstream.settimeout(None)
            with self._lock:
                self.counts[port] += 1
            print(f"connection {number} -> {HOST}:{port}", flush=True)
            return port, upstream
        print(f"balancer: connection {number}: no backend accepted it", file=sys.stderr, flush=True)
        return None

    def summary(self) -> str:
        with self._lock:
            return ", ".join(f"{HOST}:{port} {count}" for port, count in self.counts.items())


def pipe(source: socket.socket, target: socket.socket) -> None:
    """Copy until ``source`` reaches end of file (or fails), then end ``target``'s sending side."""
    try:
        while True:
            data = source.recv(CHUNK)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    try:
        target.shutdown(socket.SHUT_WR)
    except OSError:
        pass


class Relay(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        connected = self.server.backends.connect()
        if connected is None:
            return
        _, upstream = connected
        with upstream:
            back = threading.Thread(target=pipe, args=(upstream, self.request), daemon=True)
            back.start()
            pipe(self.request, upstream)
            back.join()


class Balancer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, port: int, backends: Backends):
        super().__init__((HOST, port), Relay)
        self.backends = backends


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("listen_port", type=int, help="the port to listen on (127.0.0.1)")
    parser.add_argument("backend_ports", type=int, nargs="+", help="the backends' ports (127.0.0.1), in turn")
    args = parser.parse_args()
    backends = Backends(args.backend_ports)
    try:
        server = Balancer(args.listen_port, backends)
    except OSError as exc:
        print(f"balancer: cannot listen on {HOST}:{args.listen_port}: {exc}", file=sys.stderr)
        return 1

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(f"balancer: listening on {HOST}:{args.listen_port}, round robin over "
          f"{', '.join(f'{HOST}:{port}' for port in args.backend_ports)}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        print(f"balancer: stopped; connections per backend: {backends.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
