"""The outbound HTTP client and its SSRF guard, against real HTTP and HTTPS servers on loopback.

Only the resolver is faked (``socket.getaddrinfo``, the stdlib's), to give test names the answers a hostile
DNS server would give; every request goes to a real server. The HTTPS server has a self-signed certificate
made for the test run.
"""
from __future__ import annotations

import socket
import ssl
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.integrations import outbound
from tests.support import free_port

TLS_NAME = "hooks.test"


@pytest.fixture(autouse=True)
def _clean():
    """Replaces the project-wide clean-up: nothing here touches the app, its database or its jobs."""
    yield


# Servers -------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    """Notes each request, then lets the server's ``respond(handler)`` answer it."""

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.server.requests.append(SimpleNamespace(method=self.command, path=self.path, headers=self.headers,
                                                    body=self.rfile.read(length)))
        try:
            self.server.respond(self)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass  # the client gave up, as it should for a slow or oversized answer

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = answer

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, respond, host: str, tls: ssl.SSLContext | None):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, 0), Handler)
        if tls is not None:
            self.socket = tls.wrap_socket(self.socket, server_side=True)
        self.respond, self.requests, self.stop = respond, [], threading.Event()
        self.port = self.server_address[1]
        self.origin = f"{'https' if tls else 'http'}://{f'[{host}]' if ':' in host else host}:{self.port}"


@pytest.fixture
def serve():
    """``serve(respond=reply(), host="127.0.0.1", tls=None)`` → a running ``Server``; all shut down after the test."""
    servers = []

    def start(respond=None, host="127.0.0.1", tls=None):
        server = Server(respond or reply(), host, tls)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop.set()
        server.shutdown()
        server.server_close()


def reply(status=200, body=b"ok", headers=None, delay=0.0):
    def respond(handler):
        if delay:
            handler.server.stop.wait(delay)
        handler.send_response(status)
        for name, value in {"Content-Length": str(len(body)), **(headers or {})}.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)

    return respond


def trickle(part):
    """Sends a byte every 50 ms, in the ``"headers"`` or in the ``"body"``, until the client leaves (or 5 s)."""

    def respond(handler):
        handler.wfile.write(b"HTTP/1.0 200 OK\r\n" + (b"X-Slow: " if part == "headers" else
                                                      b"Content-Length: 1000\r\n\r\n"))
        for _ in range(100):
            if handler.server.stop.wait(0.05):
                return
            handler.wfile.write(b"a")
            handler.wfile.flush()

    return respond


def endless_body(declared: bool):
    """A 50 MB body, with or without a Content-Length, written until the client leaves."""

    def respond(handler):
        handler.send_response(200)
        if declared:
            handler.send_header("Content-Length", str(50_000_000))
        handler.end_headers()
        for _ in range(50_000_000 // 65536):
            if handler.server.stop.is_set():
                return
            handler.wfile.write(b"x" * 65536)

    return respond


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for ``TLS_NAME``; the file doubles as the CA bundle that trusts it."""
    directory = tmp_path_factory.mktemp("outbound-tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, TLS_NAME)])
    now = datetime.now(timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5)).not_valid_after(now + timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(TLS_NAME)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    paths = SimpleNamespace(cert=directory / "cert.pem", key=directory / "key.pem")
    paths.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return paths


@pytest.fixture
def tls_server(serve, certificate):
    """``tls_server(respond)`` → an HTTPS server on 127.0.0.1 with ``server_names``: the SNI of each handshake."""

    def start(respond=None):
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certificate.cert, certificate.key)
        names = []
        context.sni_callback = lambda ssl_socket, server_name, ctx: names.append(server_name)
        server = serve(respond, tls=context)
        server.server_names = names
        return server

    return start


# The resolver --------------------------------------------------------------

@pytest.fixture
def resolver(monkeypatch):
    """Fakes DNS for chosen names: ``resolver.answer(name, [addresses], ...)`` gives one answer per lookup
    (then "unknown name"); ``resolver.lookups`` lists the names looked up. Other names go to the real resolver;
    ``resolver.forbid()`` makes any lookup of an unknown name fail the test."""
    real = socket.getaddrinfo
    state = SimpleNamespace(answers={}, lookups=[], forbidden=False)

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        if host in state.answers:
            state.lookups.append(host)
            if not state.answers[host]:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return [(socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port, 0, 0))
                    if ":" in address else
                    (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))
                    for address in state.answers[host].pop(0)]
        if state.forbidden:
            raise AssertionError(f"unexpected lookup of {host!r}")
        return real(host, port, family, type, proto, flags)

    state.answer = lambda name, *answers: state.answers.__setitem__(name, list(answers))
    state.forbid = lambda: setattr(state, "forbidden", True)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return state


# Address classes -----------------------------------------------------------

PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001:80b::200e",
          "::ffff:93.184.216.34",  # IPv4-mapped: the IPv4 address decides
          "64:ff9b::5db8:d822",  # NAT64 (DNS64 networks) in front of 93.184.216.34
          "2002:5db8:d822::1"]  # 6to4 in front of 93.184.216.34

NOT_PUBLIC = {
    "loopback": ["127.0.0.1", "127.255.255.254", "::1"],
    "private": ["10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12:3456::1"],
    "link-local": ["169.254.169.254", "169.254.0.1", "fe80::1"],
    "multicast": ["224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1"],
    "reserved": ["240.0.0.1", "250.1.2.3"],
    "broadcast": ["255.255.255.255"],
    "unspecified": ["0.0.0.0", "0.1.2.3", "::"],
    "shared": ["100.64.0.1", "100.127.255.254"],
    "documentation": ["192.0.2.1", "198.51.100.7", "203.0.113.9", "2001:db8::1", "3fff::1"],
    "benchmarking": ["198.18.0.1", "198.19.255.255", "2001:2::1"],
    "ietf-protocol": ["192.0.0.1", "192.0.0.170", "192.88.99.1", "2001:20::1"],
    "ipv4-mapped": ["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:0.0.0.0"],
    "ipv4-compatible": ["::127.0.0.1", "::10.0.0.1", "::93.184.216.34"],
    "ipv4-translated": ["::ffff:0:7f00:1", "::ffff:0:5db8:d822"],
    "6to4": ["2002:7f00:1::1", "2002:a9fe:a9fe::1", "2002:a00:1::"],
    "teredo": ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::a9fe:a9fe"],
    "nat64": ["64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a00:1"],
    "site-local": ["fec0::1"],
    "discard": ["100::1"],
}
NOT_PUBLIC_ADDRESSES = [pytest.param(address, id=f"{kind}-{address}")
                        for kind, addresses in NOT_PUBLIC.items() for address in addresses]


def url_for(address: str, path: str = "/") -> str:
    return f"http://[{address}]{path}" if ":" in address else f"http://{address}{path}"


@pytest.mark.parametrize("address", PUBLIC)
def test_public_unicast_addresses_are_public(address):
    assert outbound.is_public_address(address)


@pytest.mark.parametrize("address", NOT_PUBLIC_ADDRESSES)
def test_addresses_that_are_not_public_unicast_are_not_public(address):
    assert not outbound.is_public_address(address)


@pytest.mark.parametrize("value", ["fe80::1%eth0", "localhost", "example.com", "", "127.1", "[::1]"])
def test_zoned_addresses_and_what_is_not_an_ip_address_are_not_public(value):
    assert not outbound.is_public_address(value)


@pytest.mark.parametrize("address", NOT_PUBLIC_ADDRESSES)
def test_a_url_with_a_non_public_ip_literal_is_refused_without_a_lookup(resolver, address):
    resolver.forbid()

    with pytest.raises(outbound.TargetRefused, match="not a public address"):
        outbound.check_url(url_for(address, "/latest/meta-data/"))


def test_a_url_with_a_public_ip_literal_is_accepted_without_a_lookup(resolver):
    resolver.forbid()

    target = outbound.check_url("https://[2606:4700::1111]:8443/hooks?id=7#fragment")

    assert target == outbound.Target(scheme="https", host="2606:4700::1111", port=8443, address="2606:4700::1111",
                                     path="/hooks?id=7")


# Names ---------------------------------------------------------------------

def test_a_hostname_resolving_to_loopback_is_refused():
    with pytest.raises(outbound.TargetRefused, match="localhost resolves to a non-public address"):
        outbound.check_url("http://localhost:8080/")


def test_a_hostname_is_refused_when_any_of_its_addresses_is_not_public(resolver):
    resolver.answer("mixed.example.com", ["93.184.216.34", "2606:4700::1111", "10.0.0.5"])

    with pytest.raises(outbound.TargetRefused) as refused:
        outbound.check_url("https://mixed.example.com/")

    # The internal address is not told to whoever supplied the URL.
    assert "10.0.0.5" not in str(refused.value)


def test_a_hostname_with_only_public_addresses_gives_its_first_address_as_the_target(resolver):
    resolver.answer("hooks.example.com", ["93.184.216.34", "2606:4700::1111"])

    target = outbound.check_url("HTTPS://Hooks.Example.COM/deliver?x=1")

    assert target == outbound.Target(scheme="https", host="hooks.example.com", port=443, address="93.184.216.34",
                                     path="/deliver?x=1")
    assert resolver.lookups == ["hooks.example.com"]


def test_a_name_that_does_not_resolve_raises_connection_failed(resolver):
    resolver.answer("gone.example.com")

    with pytest.raises(outbound.ConnectionFailed, match="gone.example.com could not be resolved"):
        outbound.check_url("http://gone.example.com/")


def test_an_international_name_is_looked_up_in_its_ascii_form(resolver):
    resolver.answer("xn--bcher-kva.example", ["93.184.216.34"])

    target = outbound.check_url("http://bücher.example/")

    assert target.host == "xn--bcher-kva.example" and resolver.lookups == ["xn--bcher-kva.example"]


def test_allowing_private_targets_lifts_the_refusal():
    assert outbound.check_url("http://localhost:8080/x", allow_private=True).address in ("127.0.0.1", "::1")
    assert outbound.check_url("http://[::1]:8080/", allow_private=True).address == "::1"
    assert outbound.check_url("http://169.254.169.254/", allow_private=True).address == "169.254.169.254"


# URLs ----------------------------------------------------------------------

@pytest.mark.parametrize("url", ["ftp://example.com/file", "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO",
                                 "dict://127.0.0.1:11211/stat", "javascript:alert(1)", "//example.com/",
                                 "example.com/avatar.png", "", "ws://example.com/"])
def test_urls_other_than_http_and_https_are_refused(url):
    with pytest.raises(outbound.TargetRefused, match="only http and https"):
        outbound.check_url(url, allow_private=True)


@pytest.mark.parametrize("url", ["http://admin:s3cret@93.184.216.34/", "https://token@93.184.216.34/",
                                 "http://93.184.216.34@127.0.0.1/", "http://:s3cret@93.184.216.34/",
                                 "http://evil.example\\@127.0.0.1/"])
def test_urls_with_user_information_are_refused_without_repeating_it(url):
    with pytest.raises(outbound.TargetRefused, match="user information") as refused:
        outbound.check_url(url, allow_private=True)

    assert "s3cret" not in str(refused.value) and "token" not in str(refused.value)


@pytest.mark.parametrize("url", ["http:///path", "http://exa mple.com/", "http://example.com/\r\nX-Injected: 1",
                                 "http://example.com\t/", "http://[::1/", "http://[127.0.0.1]/",
                                 "http://example.com:99999/", "http://example.com:0/", "http://example.com:http/",
                                 "http://%31%32%37.0.0.1/", "http://a..b/", "http://[fe80::1%25eth0]/", "http://::1/"])
def test_malformed_urls_are_refused(url):
    with pytest.raises(outbound.TargetRefused):
        outbound.check_url(url, allow_private=True)


# Requests ------------------------------------------------------------------

def test_a_loopback_server_is_not_contacted_by_default(serve):
    server = serve()

    with pytest.raises(outbound.TargetRefused):
        outbound.request("GET", server.origin + "/")

    assert server.requests == []


def test_a_get_to_a_loopback_server_works_when_private_targets_are_allowed(serve):
    server = serve(reply(200, b"\x89PNG image bytes", {"Content-Type": "image/png", "X-Multi": "a"}))

    response = outbound.request("GET", server.origin + "/avatars/7.png?size=256#ignored", allow_private=True,
                                headers={"Accept": "image/png, image/jpeg"}, timeout=2)

    assert response.status == 200 and response.body == b"\x89PNG image bytes"
    assert response.headers["content-type"] == "image/png" and response.headers["content-length"] == "16"
    assert 0 <= response.elapsed_ms < 2000
    (received,) = server.requests
    assert (received.method, received.path) == ("GET", "/avatars/7.png?size=256")
    assert received.headers["Host"] == f"127.0.0.1:{server.port}"
    assert received.headers["Accept"] == "image/png, image/jpeg"
    assert received.headers["User-Agent"] == "ResumeService/1.0"


def test_a_post_sends_the_exact_body_bytes_and_the_callers_headers(serve):
    server = serve(reply(202, b""))
    body = b'{"event": "export.ready", "name": "\xe5\xbc\xa0\xe4\xbc\x9f"}\r\n\x00\xff'
    headers = {"Content-Type": "application/json", "X-Webhook-Signature": "t=1700000000,v1=5257a869e7ecebed",
               "X-Webhook-Id": "evt_123"}

    response = outbound.request("POST", server.origin + "/hooks/resume", body=body, headers=headers,
                                allow_private=True, timeout=2, max_bytes=0, user_agent="ResumeService-Webhooks/1.0")

    assert response.status == 202 and response.body == b""
    (received,) = server.requests
    assert received.method == "POST" and received.path == "/hooks/resume"
    assert received.body == body and received.headers["Content-Length"] == str(len(body))
    assert received.headers.get("Transfer-Encoding") is None
    assert {name: received.headers[name] for name in headers} == headers
    assert received.headers["User-Agent"] == "ResumeService-Webhooks/1.0"
    assert received.headers["Host"] == f"127.0.0.1:{server.port}"


def test_the_host_header_is_the_urls_even_when_the_caller_sends_another(serve):
    server = serve()

    outbound.request("GET", server.origin + "/", headers={"host": "internal.example", "User-Agent": "Custom/2"},
                     allow_private=True, timeout=2)

    (received,) = server.requests
    assert received.headers.get_all("Host") == [f"127.0.0.1:{server.port}"]
    assert received.headers.get_all("User-Agent") == ["Custom/2"]


def test_a_server_on_ipv6_loopback_is_reached_when_private_targets_are_allowed(serve):
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        server = serve(host="::1")
    except OSError:
        pytest.skip("no IPv6 loopback")

    response = outbound.request("GET", server.origin + "/", allow_private=True, timeout=2)

    assert response.status == 200
    assert server.requests[0].headers["Host"] == f"[::1]:{server.port}"


def test_a_redirect_is_returned_without_being_followed(serve):
    elsewhere = serve()
    server = serve(reply(302, b"", {"Location": elsewhere.origin + "/latest/meta-data/"}))

    response = outbound.request("GET", server.origin + "/avatar.png", allow_private=True, timeout=2)

    assert response.status == 302
    assert response.headers["location"] == elsewhere.origin + "/latest/meta-data/"
    assert len(server.requests) == 1 and elsewhere.requests == []


def test_the_request_connects_to_the_checked_address_without_a_second_lookup(serve, resolver):
    server = serve()
    # A rebinding DNS server: loopback for the first lookup, and nothing sensible after it.
    resolver.answer("rebind.example.com", ["127.0.0.1"])

    response = outbound.request("GET", f"http://rebind.example.com:{server.port}/x", allow_private=True, timeout=2)

    assert response.status == 200
    assert resolver.lookups == ["rebind.example.com"]
    assert server.requests[0].headers["Host"] == f"rebind.example.com:{server.port}"


def test_the_elapsed_time_of_a_request_is_reported_in_milliseconds(serve):
    server = serve(reply(delay=0.2))

    response = outbound.request("GET", server.origin + "/", allow_private=True, timeout=2)

    assert 200 <= response.elapsed_ms < 1500


# Failures ------------------------------------------------------------------

def test_a_server_slower_than_the_time_limit_raises_outbound_timeout(serve):
    server = serve(reply(delay=5))
    started = time.monotonic()

    with pytest.raises(outbound.OutboundTimeout):
        outbound.request("POST", server.origin + "/hooks", body=b"{}", allow_private=True, timeout=0.3)

    assert 0.25 <= time.monotonic() - started < 1.0


@pytest.mark.parametrize("part", ["headers", "body"])
def test_a_server_trickling_its_answer_cannot_outlast_the_time_limit(serve, part):
    # Each byte arrives well within a socket time-out; only the limit on the whole request stops this.
    server = serve(trickle(part))
    started = time.monotonic()

    with pytest.raises(outbound.OutboundTimeout):
        outbound.request("GET", server.origin + "/", allow_private=True, timeout=0.4)

    assert 0.35 <= time.monotonic() - started < 1.0


def test_a_tls_server_trickling_its_answer_cannot_outlast_the_time_limit(tls_server, resolver, certificate):
    server = tls_server(trickle("headers"))
    resolver.answer(TLS_NAME, ["127.0.0.1"])
    started = time.monotonic()

    with pytest.raises(outbound.OutboundTimeout):
        outbound.request("GET", f"https://{TLS_NAME}:{server.port}/", allow_private=True, timeout=0.4,
                         ca_certs=str(certificate.cert))

    assert 0.35 <= time.monotonic() - started < 1.0


@pytest.mark.parametrize("declared", [True, False], ids=["with-content-length", "without-content-length"])
def test_a_body_larger_than_max_bytes_raises_response_too_large(serve, declared):
    server = serve(endless_body(declared))
    started = time.monotonic()

    with pytest.raises(outbound.ResponseTooLarge) as too_large:
        outbound.request("GET", server.origin + "/huge.png", allow_private=True, timeout=5, max_bytes=100_000)

    assert too_large.value.status == 200
    assert time.monotonic() - started < 1.0


def test_a_body_of_exactly_max_bytes_is_returned(serve):
    server = serve(reply(body=b"x" * 100_000))

    response = outbound.request("GET", server.origin + "/", allow_private=True, timeout=2, max_bytes=100_000)

    assert response.body == b"x" * 100_000


def test_a_closed_port_raises_connection_failed():
    with pytest.raises(outbound.ConnectionFailed, match="refused"):
        outbound.request("GET", f"http://127.0.0.1:{free_port()}/", allow_private=True, timeout=2)


def test_a_server_closing_without_an_answer_raises_connection_failed(serve):
    server = serve(lambda handler: setattr(handler, "close_connection", True))

    with pytest.raises(outbound.ConnectionFailed):
        outbound.request("GET", server.origin + "/", allow_private=True, timeout=2)


# HTTPS ---------------------------------------------------------------------

def test_https_to_the_checked_address_sends_the_urls_name_for_sni_and_verifies_the_certificate(
        tls_server, resolver, certificate):
    server = tls_server(reply(body=b"secure"))
    resolver.answer(TLS_NAME, ["127.0.0.1"])

    response = outbound.request("GET", f"https://{TLS_NAME}:{server.port}/avatar", allow_private=True, timeout=2,
                                ca_certs=str(certificate.cert))

    assert response.status == 200 and response.body == b"secure"
    assert server.server_names == [TLS_NAME]
    assert server.requests[0].headers["Host"] == f"{TLS_NAME}:{server.port}"
    assert resolver.lookups == [TLS_NAME]


def test_https_to_a_server_whose_certificate_is_not_trusted_raises_connection_failed(
        tls_server, resolver, monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    server = tls_server()
    resolver.answer(TLS_NAME, ["127.0.0.1"])

    with pytest.raises(outbound.ConnectionFailed, match="certificate verify failed"):
        outbound.request("GET", f"https://{TLS_NAME}:{server.port}/", allow_private=True, timeout=2)

    assert server.requests == []


def test_https_to_a_server_whose_certificate_is_for_another_name_raises_connection_failed(
        tls_server, resolver, certificate):
    server = tls_server()
    resolver.answer("other.test", ["127.0.0.1"])

    with pytest.raises(outbound.ConnectionFailed):
        outbound.request("GET", f"https://other.test:{server.port}/", allow_private=True, timeout=2,
                         ca_certs=str(certificate.cert))

    assert server.requests == []
