"""TLS end to end, on a real `mizerka serve` on 127.0.0.1 with a certificate from a throwaway CA
(tls_pki.py, trustme) that names only "localhost": SDK bots (flags, environment, an https://
address), the stdio bridge, mutual TLS, the league runner against a remote TLS referee, clear
errors for plain-text clients and bad settings, and `serve` refusing unusable certificate files.
The Node and C++ examples are tested over mutual TLS in test_node_bot.py and test_cpp_bot.py."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

import mizerka
from mizerka.bots import RandomBot
from mizerka.connection import TLS_ENV, Connection, ConnectionSettingsError, Tls
from mizerka_proto import arena_pb2
from server.transport.tls import ServerTls, TlsSettingsError, is_loopback

from harness import ADMIN, BIN, ROOT, need_sandbox, referee
from tls_pki import Pki, TlsAdmin, make_pki

FINISHED = arena_pb2.MATCH_STATUS_FINISHED
PYTHON_STDIO_BOT = [sys.executable, "-I", "-S", str(ROOT / "clients" / "stdio" / "bot.py")]


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(autouse=True)
def no_tls_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's own MIZERKA_TLS* settings would leak into the clients under test."""
    for name in (*TLS_ENV, "MIZERKA_SERVER"):
        monkeypatch.delenv(name, raising=False)


def assert_clean(match: arena_pb2.Match) -> None:
    assert match.status == FINISHED
    for seat in match.results[0].seats:
        assert (seat.timeouts, seat.defaults_applied, seat.forfeited, seat.disconnected) == (0, 0, False, False), seat


def give_up_message(address: str, tls: Tls | None, token: str = "any-token") -> str:
    """What an SDK bot says when it cannot get through (two attempts, short pauses). With the default
    token a bot that does get through is refused too, so a caller that means "the connection was
    refused" must check the message says so (REFUSED_TOKEN is what a connected bot hears)."""
    with pytest.raises(mizerka.MizerkaError) as caught:
        asyncio.run(mizerka.run_async(RandomBot, address, token, games=1, max_reconnects=1, backoff_initial=0.05,
                                      backoff_max=0.1, tls=tls))
    return str(caught.value)


REFUSED_TOKEN = "the referee refused the token"
GAVE_UP = "gave up after 1 reconnect attempts"


# ------------------------------------------------------------------------------ settings
def test_connection_settings_come_from_flags_then_the_environment(pki: Pki) -> None:
    assert Connection.resolve("127.0.0.1:1", environ={}).tls is None
    over = Connection.resolve("https://arena.example:443/", environ={})
    assert over.target == "arena.example:443" and over.tls is not None and over.tls.ca is None  # the system's roots
    env = {"MIZERKA_TLS_CA": str(pki.ca), "MIZERKA_TLS_SERVER_NAME": "localhost"}
    from_env = Connection.resolve("127.0.0.1:1", environ=env)
    assert from_env.tls == Tls(enabled=True, ca=str(pki.ca), server_name="localhost")
    assert ("grpc.ssl_target_name_override", "localhost") in from_env.options()
    flags = Connection.resolve("127.0.0.1:1", Tls(server_name="other"), environ=env)
    assert flags.tls is not None and (flags.tls.ca, flags.tls.server_name) == (str(pki.ca), "other")
    assert Connection.resolve("h:1", environ={"MIZERKA_TLS": "1"}).tls == Tls(enabled=True)
    # What a launcher gives a bot: the address and absolute TLS paths, never a token.
    launch = Connection.resolve("h:1", pki.tls(client_cert=True), environ={}).env()
    assert launch["MIZERKA_SERVER"] == "h:1" and launch["MIZERKA_TLS"] == "1"
    assert Path(launch["MIZERKA_TLS_CERT"]).is_absolute() and not any("TOKEN" in k for k in launch)


@pytest.mark.parametrize(("tls", "environ", "message"), [
    (Tls(ca="/nonexistent/ca.pem"), {}, "cannot read the CA certificate file /nonexistent/ca.pem (MIZERKA_TLS_CA / --tls-ca)"),
    (None, {"MIZERKA_TLS_CERT": "c.pem"}, "give both MIZERKA_TLS_CERT and MIZERKA_TLS_KEY"),
    (None, {"MIZERKA_TLS": "maybe"}, "MIZERKA_TLS='maybe': expected 1"),
])
def test_bad_connection_settings_are_refused_naming_the_setting(tls: Tls | None, environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConnectionSettingsError) as caught:
        Connection.resolve("127.0.0.1:1", tls, environ=environ)
    assert message in str(caught.value)


def test_a_garbage_pem_file_is_refused_before_connecting(tmp_path: Path, pki: Pki) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    with pytest.raises(ConnectionSettingsError, match=f"{garbage} .MIZERKA_TLS_KEY / --tls-key. is not PEM"):
        Connection.resolve("h:1", Tls(cert=str(pki.client_cert), key=str(garbage)), environ={})
    with pytest.raises(ConnectionSettingsError, match="KEY_VALUES_MISMATCH"):
        Connection.resolve("h:1", Tls(cert=str(pki.client_cert), key=str(pki.server_key)), environ={})
    fake = tmp_path / "fake.pem"
    fake.write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    with pytest.raises(ConnectionSettingsError, match=f"{fake} .MIZERKA_TLS_CA / --tls-ca. holds no usable certificate"):
        Connection.resolve("h:1", Tls(ca=str(fake)), environ={})
    done = subprocess.run([str(BIN / "mizerka-bot"), "random", "--token", "t", "--tls-ca", str(garbage)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and str(garbage) in done.stderr and "MIZERKA_TLS_CA" in done.stderr, done.stderr


def test_loopback_hosts() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "[::]", "10.0.0.7", "arena.example", ""))


# ------------------------------------------------------------------------------ serve
def test_serve_refuses_missing_garbage_or_mismatched_tls_files_naming_them(tmp_path: Path, pki: Pki) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    missing = tmp_path / "missing.pem"
    cases = [
        (["--tls-cert", str(missing), "--tls-key", str(pki.server_key)], f"--tls-cert: cannot read the certificate file {missing}"),
        (["--tls-cert", str(pki.server_cert), "--tls-key", str(pki.ca)], f"--tls-key: the private key file {pki.ca} is not PEM"),
        (["--tls-cert", str(garbage), "--tls-key", str(pki.server_key)], f"--tls-cert {garbage} / --tls-key"),
        (["--tls-cert", str(pki.server_cert), "--tls-key", str(pki.client_key)], "KEY_VALUES_MISMATCH"),
        (["--tls-cert", str(pki.server_cert)], "--tls-cert and --tls-key go together"),
        (["--tls-client-ca", str(pki.ca)], "--tls-client-ca needs --tls-cert and --tls-key"),
        ([*pki.serve_args(), "--tls-client-ca", str(garbage)], f"--tls-client-ca: the client CA file {garbage}"),
    ]
    for args, message in cases:
        done = subprocess.run([str(BIN / "mizerka"), "serve", "--port", "0", "--db", str(tmp_path / "a.sqlite"),
                               "--admin-token", ADMIN, *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
    with pytest.raises(TlsSettingsError, match="not PEM"):
        ServerTls.load(pki.server_cert, pki.ca)  # a certificate is no private key


def test_serving_without_tls_beyond_loopback_warns_loudly(tmp_path: Path) -> None:
    with referee(tmp_path, "--host", "0.0.0.0") as ref:
        warnings = [line for line in ref.log_lines() if line.get("level") == "warning"]
    assert any("NOT ENCRYPTED" in w["event"] and "clear text" in w["event"] for w in warnings), warnings
    with referee(tmp_path) as ref:  # loopback: nothing to warn about
        assert not any("NOT ENCRYPTED" in line["event"] for line in ref.log_lines())


# ------------------------------------------------------------------------------ playing
def test_sdk_bots_and_the_stdio_bridge_play_over_tls(tmp_path: Path, pki: Pki) -> None:
    """Three ways to say TLS: flags, the environment, and an https://localhost address; the third
    seat is a stdio program behind the bridge."""
    with referee(tmp_path, *pki.serve_args()) as ref:
        admin = TlsAdmin(ref.address, pki.tls())
        port = ref.address.rsplit(":", 1)[1]
        (flags_id, flags_token), (env_id, env_token), (stdio_id, stdio_token) = (
            admin.register(name) for name in ("sdk-flags", "sdk-env", "stdio-https"))
        ref.bot(flags_token, str(BIN / "mizerka-bot"), "random", "--tls-ca", str(pki.ca), "--tls-server-name", "localhost",
                "-v", log=tmp_path / "flags.log")
        ref.bot(env_token, "env", *(f"{k}={v}" for k, v in pki.env().items()), str(BIN / "mizerka-bot"), "heuristic", "-v",
                log=tmp_path / "env.log")
        ref.bot(stdio_token, "env", f"MIZERKA_SERVER=https://localhost:{port}", f"MIZERKA_TLS_CA={pki.ca}",
                str(BIN / "mizerka"), "bot", "stdio", "-v", "--", *PYTHON_STDIO_BOT, log=tmp_path / "stdio.log")
        match = admin.wait(admin.create("mizerka-short", [flags_id, env_id, stdio_id], seed="tls"), timeout_s=60)
    assert_clean(match)
    for name in ("flags", "env", "stdio"):
        assert "(TLS)" in (tmp_path / f"{name}.log").read_text(), name  # "connected to HOST:PORT (TLS) as ..."


def test_a_plain_text_client_or_a_wrong_tls_setting_fails_with_a_clear_error(tmp_path: Path, pki: Pki) -> None:
    with referee(tmp_path, *pki.serve_args()) as ref:
        plain = give_up_message(ref.address, None)
        assert GAVE_UP in plain and "if the referee serves TLS, connect with TLS" in plain, plain
        no_name = give_up_message(ref.address, Tls(ca=str(pki.ca)))  # the certificate names localhost, not 127.0.0.1
        assert "MIZERKA_TLS_SERVER_NAME" in no_name, no_name
        untrusted = give_up_message(ref.address, Tls(ca=str(pki.other_ca), server_name="localhost"))
        assert "not signed by a trusted CA" in untrusted, untrusted
    # ... and a TLS client against a plain-text referee.
    with referee(tmp_path) as ref:
        assert "does the referee serve TLS" in give_up_message(ref.address, pki.tls()), ref.address


def test_mutual_tls_refuses_a_client_without_a_certificate_and_plays_with_one(tmp_path: Path, pki: Pki) -> None:
    with referee(tmp_path, *pki.serve_args(mutual=True)) as ref:
        refused = give_up_message(ref.address, pki.tls())
        assert "requires client certificates" in refused and "MIZERKA_TLS_CERT" in refused, refused
        # A signed certificate gets through the handshake: the referee hears the (wrong) token and refuses it.
        signed = give_up_message(ref.address, pki.tls(client_cert=True))
        assert REFUSED_TOKEN in signed and GAVE_UP not in signed, signed
        stranger = make_pki(tmp_path / "stranger")  # a client certificate our CA did not sign
        tls = Tls(ca=str(pki.ca), cert=str(stranger.client_cert), key=str(stranger.client_key), server_name="localhost")
        # ... a stranger's does not: the connection itself is refused, the token never heard.
        unsigned = give_up_message(ref.address, tls)
        assert GAVE_UP in unsigned and REFUSED_TOKEN not in unsigned, unsigned
        with pytest.raises(grpc.RpcError) as caught:  # nor may the stranger do anything with the admin token
            TlsAdmin(ref.address, tls).register("stranger")
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE, caught.value
        admin = TlsAdmin(ref.address, pki.tls(client_cert=True))
        bots = [admin.register(f"mtls-{i}") for i in range(3)]
        match_id = admin.create("mizerka-short", [bot_id for bot_id, _ in bots], seed="mtls")

        async def play() -> list[mizerka.RunStats]:
            return await asyncio.gather(*(mizerka.run_async(RandomBot, ref.address, token, games=1,
                                                            tls=pki.tls(client_cert=True)) for _, token in bots))

        stats = asyncio.run(play())
        assert_clean(admin.wait(match_id))
    assert [s.games for s in stats] == [1, 1, 1]


def test_a_league_runs_on_a_remote_mutual_tls_referee_and_its_bots_get_tls_but_no_admin_token(tmp_path: Path, pki: Pki) -> None:
    need_sandbox()
    data = tmp_path / "data"
    lines = ['name = "tls"', 'preset = "mizerka-short"', 'seed = "fixed"', f'data = "{data}"']
    for name in ("a", "b", "c"):
        # Each bot writes down the environment it was given (in its sandbox's HOME, DATA/sandbox/NAME), then plays.
        lines += ["[[bots]]", f'name = "{name}"', 'command = ["sh", "-c", "env > $HOME/bot.env; exec mizerka-bot random"]']
    league = tmp_path / "tls.toml"
    league.write_text("\n".join(lines) + "\n")
    with referee(tmp_path, *pki.serve_args(mutual=True)) as ref:
        env = dict(os.environ, MIZERKA_ADMIN_TOKEN=ADMIN)
        done = subprocess.run(
            [str(BIN / "mizerka"), "league", "run", str(league), "--server", ref.address, "--tls-ca", str(pki.ca),
             "--tls-cert", str(pki.client_cert), "--tls-key", str(pki.client_key), "--tls-server-name", "localhost"],
            env=env, capture_output=True, text=True, timeout=240)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "standings after 3 games" in done.stdout, done.stdout
        # Without TLS the runner cannot reach it; TLS flags without --server make no sense.
        plain = subprocess.run([str(BIN / "mizerka"), "league", "run", str(league), "--tls-ca", str(pki.ca)], env=env,
                               capture_output=True, text=True, timeout=60)
        assert plain.returncode == 2 and "give --server" in plain.stderr, plain.stderr
    for name in ("a", "b", "c"):
        given = dict(line.split("=", 1) for line in (data / "sandbox" / name / "bot.env").read_text().splitlines() if "=" in line)
        assert given["MIZERKA_SERVER"] == ref.address and given["MIZERKA_TLS"] == "1"
        assert given["MIZERKA_TLS_CA"] == str(pki.ca.resolve()) and given["MIZERKA_TLS_SERVER_NAME"] == "localhost"
        assert given["MIZERKA_TLS_CERT"] == str(pki.client_cert.resolve()) and "MIZERKA_TLS_KEY" in given
        assert "MIZERKA_ADMIN_TOKEN" not in given and ADMIN not in given.values()
