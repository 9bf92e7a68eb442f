"""A webhook receiver for bench/webhooks.py, run as its own process.

    python bench/receiver.py PORT LOGFILE

Answers every POST with 204 and appends "<arrival unix time> <event id>" to LOGFILE.
"""
from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    out = open(path, "a", buffering=1, encoding="utf-8")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            arrived = time.time()
            try:
                event_id = json.loads(body).get("id", "-")
            except ValueError:
                event_id = "-"
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            out.write(f"{arrived:.6f} {event_id}\n")

        def log_message(self, *args):
            pass

    # A listen backlog of 128, as a real server has: socketserver's default of 5 drops the
    # connections of a sender that posts in parallel (and TCP retries them a second later).
    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
