"""How a client reaches the referee: in plain text or over TLS, settled once from flags and the
environment, so that bots, the stdio bridge and the league runner's admin client all connect the
same way (and a bot program the runner starts can be told how, in its environment).

TLS is used when the address starts with ``https://``, when ``MIZERKA_TLS`` is 1 (``--tls``), or
when any TLS setting is given:

- ``MIZERKA_TLS_CA`` (``--tls-ca``): a PEM bundle of the CA certificates to trust; without it, the
  system's roots;
- ``MIZERKA_TLS_CERT`` and ``MIZERKA_TLS_KEY`` (``--tls-cert``, ``--tls-key``): this client's
  certificate chain and private key, for a referee that requires client certificates (mutual TLS);
- ``MIZERKA_TLS_SERVER_NAME`` (``--tls-server-name``): the name the referee's certificate must carry
  when it is not the host of the address (connecting to 127.0.0.1 with a certificate for localhost).

Flags override the environment, one setting at a time.
"""

from __future__ import annotations

import argparse
import os
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import grpc
import grpc.aio

__all__ = [
    "ENV_TLS",
    "ENV_TLS_CA",
    "ENV_TLS_CERT",
    "ENV_TLS_KEY",
    "ENV_TLS_SERVER_NAME",
    "TLS_ENV",
    "Connection",
    "ConnectionSettingsError",
    "Tls",
    "add_tls_arguments",
    "tls_from_arguments",
]

ENV_TLS = "MIZERKA_TLS"
ENV_TLS_CA = "MIZERKA_TLS_CA"
ENV_TLS_CERT = "MIZERKA_TLS_CERT"
ENV_TLS_KEY = "MIZERKA_TLS_KEY"
ENV_TLS_SERVER_NAME = "MIZERKA_TLS_SERVER_NAME"
#: Every variable that says how to reach the referee over TLS (a launcher sets or clears them together).
TLS_ENV = (ENV_TLS, ENV_TLS_CA, ENV_TLS_CERT, ENV_TLS_KEY, ENV_TLS_SERVER_NAME)
HTTPS = "https://"

_ENV_OF = {"ca": ENV_TLS_CA, "cert": ENV_TLS_CERT, "key": ENV_TLS_KEY, "server_name": ENV_TLS_SERVER_NAME}
_YES = ("1", "true", "yes", "on")
_NO = ("", "0", "false", "no", "off")


class ConnectionSettingsError(ValueError):
    """Connection settings that cannot be used: a bad MIZERKA_TLS value, an unreadable or non-PEM
    file, a certificate without its key. The message names the setting and the file."""


@dataclass(frozen=True)
class Tls:
    """TLS settings; a field left None is taken from the environment by :meth:`with_env`."""

    enabled: bool = False  #: use TLS even with no other setting (the system's roots are trusted)
    ca: str | None = None  #: PEM file of the CA certificates to trust (None: the system's roots)
    cert: str | None = None  #: PEM file of this client's certificate chain (mutual TLS)
    key: str | None = None  #: PEM file of this client's private key (mutual TLS)
    server_name: str | None = None  #: the name the referee's certificate must carry, if not the address's host

    @property
    def requested(self) -> bool:
        """Whether these settings ask for TLS at all."""
        return self.enabled or any((self.ca, self.cert, self.key, self.server_name))

    def with_env(self, environ: Mapping[str, str] | None = None) -> Tls:
        """These settings, with every one not given taken from the MIZERKA_TLS* variables."""
        env = os.environ if environ is None else environ
        flag = env.get(ENV_TLS, "").strip().lower()
        if flag not in _YES + _NO:
            raise ConnectionSettingsError(f"{ENV_TLS}={env.get(ENV_TLS)!r}: expected 1 (use TLS) or 0")
        taken = {name: getattr(self, name) or env.get(var) or None for name, var in _ENV_OF.items()}
        return replace(self, enabled=self.enabled or flag in _YES, **taken)

    def env(self) -> dict[str, str]:
        """The MIZERKA_TLS* variables that give a child process these settings (file paths made absolute)."""
        out = {ENV_TLS: "1"}
        for name, var in _ENV_OF.items():
            value = getattr(self, name)
            if value:
                out[var] = value if name == "server_name" else str(Path(value).resolve())
        return out


def _read_pem(path: str, what: str, setting: str, marker: bytes) -> bytes:
    """The file's bytes, or a ConnectionSettingsError naming the file and its setting."""
    flag = "--" + setting.removeprefix("MIZERKA_").lower().replace("_", "-")
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ConnectionSettingsError(f"cannot read the {what} file {path} ({setting} / {flag}): {e.strerror or e}") from None
    if b"-----BEGIN " not in data or marker not in data:
        raise ConnectionSettingsError(f"the {what} file {path} ({setting} / {flag}) is not PEM: no "
                                      f"'-----BEGIN ...{marker.decode()}-----' block")
    return data


def _check_usable(settings: Tls) -> None:
    """Let OpenSSL parse the files now: gRPC would only fail the handshake later, without saying why."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if settings.ca:
        try:
            context.load_verify_locations(cafile=settings.ca)
        except ssl.SSLError as e:
            raise ConnectionSettingsError(f"the CA certificate file {settings.ca} ({ENV_TLS_CA} / --tls-ca) holds no "
                                          f"usable certificate: {e.reason or e}") from None
    if settings.cert and settings.key:
        try:
            context.load_cert_chain(settings.cert, settings.key)
        except ssl.SSLError as e:
            raise ConnectionSettingsError(f"the client certificate {settings.cert} and key {settings.key} ({ENV_TLS_CERT} "
                                          f"/ {ENV_TLS_KEY}) are not a usable pair: {e.reason or e}") from None


@dataclass(frozen=True)
class Connection:
    """Where the referee is (``target``, host:port) and how to reach it: ``tls`` None is plain text.
    The PEM files are read once, by :meth:`resolve`, so that a bad file is reported before any game."""

    target: str
    tls: Tls | None = None
    _pems: tuple[bytes | None, bytes | None, bytes | None] = field(default=(None, None, None), repr=False, compare=False)

    @classmethod
    def resolve(cls, server: str, tls: Tls | None = None, environ: Mapping[str, str] | None = None) -> Connection:
        """The connection to ``server`` (``host:port``, or ``https://host:port`` for TLS) with the
        given TLS settings completed from the environment. Raises :class:`ConnectionSettingsError`."""
        target = server.strip()
        https = target.lower().startswith(HTTPS)
        if https:
            target = target[len(HTTPS):]
        target = target.rstrip("/")
        if not target:
            raise ConnectionSettingsError(f"no referee address in {server!r}")
        settings = (tls or Tls()).with_env(environ)
        if not (https or settings.requested):
            return cls(target)
        settings = replace(settings, enabled=True)
        if bool(settings.cert) != bool(settings.key):
            raise ConnectionSettingsError(f"a client certificate needs its key and the other way round: give both "
                                          f"{ENV_TLS_CERT} and {ENV_TLS_KEY} (--tls-cert and --tls-key), or neither")
        pems = (
            _read_pem(settings.ca, "CA certificate", ENV_TLS_CA, b"CERTIFICATE") if settings.ca else None,
            _read_pem(settings.cert, "certificate", ENV_TLS_CERT, b"CERTIFICATE") if settings.cert else None,
            _read_pem(settings.key, "private key", ENV_TLS_KEY, b"PRIVATE KEY") if settings.key else None,
        )
        _check_usable(settings)
        return cls(target, settings, pems)

    def __str__(self) -> str:
        return f"{self.target} (TLS)" if self.tls is not None else self.target

    def credentials(self) -> grpc.ChannelCredentials | None:
        """The channel credentials for TLS, None for plain text."""
        if self.tls is None:
            return None
        ca, cert, key = self._pems
        return grpc.ssl_channel_credentials(root_certificates=ca, private_key=key, certificate_chain=cert)

    def options(self, options: Sequence[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
        """``options`` plus what TLS needs (the expected server name)."""
        extra = []
        if self.tls is not None and self.tls.server_name:
            extra.append(("grpc.ssl_target_name_override", self.tls.server_name))
        return [*options, *extra]

    def play_channel(self, max_message_bytes: int, backoff_initial_s: float, backoff_cap_s: float) -> grpc.aio.Channel:
        """The asyncio channel bots play on: messages up to ``max_message_bytes``, gentle keepalives,
        and gRPC's own reconnect backoff kept within the runtime's schedule."""
        return self.aio_channel([
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            # Detect a dead connection between games, gently (servers refuse pings more often than 5 min).
            ("grpc.keepalive_time_ms", 360_000),
            ("grpc.keepalive_timeout_ms", 20_000),
            # gRPC's own reconnect backoff (1 s growing to 120 s by default) would make our attempts
            # fail fast for minutes after a long outage: keep it within our own schedule.
            ("grpc.initial_reconnect_backoff_ms", max(1, int(backoff_initial_s * 1000))),
            ("grpc.min_reconnect_backoff_ms", max(1, int(backoff_initial_s * 1000))),
            ("grpc.max_reconnect_backoff_ms", max(1, int(backoff_cap_s * 1000))),
        ])

    def aio_channel(self, options: Sequence[tuple[str, Any]] = ()) -> grpc.aio.Channel:
        """An asyncio channel to the referee (what bots play on)."""
        credentials = self.credentials()
        if credentials is None:
            return grpc.aio.insecure_channel(self.target, options=self.options(options))
        return grpc.aio.secure_channel(self.target, credentials, options=self.options(options))

    def channel(self, options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
        """A blocking channel to the referee (what the league runner's admin calls use)."""
        credentials = self.credentials()
        if credentials is None:
            return grpc.insecure_channel(self.target, options=self.options(options))
        return grpc.secure_channel(self.target, credentials, options=self.options(options))

    def env(self) -> dict[str, str]:
        """The launch variables that make a bot program connect the same way: MIZERKA_SERVER, and the
        MIZERKA_TLS* variables when over TLS (never a token)."""
        return {"MIZERKA_SERVER": self.target, **(self.tls.env() if self.tls is not None else {})}

    def hint(self, details: str) -> str:
        """What a failed connection's error suggests, for the message a person reads ("" if nothing)."""
        text = details.lower()
        if self.tls is None:
            if "socket closed" in text or "connection reset" in text:
                return (f" (if the referee serves TLS, connect with TLS: {ENV_TLS_CA}=CA.pem or --tls-ca, "
                        f"{ENV_TLS}=1 or --tls, or an https:// address)")
            return ""
        if "hostname verification" in text or "no match found for server name" in text:
            return (f" (the referee's certificate does not name {self.target.rsplit(':', 1)[0]}: set "
                    f"{ENV_TLS_SERVER_NAME} or --tls-server-name to a name it carries)")
        if "certificate_verify_failed" in text:
            return f" (the referee's certificate is not signed by a trusted CA: set {ENV_TLS_CA} or --tls-ca)"
        if "wrong_version_number" in text or "handshake" in text:
            return " (the TLS handshake failed: does the referee serve TLS on this port?)"
        if "socket closed" in text and self.tls.cert is None:
            return (f" (a referee that requires client certificates closes such connections: set "
                    f"{ENV_TLS_CERT} and {ENV_TLS_KEY}, or --tls-cert and --tls-key)")
        return ""


# ------------------------------------------------------------------------------ command lines
def add_tls_arguments(parser: argparse.ArgumentParser) -> None:
    """The TLS flags of the SDK's command lines (each overrides its environment variable)."""
    group = parser.add_argument_group("TLS", "connect to the referee over TLS (flags override the environment)")
    group.add_argument("--tls", action="store_true", default=False,
                       help=f"use TLS, trusting the system's CA roots unless --tls-ca is given (default: ${ENV_TLS}, "
                       "or any TLS setting below, or an https:// server address)")
    group.add_argument("--tls-ca", metavar="PEM", help=f"CA certificates to trust (default: ${ENV_TLS_CA})")
    group.add_argument("--tls-cert", metavar="PEM",
                       help=f"this client's certificate chain, for mutual TLS (default: ${ENV_TLS_CERT})")
    group.add_argument("--tls-key", metavar="PEM",
                       help=f"this client's private key, for mutual TLS (default: ${ENV_TLS_KEY})")
    group.add_argument("--tls-server-name", metavar="NAME",
                       help=f"the name the referee's certificate carries, when not the address's host "
                       f"(default: ${ENV_TLS_SERVER_NAME})")


def tls_from_arguments(args: argparse.Namespace) -> Tls:
    """The flags of :func:`add_tls_arguments` as :class:`Tls` (the environment fills in the rest later)."""
    return Tls(**{f.name: getattr(args, "tls" if f.name == "enabled" else f"tls_{f.name}") for f in fields(Tls)})
