"""A reverse proxy of the tests' own, routing by path as docs/operations.md tells one to route the Procfile's
processes: ``/mcp`` and its protected-resource metadata to the ``mcp`` process, every other path to ``web``.
It stands for the deployment's nginx or PaaS router (something outside the service), so it is kept to what
such a proxy does: the request passed on as it came (its Host header included, so both processes see the
public address), the answer streamed back as the backend writes it (the MCP server answers in server-sent
events), hop-by-hop headers dropped, one request per connection."""
from __future__ import annotations

import http.client
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support import free_port, start_serving, stop_serving

MCP_PATHS = ("/mcp", "/.well-known/oauth-protected-resource/mcp")
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade", "content-length"}


class Router:
    """``with Router(web_port, mcp_port) as router``: serving at ``router.url``; its address is known (``port``)
    before it starts, so the processes behind it can be given it as their BASE_URL."""

    def __init__(self, web_port: int, mcp_port: int):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.backends = {"web": web_port, "mcp": mcp_port}
        self.server: ThreadingHTTPServer | None = None

    def backend_for(self, path: str) -> int:
        route = path.split("?", 1)[0]
        return self.backends["mcp" if route in MCP_PATHS or route.startswith("/mcp/") else "web"]

    def __enter__(self) -> Router:
        router = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the answer ends when the connection closes: no re-chunking

            def _relay(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
                if body is not None:
                    headers["Content-Length"] = str(length)
                backend = http.client.HTTPConnection("127.0.0.1", router.backend_for(self.path), timeout=120)
                try:
                    backend.request(self.command, self.path, body=body, headers=headers)
                    answer = backend.getresponse()
                    self.send_response_only(answer.status, answer.reason)
                    for name, value in answer.getheaders():
                        if name.lower() not in HOP_BY_HOP:
                            self.send_header(name, value)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    while chunk := answer.read1(65536):
                        self.wfile.write(chunk)
                        self.wfile.flush()
                finally:
                    backend.close()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _relay

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        start_serving(self.server)
        return self

    def __exit__(self, *_exc) -> None:
        stop_serving(self.server)
