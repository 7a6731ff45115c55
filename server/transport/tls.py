"""The referee's TLS settings: its certificate and key, and optionally the CA whose client
certificates it requires (mutual TLS). Without TLS, bot and admin tokens cross the network in clear
text, which is only acceptable on the loopback interface."""

from __future__ import annotations

import ipaddress
import ssl
from dataclasses import dataclass, field
from pathlib import Path

import grpc

__all__ = ["ServerTls", "TlsSettingsError", "is_loopback"]


class TlsSettingsError(ValueError):
    """A TLS file that cannot be used; the message names the file and its option."""


def _read_pem(path: Path, what: str, option: str, marker: bytes) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise TlsSettingsError(f"{option}: cannot read the {what} file {path}: {e.strerror or e}") from None
    if b"-----BEGIN " not in data or marker not in data:
        raise TlsSettingsError(f"{option}: the {what} file {path} is not PEM (no '-----BEGIN ...{marker.decode()}-----' block)")
    return data


@dataclass(frozen=True)
class ServerTls:
    """The PEM bytes the server's credentials are made of (read once, at start, so a bad file stops
    ``serve`` with a clear message rather than failing at the first handshake)."""

    cert_chain: bytes = field(repr=False)
    private_key: bytes = field(repr=False)
    client_ca: bytes | None = field(default=None, repr=False)  #: set: clients must present a certificate it signed

    @classmethod
    def load(cls, cert: Path | str | None, key: Path | str | None, client_ca: Path | str | None = None) -> ServerTls | None:
        """The settings from ``--tls-cert``, ``--tls-key`` and ``--tls-client-ca``; None when none is
        given. Raises :class:`TlsSettingsError` naming the file at fault."""
        if cert is None and key is None:
            if client_ca is not None:
                raise TlsSettingsError("--tls-client-ca needs --tls-cert and --tls-key: the server must serve TLS "
                                       "to ask for client certificates")
            return None
        if cert is None or key is None:
            raise TlsSettingsError("--tls-cert and --tls-key go together: give both (the certificate chain and its "
                                   "private key) or neither")
        settings = cls(
            _read_pem(Path(cert), "certificate", "--tls-cert", b"CERTIFICATE"),
            _read_pem(Path(key), "private key", "--tls-key", b"PRIVATE KEY"),
            _read_pem(Path(client_ca), "client CA", "--tls-client-ca", b"CERTIFICATE") if client_ca is not None else None,
        )
        # gRPC only says "failed to bind" about a file it cannot use: let OpenSSL say what is wrong first.
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(cert, key)
        except ssl.SSLError as e:
            raise TlsSettingsError(f"--tls-cert {cert} / --tls-key {key}: not a usable certificate chain and its "
                                   f"private key: {e.reason or e}") from None
        if client_ca is not None:
            try:
                context.load_verify_locations(cafile=str(client_ca))
            except ssl.SSLError as e:
                raise TlsSettingsError(f"--tls-client-ca: the client CA file {client_ca} holds no usable "
                                       f"certificate: {e.reason or e}") from None
        return settings

    @property
    def mutual(self) -> bool:
        return self.client_ca is not None

    def credentials(self) -> grpc.ServerCredentials:
        """gRPC's server credentials; with a client CA, clients without a certificate it signed are refused."""
        return grpc.ssl_server_credentials(
            [(self.private_key, self.cert_chain)], root_certificates=self.client_ca, require_client_auth=self.mutual,
        )


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` keeps the traffic on this machine (so plain text is harmless)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
