"""The websocket origin check: a socket may be opened only by a page of this site.

A browser sends the page's origin (scheme, host and port) with every websocket handshake,
and the site's cookies whatever page opens the socket. Channels' AllowedHostsOriginValidator
compares host names only, so a page served on another port or over the other scheme of an
allowed host (another site, as far as the browser is concerned) could open sockets that
carry the user's session. Here the whole origin must be the one the socket was addressed to
(its Host header, which must be in ALLOWED_HOSTS, with the scheme Django would see for a
request), or one of CSRF_TRUSTED_ORIGINS: the rule Django's CSRF check applies to a POST.
The comparison itself is Channels' OriginValidator.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import ParseResult

from channels.security.websocket import OriginValidator
from django.conf import settings
from django.http.request import split_domain_port, validate_host

if TYPE_CHECKING:  # names of the type stubs only
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
    from channels.consumer import _ChannelScope
    from channels.utils import _ChannelApplication


# Overrides channels.security.websocket.OriginValidator.valid_origin (undocumented), whose
# match_allowed_origin and get_origin_port read `parsed_origin.port`, which raises ValueError
# for a bad port; written against Channels 4.3.2 (tests/fences/ fails when
# an upgrade changes any of them).
class _OriginValidator(OriginValidator):
    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        try:
            return super().valid_origin(parsed_origin)
        except ValueError:  # a port that is not a number or out of range: not a real origin
            return False


def _header(scope: _ChannelScope, name: bytes) -> str:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", ())
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return ""


def _allowed_hosts() -> list[str]:
    # As django.http.request.HttpRequest.get_host decides, with its undocumented
    # split_domain_port and validate_host (Django 5.2.19; tests/fences/).
    allowed: list[str] = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        return [".localhost", "127.0.0.1", "[::1]"]
    return allowed


def _is_secure(scope: _ChannelScope) -> bool:
    # As HttpRequest.is_secure decides (HttpRequest.scheme, Django 5.2.19;
    # tests/fences/): behind a TLS-terminating proxy, its header says.
    proxy_header: tuple[str, str] | None = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header is not None:
        meta_name, secure_value = proxy_header
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1")
        value = _header(scope, name)
        if value:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "wss"


def own_origin(scope: _ChannelScope) -> str | None:
    """The origin of this site's pages as the browser sees it, from the handshake's Host
    header and scheme; None when the host is not one of ALLOWED_HOSTS."""
    host = _header(scope, b"host")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return f"{'https' if _is_secure(scope) else 'http'}://{host}"


def trusted_origins() -> list[str]:
    # CSRF_TRUSTED_ORIGINS writes "example.com and its subdomains" as https://*.example.com,
    # Channels' OriginValidator as https://.example.com.
    return [origin.replace("://*.", "://.", 1) for origin in settings.CSRF_TRUSTED_ORIGINS]


class SameOriginValidator:
    """Deny (an HTTP 403 to the handshake) a websocket whose Origin is not this site's."""

    def __init__(self, application: _ChannelApplication) -> None:
        self.application = application

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> Any:
        allowed = trusted_origins()
        own = own_origin(scope)
        if own is not None:
            allowed.append(own)
        return await _OriginValidator(self.application, allowed)(scope, receive, send)
