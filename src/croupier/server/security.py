"""HTTP hardening shared by every route: security headers, the request body cap, the
client's address behind trusted proxies, and the session cookie's ``Secure`` flag.

Limits and their settings are listed in ``docs/security.md``.

>>> client_address("10.0.0.5", "1.2.3.4", trusted=())           # untrusted peer: ignored
'10.0.0.5'
>>> client_address("10.0.0.5", "6.6.6.6, 1.2.3.4", trusted=("10.0.0.0/8",))
'1.2.3.4'
>>> client_address("10.0.0.5", "1.2.3.4, 10.0.0.7", trusted=("10.0.0.0/8",))
'1.2.3.4'
>>> json_depth(b'{"a": [[1], {"b": "[[[["}]}')
3
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from croupier.engine.errors import CodedError

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

    from croupier.server.settings import Settings

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "BodyTooBig",
    "SecurityMiddleware",
    "client_address",
    "connection_ip",
    "connection_is_https",
    "content_security_policy",
    "is_https",
    "json_depth",
    "parse_json_body",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@lru_cache(maxsize=8)
def content_security_policy(peers: tuple[str, ...] = ()) -> str:
    """The pages' CSP: nothing from another origin, but a page may ask the room's other
    processes (``peers``, their origins) whether they are up, to go on there when its
    own process dies (docs/architecture.md, "A room on several processes"). Cached: it is
    asked for every HTTP response, and the peers seldom change.

    >>> "connect-src 'self';" in content_security_policy()
    True
    >>> "connect-src 'self' http://h:8001;" in content_security_policy(("http://h:8001",))
    True
    """
    connect = " ".join(("'self'", *peers))
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src {connect}",
            "media-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


CONTENT_SECURITY_POLICY: Final = content_security_policy()
"""No inline script or style, nothing from another origin, never framed."""

SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)


HSTS: Final = (b"strict-transport-security", b"max-age=31536000")
"""Sent on responses to HTTPS requests only (a browser ignores it over plain HTTP)."""


class BodyTooBig(Exception):
    """The request body went over the cap while it was being read."""


class SecurityMiddleware:
    """ASGI middleware: every HTTP response gets :data:`SECURITY_HEADERS`; a request whose
    ``Content-Length`` is over ``max_body`` is answered 413 before any of it is read, and a
    body streamed without a length stops being read at the cap (the handler's read raises
    :class:`BodyTooBig`, answered 413 here). ``peers(scope)``: the origins of the room's
    other live processes, which the CSP lets a page ask (:func:`content_security_policy`)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int,
        trusted: tuple[str, ...] = (),
        peers: Callable[[Scope], tuple[str, ...]] | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.trusted = trusted
        self.peers = peers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        headers = dict((k.lower(), v) for k, v in scope.get("headers", []))
        peer = scope["client"][0] if scope.get("client") else ""
        proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1") or None
        https = is_https(scope.get("scheme", "http"), peer, proto, trusted=self.trusted)
        own = (*SECURITY_HEADERS, *((HSTS,) if https else ()))
        peers = self.peers(scope) if self.peers is not None else ()
        if peers:
            csp = (b"content-security-policy", content_security_policy(peers).encode())
            own = (csp, *(h for h in own if h[0] != csp[0]))

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in own if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        length = _content_length(scope)
        if length is not None and length > self.max_body:
            await _too_big(send_with_headers, self.max_body)
            return
        seen = 0

        async def capped_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooBig
            return message

        try:
            await self.app(scope, capped_receive, send_with_headers)
        except BodyTooBig:
            if started:
                raise
            await _too_big(send_with_headers, self.max_body)


def _content_length(scope: Scope) -> int | None:
    for k, v in scope.get("headers", []):
        if k.lower() == b"content-length":
            try:
                return int(v)
            except ValueError:
                return None
    return None


async def _too_big(send: Send, cap: int) -> None:
    body = json.dumps(
        {"error": {"code": "too_big", "message": f"request body over {cap} bytes"}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@lru_cache(maxsize=64)
def _networks(
    trusted: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(t, strict=False) for t in trusted)


def _trusted(address: str, trusted: tuple[str, ...]) -> bool:
    if not trusted:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == n.version and ip in n for n in _networks(trusted))


def client_address(peer: str, forwarded_for: str | None, *, trusted: tuple[str, ...]) -> str:
    """The client's address: the TCP peer, unless the peer is a trusted proxy; then the
    right-most ``X-Forwarded-For`` entry that is not itself a trusted proxy (entries
    further left were written by the client and prove nothing)."""
    if not forwarded_for or not _trusted(peer, trusted):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # garbage from the proxy chain: keep the peer
    return hops[0] if hops else peer


def is_https(
    scheme: str, peer: str, forwarded_proto: str | None, *, trusted: tuple[str, ...]
) -> bool:
    """Whether the client reached us over HTTPS (a trusted proxy's ``X-Forwarded-Proto``
    counts; anyone else's is ignored)."""
    if forwarded_proto and _trusted(peer, trusted):
        return forwarded_proto.split(",")[0].strip().lower() == "https"
    return scheme in ("https", "wss")


def connection_ip(conn: HTTPConnection, settings: Settings) -> str:
    """The address of the client of an HTTP request or WebSocket (see :func:`client_address`)."""
    peer = conn.client.host if conn.client else ""
    return client_address(
        peer, conn.headers.get("x-forwarded-for"), trusted=settings.trusted_proxies
    )


def connection_is_https(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether this request came over HTTPS (see :func:`is_https`)."""
    peer = conn.client.host if conn.client else ""
    return is_https(
        conn.url.scheme,
        peer,
        conn.headers.get("x-forwarded-proto"),
        trusted=settings.trusted_proxies,
    )


def json_depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in ``raw`` (strings skipped), without parsing."""
    depth = best = 0
    in_string = escaped = False
    for b in raw:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):
            depth += 1
            best = max(best, depth)
        elif b in (0x5D, 0x7D):
            depth -= 1
    return best


class BodyError(CodedError):
    """A request body that is not acceptable JSON; ``code`` and ``status`` say why."""

    code = "invalid"

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


def parse_json_body(raw: bytes, *, max_depth: int) -> Any:
    """``raw`` as JSON, or :class:`BodyError`: ``too_deep`` (400) for nesting over
    ``max_depth``, ``invalid`` (422) for text that is not JSON."""
    if json_depth(raw) > max_depth:
        raise BodyError(400, "too_deep", f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(raw or b"null")
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise BodyError(400, "too_deep", "JSON nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BodyError(422, "invalid", f"not JSON: {str(exc)[:120]}") from None
