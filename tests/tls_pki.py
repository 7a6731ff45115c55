"""A throwaway PKI for the TLS tests, made with trustme: a CA, a referee certificate for "localhost"
only (so a client connecting to 127.0.0.1 must name it: MIZERKA_TLS_SERVER_NAME, which every client
is tested with), a client certificate signed by the same CA (mutual TLS), and a CA nobody trusts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import trustme

from mizerka.connection import Connection, Tls
from mizerka_proto import arena_pb2_grpc

from harness import ADMIN, Admin


@dataclass(frozen=True)
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    other_ca: Path

    def serve_args(self, mutual: bool = False) -> list[str]:
        """``mizerka serve`` options: TLS, and with ``mutual`` client certificates of our CA required."""
        args = ["--tls-cert", str(self.server_cert), "--tls-key", str(self.server_key)]
        return args + (["--tls-client-ca", str(self.ca)] if mutual else [])

    def tls(self, client_cert: bool = False) -> Tls:
        """Client settings that trust our CA and expect the name "localhost" (plus the client certificate)."""
        if client_cert:
            return Tls(ca=str(self.ca), cert=str(self.client_cert), key=str(self.client_key), server_name="localhost")
        return Tls(ca=str(self.ca), server_name="localhost")

    def env(self, client_cert: bool = False) -> dict[str, str]:
        """The same settings as a bot program's MIZERKA_TLS* variables."""
        return self.tls(client_cert).env()


def make_pki(folder: Path) -> Pki:
    folder.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    server = ca.issue_cert("localhost")
    client = ca.issue_cert("bot.mizerka.test")
    pki = Pki(*(folder / name for name in ("ca.pem", "server.pem", "server.key", "client.pem", "client.key", "other-ca.pem")))
    ca.cert_pem.write_to_path(str(pki.ca))
    server.private_key_pem.write_to_path(str(pki.server_key))
    client.private_key_pem.write_to_path(str(pki.client_key))
    for cert, path in ((server, pki.server_cert), (client, pki.client_cert)):
        path.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    trustme.CA().cert_pem.write_to_path(str(pki.other_ca))
    return pki


class TlsAdmin(Admin):
    """The harness's admin client, over TLS (the channel built by the SDK's Connection, as the
    league runner's admin client builds it)."""

    def __init__(self, address: str, tls: Tls, token: str = ADMIN) -> None:
        self.channel = Connection.resolve(address, tls, environ={}).channel()
        self.stub = arena_pb2_grpc.ArenaStub(self.channel)
        self.metadata = (("authorization", f"Bearer {token}"),)
