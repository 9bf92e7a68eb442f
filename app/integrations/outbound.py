"""Outbound HTTP to URLs that users supply (the photo of a resume, webhook receivers), guarded against SSRF.

A URL typed by a user must not make the service talk to itself or to its private network (the database,
Redis, a cloud metadata endpoint at 169.254.169.254, an admin interface on loopback). What this module
guarantees for every request:

- only ``http`` and ``https`` URLs with a host, and no user information (``user:password@``);
- the host is resolved once, and the request is refused when *any* of its addresses is not a public unicast
  address (see ``is_public_address``); an IP literal is judged the same way, without DNS;
- the connection goes to the address that was checked, never to a second lookup of the name: otherwise a DNS
  server that answers with a public address for the check and with 127.0.0.1 for the connection (DNS
  rebinding, a time-of-check/time-of-use race) would get through. The name is still used where it belongs:
  in the ``Host`` header, and for https in SNI and certificate verification (certificates are always
  verified, against the system's CA store unless a bundle is given);
- redirects are never followed (a redirect could point anywhere; a 3xx is returned as it is);
- one time limit covers the whole request, connection to last byte; socket time-outs alone bound each wait,
  not their sum, so a watchdog shuts the socket down when the limit passes;
- the response body is streamed and given up as soon as it passes ``max_bytes``.

``allow_private=True`` lifts the address check, for development and tests whose receivers are on loopback;
callers take it from configuration and it must stay off in production.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import time
from dataclasses import dataclass
from http.client import HTTPException
from urllib.parse import urlsplit

from urllib3 import HTTPConnectionPool, Timeout
from urllib3.exceptions import HTTPError, NewConnectionError
from urllib3.exceptions import TimeoutError as Urllib3Timeout

from app.integrations.deadlines import Deadline, HTTPPool, HTTPSPool

__all__ = ["OutboundError", "TargetRefused", "OutboundTimeout", "ResponseTooLarge", "ConnectionFailed",
           "Target", "Response", "is_public_address", "check_url", "request"]

DEFAULT_PORTS = {"http": 80, "https": 443}
_CHUNK = 64 * 1024
# Letters, digits, hyphens and underscores (some real names have them) in dot-separated labels, once IDNA-encoded.
_HOSTNAME = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?")


class OutboundError(Exception):
    """Base of every error ``request`` and ``check_url`` raise."""


class TargetRefused(OutboundError):
    """The URL is not allowed: scheme, user information, or the class of an address it leads to. The message
    is a msgid of the catalogue; ``values`` fill its places (the webhooks' API says it in the reader's words)."""

    def __init__(self, message: str, **values):
        super().__init__(message % values if values else message)
        self.template, self.values = message, values


class OutboundTimeout(OutboundError):
    """The time limit of the request passed."""


class ResponseTooLarge(OutboundError):
    """The response body passed ``max_bytes``; ``status`` is the response's status code."""

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status


class ConnectionFailed(OutboundError):
    """The host name did not resolve, or the connection was refused, reset or failed TLS verification."""


@dataclass(frozen=True)
class Target:
    """A checked URL: ``address`` is the IP to connect to; ``host`` the name for Host, SNI and the certificate."""
    scheme: str
    host: str
    port: int
    address: str
    path: str  # with the query string


@dataclass(frozen=True)
class Response:
    """``headers`` has lower-cased names (repeated headers joined with ", "); ``body`` is as sent, not decoded."""
    status: int
    headers: dict[str, str]
    body: bytes
    elapsed_ms: int


# Address classes -------------------------------------------------------------

def _networks(*cidrs: str) -> tuple:
    return tuple(ipaddress.ip_network(cidr) for cidr in cidrs)


# The IANA special-purpose registries, written out because ``is_global`` differs between Python releases
# (3.11 calls 224.0.0.1, fec0::1 and ::7f00:1 global).
_IPV4_NOT_PUBLIC = _networks(
    "0.0.0.0/8",  # "this network", 0.0.0.0 included
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",  # RFC 1918
    "100.64.0.0/10",  # shared address space (carrier-grade NAT)
    "127.0.0.0/8", "169.254.0.0/16",
    "192.0.0.0/24",  # IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
    "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24",  # documentation
    "192.88.99.0/24",  # the deprecated 6to4 relay anycast: a way into tunnels
    "198.18.0.0/15",  # benchmarking
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved, 255.255.255.255 included
)
_IPV6_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")  # everything outside it is refused unless it embeds IPv4
_IPV6_NOT_PUBLIC = _networks(
    "2001::/23",  # IETF protocol assignments: Teredo, benchmarking, ORCHID, ...
    "2001:db8::/32", "3fff::/20",  # documentation
)
_IPV4_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")


def _is_public_ipv4(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not any(ip in network for network in _IPV4_NOT_PUBLIC)


def _is_public_ipv6(ip: ipaddress.IPv6Address) -> bool:
    # These forms stand for an IPv4 host (the kernel, a NAT64 gateway or a 6to4 relay delivers to it),
    # so the IPv4 address decides; 64:ff9b::/96 is how IPv4-only sites look from IPv6-only networks (DNS64).
    if ip in _IPV4_MAPPED:
        return _is_public_ipv4(ip.ipv4_mapped)
    if ip in _NAT64_WELL_KNOWN:
        return _is_public_ipv4(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip in _SIX_TO_FOUR:
        return _is_public_ipv4(ip.sixtofour)
    # What remains outside 2000::/3 is not public: ::, ::1, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96,
    # local-use NAT64 64:ff9b:1::/48, discard 100::/64, fc00::/7, fe80::/10, site-local fec0::/10, multicast ff00::/8.
    return (ip in _IPV6_GLOBAL_UNICAST and ip.is_global
            and not any(ip in network for network in _IPV6_NOT_PUBLIC))


def is_public_address(address: str) -> bool:
    """Whether ``address`` (an IPv4 or IPv6 literal, no brackets) is a public unicast address.

    Anything that is not an IP address, and IPv6 addresses with a zone (``fe80::1%eth0``), are not public.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 4:
        return _is_public_ipv4(ip)
    return ip.scope_id is None and _is_public_ipv6(ip)


# Checking a URL ----------------------------------------------------------------

def _ascii_host(host: str) -> str:
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise TargetRefused("the host name is not valid") from None
    if not _HOSTNAME.fullmatch(name):
        raise TargetRefused("the host name is not valid")
    return name


def _resolve(host: str, port: int) -> list:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ConnectionFailed(f"{host} could not be resolved: {getattr(exc, 'strerror', None) or exc}") from None
    addresses = []
    for family, _, _, _, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6):
            address = ipaddress.ip_address(sockaddr[0])
            if address not in addresses:
                addresses.append(address)
    if not addresses:
        raise ConnectionFailed(f"{host} has no IPv4 or IPv6 address")
    return addresses


def check_url(url: str, *, allow_private: bool = False) -> Target:
    """Parse ``url`` and resolve its host once; the ``Target`` says which address to connect to.

    Raises ``TargetRefused`` (the messages never repeat the URL, which may hold tokens) or, when the name
    does not resolve, ``ConnectionFailed``.
    """
    # Whitespace and control characters are removed or kept differently by different URL parsers; refusing
    # them leaves a single reading of the URL.
    if not isinstance(url, str) or any(ord(char) <= 0x20 or ord(char) == 0x7F for char in url):
        raise TargetRefused("the URL is empty or contains spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise TargetRefused("the URL is not valid (host or port)") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise TargetRefused("only http and https URLs are allowed")
    if "@" in parts.netloc:
        raise TargetRefused("URLs with user information (user:password@) are not allowed")
    if not parts.hostname:
        raise TargetRefused("the URL has no host")
    if port == 0:
        raise TargetRefused("port 0 is not allowed")
    port = port or DEFAULT_PORTS[scheme]

    if parts.netloc.startswith("["):
        try:
            literal = ipaddress.IPv6Address(parts.hostname)
        except ValueError:
            raise TargetRefused("the IPv6 address is not valid") from None
        if literal.scope_id is not None:
            raise TargetRefused("IPv6 zone identifiers are not allowed")
        host, addresses = str(literal), [literal]
    else:
        host = _ascii_host(parts.hostname)
        try:
            addresses = [ipaddress.IPv4Address(host)]
        except ValueError:
            addresses = _resolve(host, port)

    if not allow_private and not all(is_public_address(str(address)) for address in addresses):
        if len(addresses) == 1 and str(addresses[0]) == host:
            raise TargetRefused("%(host)s is not a public address", host=host)
        # The addresses themselves stay out of the message: they would tell a user about the internal network.
        raise TargetRefused("%(host)s resolves to a non-public address", host=host)
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme=scheme, host=host, port=port, address=str(addresses[0]), path=path)


# Requests ----------------------------------------------------------------------

def _pool(target: Target, deadline: Deadline, ca_certs: str | None) -> HTTPConnectionPool:
    remaining = deadline.remaining()
    if remaining <= 0:
        raise OutboundTimeout("the time limit passed while resolving the host")
    options = dict(host=target.address, port=target.port, timeout=Timeout(connect=remaining, read=remaining),
                   maxsize=1, block=False, retries=False, deadline=deadline)
    if target.scheme == "http":
        return HTTPPool(**options)
    # The certificate must be valid for the name in the URL, not for the address connected to.
    name = target.host.rstrip(".")
    return HTTPSPool(**options, cert_reqs="CERT_REQUIRED", ca_certs=ca_certs, server_hostname=name,
                     assert_hostname=name)


def _request_headers(target: Target, headers: dict[str, str] | None, user_agent: str) -> dict[str, str]:
    # Host comes from the URL, never from the caller: it must name what the address was checked for.
    result = {name: value for name, value in (headers or {}).items() if name.lower() != "host"}
    if not any(name.lower() == "user-agent" for name in result):
        result["User-Agent"] = user_agent
    host = f"[{target.host}]" if ":" in target.host else target.host
    result["Host"] = host if target.port == DEFAULT_PORTS[target.scheme] else f"{host}:{target.port}"
    return result


def _read_body(response, max_bytes: int) -> bytes:
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(f"the response body ({declared} bytes) is larger than {max_bytes} bytes",
                               status=response.status)
    chunks, size = [], 0
    while True:
        # One byte more than what is left is enough to know the limit was passed.
        chunk = response.read(min(_CHUNK, max_bytes - size + 1))
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > max_bytes:
            raise ResponseTooLarge(f"the response body is larger than {max_bytes} bytes", status=response.status)
        chunks.append(chunk)


def _root_cause(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while (cause := exc.__cause__ or exc.__context__) is not None and id(cause) not in seen:
        seen.add(id(cause))
        exc = cause
    return exc


def _failure(exc: Exception, target: Target, deadline: Deadline, timeout: float) -> OutboundError:
    # Once the watchdog shut the socket down, any error (reset, incomplete read, TLS EOF) is the time-out.
    if deadline.expired() or (isinstance(exc, Urllib3Timeout) and not isinstance(exc, NewConnectionError)):
        return OutboundTimeout(f"no complete response from {target.host} within {timeout:g} s")
    return ConnectionFailed(f"connection to {target.host} port {target.port} failed: {_root_cause(exc)}")


def request(method: str, url: str, *, body: bytes | None = None, headers: dict[str, str] | None = None,
            allow_private: bool = False, timeout: float = 10.0, max_bytes: int = 1_000_000,
            user_agent: str = "ResumeService/1.0", ca_certs: str | None = None) -> Response:
    """Send one request to ``url`` and return the response, body included (at most ``max_bytes``).

    ``timeout`` (seconds) limits the whole request; the time name resolution takes counts, though a slow
    resolver cannot be interrupted. ``body`` is sent as it is, with ``headers`` (a ``Host`` among them is
    replaced by the URL's). Raises ``TargetRefused``, ``ConnectionFailed``, ``OutboundTimeout`` or
    ``ResponseTooLarge``, all ``OutboundError``.
    """
    if body is not None and not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError("body must be bytes")
    if timeout <= 0 or max_bytes < 0:
        raise ValueError("timeout must be positive and max_bytes not negative")
    started = time.monotonic()
    target = check_url(url, allow_private=allow_private)
    deadline = Deadline(started + timeout)
    try:
        pool = _pool(target, deadline, ca_certs)
        try:
            # retries=False as well as redirect=False: urllib3 would otherwise follow a redirect on this pool, and
            # a hidden retry could deliver a webhook twice.
            response = pool.urlopen(method, target.path, body=body,
                                    headers=_request_headers(target, headers, user_agent),
                                    retries=False, redirect=False, assert_same_host=False,
                                    preload_content=False, decode_content=False, release_conn=False)
            try:
                status = response.status
                response_headers = {name.lower(): response.headers[name] for name in response.headers}
                content = _read_body(response, max_bytes)
            finally:
                response.close()
        finally:
            pool.close()
        # A socket shut down by the watchdog reads as an orderly end, which can pass for a complete answer
        # (headers without a blank line, a body without a length).
        if deadline.passed:
            raise OutboundTimeout(f"no complete response from {target.host} within {timeout:g} s")
    except (HTTPError, HTTPException, OSError) as exc:
        raise _failure(exc, target, deadline, timeout) from exc
    finally:
        deadline.close()
    return Response(status=status, headers=response_headers, body=content,
                    elapsed_ms=round((time.monotonic() - started) * 1000))
