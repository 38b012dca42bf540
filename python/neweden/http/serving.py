"""How `neweden serve` runs uvicorn: connections that send nothing are closed, their number is
capped, and a flood of the same log line is written once.

uvicorn closes an idle connection only *after* a response (its keep-alive timeout): one that
never sends a request, or sends its headers a byte at a time, stays open for ever, and enough
of them exhaust the file descriptors. :class:`GuardedH11` gives every request's headers a
deadline (:data:`HEADER_TIMEOUT_SECONDS`) from the moment the connection is ready for it,
and closes at once a connection over :data:`MAX_CONNECTIONS`. The body has its own deadline
in the app (a 408).

:func:`serve` binds the address first, then says where the service listens (in the
command's language) and runs uvicorn's workers on that socket, its access log on at the
default level `info`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import socket
import sys
from collections.abc import Sequence
from typing import TextIO

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from neweden.http.service import QUIET
from neweden.i18n import _

__all__ = ["GuardedH11", "network_address", "serve", "tell_the_network"]

HEADER_TIMEOUT_SECONDS = float(os.environ.get("NEWEDEN_HEADER_TIMEOUT", "10"))
MAX_CONNECTIONS = int(os.environ.get("NEWEDEN_MAX_CONNECTIONS", "512"))


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's headers and a cap on the
    connections open at once."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            QUIET("too many connections", f"over {MAX_CONNECTIONS} connections open: closing one")
            transport.abort()
            return
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(HEADER_TIMEOUT_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """No complete request headers in time: close (there is nothing to answer yet)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's headers arrived
            self._disarm()

    def on_response_complete(self) -> None:
        before = self.cycle
        super().on_response_complete()
        if self.cycle is before and not self.transport.is_closing():
            self._arm()  # the next request's headers have their own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def serve(
    host: str, port: int, *, workers: int, log_level: str, cors_origins: Sequence[str] = ()
) -> int:
    """Run the service until it is stopped (`neweden serve`): binds `host`:`port` (0: any
    free port), logs "neweden serving on http://HOST:PORT (docs: /docs)", then serves with
    `workers` processes. The exit status: 0, or 3 when the service did not start."""
    if cors_origins:
        os.environ["NEWEDEN_CORS_ORIGIN"] = " ".join(cors_origins)
    config = uvicorn.Config(
        "neweden.http.service:app_from_environment",
        http=GuardedH11,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_keep_alive=5,
        log_level=log_level,
        use_colors=False,  # standard error shows no control character (cli/main.py)
    )
    if workers == 1:
        config.load_app()
    sock = config.bind_socket()  # an address in use ends the command here, said by uvicorn
    sock.listen(config.backlog)  # connections wait from now on: the line below is true
    shown = f"[{host}]" if ":" in host else host
    bound = sock.getsockname()[1]
    logging.getLogger("uvicorn.error").info(
        _("neweden serving on http://{host}:{port} (docs: /docs)", host=shown, port=bound)
    )
    for handler in logging.getLogger("uvicorn.error").handlers:
        handler.flush()
    tell_the_network(host, bound, sys.stderr)
    server = uvicorn.Server(config)
    try:
        if workers > 1:
            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0 if server.started or workers > 1 else 3


def network_address(host: str) -> str | None:
    """The address other devices of the local network reach the service at when it listens
    on `host` (None: it listens on this computer only, or no such address is known). For a
    wildcard host, the address this computer would send from to the local network: a UDP
    socket is connected to a private address, which sends nothing."""
    if host in ("", "0.0.0.0", "::"):
        family = socket.AF_INET6 if host == "::" else socket.AF_INET
        probe = "fd00::1" if host == "::" else "10.255.255.255"
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found = str(udp.getsockname()[0])
        except OSError:
            return None
        return None if ipaddress.ip_address(found).is_loopback else found
    try:
        named = ipaddress.ip_address(host)
    except ValueError:  # a host name: the one given
        return None if host == "localhost" else host
    return None if named.is_loopback else host


def tell_the_network(host: str, port: int, out: TextIO) -> None:
    """When the service listens beyond this computer: the page's address on the local
    network, a QR code of it for a phone to scan (the `segno` package of the serve extra),
    and a warning that anyone on that network can use it."""
    address = network_address(host)
    if address is None:
        return
    url = f"http://{f'[{address}]' if ':' in address else address}:{port}/"
    out.write(
        _(
            "neweden: anyone on this network can open {url} and use the service, and see the "
            "games entered there; serve on 127.0.0.1 (the default) to keep it to this computer.",
            url=url,
        )
        + "\n"
    )
    out.write(_("Open the page on a phone: {url} (or scan this code)", url=url) + "\n")
    try:
        import segno
    except ImportError:  # pragma: no cover (the serve extra installs it)
        out.flush()
        return
    segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()
