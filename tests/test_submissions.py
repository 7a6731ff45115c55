"""Authors and their uploads against a real `mizerka serve`: tokens shown once and kept hashed, each
token's scope, versions named by their contents, and hostile uploads refused with nothing stored."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from mizerka_proto import arena_pb2, referee_pb2, referee_pb2_grpc, submissions_pb2, submissions_pb2_grpc
from server.submissions.archive import pack

from harness import ADMIN, BIN, Referee, referee

MANIFEST = 'name = "gobot"\nrun = "python3 bot.py"\n'
TABLES = ("authors", "submitted_bots", "bot_versions", "blobs")


@pytest.fixture
def ref(tmp_path: Path) -> Iterator[Referee]:
    (tmp_path / "invite").write_text("open-sesame\n")
    with referee(tmp_path, "--max-upload-mib", "1", "--max-upload-files", "50", "--max-unpacked-mib", "4",
                 "--invite-code-file", str(tmp_path / "invite")) as r:
        yield r


def _stub(ref: Referee) -> submissions_pb2_grpc.SubmissionsStub:
    return submissions_pb2_grpc.SubmissionsStub(grpc.insecure_channel(ref.address))


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _author(ref: Referee, name: str) -> str:
    return _stub(ref).AddAuthor(submissions_pb2.AddAuthorRequest(name=name), metadata=_bearer(ADMIN)).token


def _submit(ref: Referee, token: str, data: bytes, chunk: int = 60 * 1024) -> submissions_pb2.SubmitResponse:
    chunks = (submissions_pb2.SubmitRequest(data=data[i:i + chunk]) for i in range(0, len(data), chunk))
    return _stub(ref).Submit(chunks, metadata=_bearer(token), timeout=60)


def _refused(call: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()  # type: ignore[operator]
    return err.value


def _bot_folder(path: Path, text: str = "print('hi')\n") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "mizerka-bot.toml").write_text(MANIFEST)
    (path / "bot.py").write_text(text)
    return path


def _counts(ref: Referee) -> dict[str, int]:
    con = sqlite3.connect(ref.db)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        con.close()


def test_an_author_token_is_shown_once_kept_hashed_and_opens_nothing_but_its_own_calls(ref: Referee) -> None:
    stub = _stub(ref)
    assert _refused(lambda: stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="alice"))).code() == grpc.StatusCode.UNAUTHENTICATED
    made = stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="alice"), metadata=_bearer(ADMIN))
    assert made.name == "alice" and len(made.token) >= 32
    again = _refused(lambda: stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="alice"), metadata=_bearer(ADMIN)))
    assert again.code() == grpc.StatusCode.ALREADY_EXISTS
    bad = _refused(lambda: stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="Alice Smith"), metadata=_bearer(ADMIN)))
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT and "lower-case" in bad.details()
    assert made.token.encode() not in Path(ref.db).read_bytes()  # only its hash is kept

    token = made.token
    # Not an admin token: no admin call of either service.
    assert _refused(lambda: stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="mallory"), metadata=_bearer(token))).code() \
        == grpc.StatusCode.UNAUTHENTICATED
    admin = ref.arena()
    admin.metadata = _bearer(token)
    assert _refused(lambda: admin.register("intruder")).code() == grpc.StatusCode.UNAUTHENTICATED
    assert _refused(lambda: admin.stub.ListMatches(arena_pb2.ListMatchesRequest(), metadata=admin.metadata)).code() \
        == grpc.StatusCode.UNAUTHENTICATED
    # Not a seat at a table.
    play = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(ref.address))
    hello = referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token))
    assert _refused(lambda: list(play.Play(iter([hello]), timeout=10))).code() == grpc.StatusCode.UNAUTHENTICATED
    # The admin token is no author's; a made-up one neither.
    for other in (ADMIN, "made-up"):
        assert _refused(lambda other=other: stub.ListBots(submissions_pb2.ListBotsRequest(), metadata=_bearer(other))).code() \
            == grpc.StatusCode.UNAUTHENTICATED
    assert list(stub.ListBots(submissions_pb2.ListBotsRequest(), metadata=_bearer(token)).versions) == []


def test_authors_register_themselves_only_with_the_invite_code(ref: Referee, tmp_path: Path) -> None:
    stub = _stub(ref)
    wrong = _refused(lambda: stub.RegisterAuthor(submissions_pb2.RegisterAuthorRequest(name="carol", invite_code="guess")))
    assert wrong.code() == grpc.StatusCode.PERMISSION_DENIED
    made = stub.RegisterAuthor(submissions_pb2.RegisterAuthorRequest(name="carol", invite_code="open-sesame"))
    assert stub.ListBots(submissions_pb2.ListBotsRequest(), metadata=_bearer(made.token)).versions == []
    (tmp_path / "closed").mkdir()
    with referee(tmp_path / "closed") as closed:  # no invite code set: nobody registers
        shut = _refused(lambda: _stub(closed).RegisterAuthor(submissions_pb2.RegisterAuthorRequest(name="dave", invite_code="")))
        assert shut.code() == grpc.StatusCode.PERMISSION_DENIED and "mizerka author add" in shut.details()


def test_a_version_is_named_by_its_contents_and_one_author_sees_nothing_of_another(ref: Referee, tmp_path: Path) -> None:
    alice, bob = _author(ref, "alice"), _author(ref, "bob")
    folder = _bot_folder(tmp_path / "gobot")
    first = _submit(ref, alice, pack(folder))
    v1 = first.version
    assert (v1.ref, v1.number, v1.state, first.existing) == ("alice/gobot@1", 1, submissions_pb2.VERSION_STATE_RECEIVED, False)
    assert list(v1.run) == ["python3", "bot.py"] and len(v1.digest) == 64
    os.utime(folder / "bot.py", (1, 1))  # other times, same files: the same version
    same = _submit(ref, alice, pack(folder), chunk=1000)
    assert same.existing and same.version.ref == "alice/gobot@1" and same.version.digest == v1.digest
    (folder / "bot.py").write_text("print('hi!')\n")
    v2 = _submit(ref, alice, pack(folder)).version
    assert v2.ref == "alice/gobot@2" and v2.digest != v1.digest
    # bob's own bot of the same name is his, numbered from 1
    assert _submit(ref, bob, pack(_bot_folder(tmp_path / "bob"))).version.ref == "bob/gobot@1"

    stub = _stub(ref)
    listed = stub.ListBots(submissions_pb2.ListBotsRequest(), metadata=_bearer(alice)).versions
    assert [v.ref for v in listed] == ["alice/gobot@1", "alice/gobot@2"]
    assert [v.ref for v in stub.ListBots(submissions_pb2.ListBotsRequest(), metadata=_bearer(bob)).versions] == ["bob/gobot@1"]
    for call in (lambda: stub.GetVersion(submissions_pb2.GetVersionRequest(ref="alice/gobot@1"), metadata=_bearer(bob)),
                 lambda: stub.RetireBot(submissions_pb2.RetireBotRequest(ref="alice/gobot"), metadata=_bearer(bob)),
                 lambda: stub.ListBots(submissions_pb2.ListBotsRequest(bot="alice/gobot"), metadata=_bearer(bob)),
                 lambda: stub.GetVersion(submissions_pb2.GetVersionRequest(ref="gobot@2"), metadata=_bearer(bob))):
        assert _refused(call).code() == grpc.StatusCode.NOT_FOUND
    got = stub.GetVersion(submissions_pb2.GetVersionRequest(ref="gobot"), metadata=_bearer(alice))
    assert got.version.ref == "alice/gobot@2" and got.build_log == "" and got.validation_log == ""
    retired = stub.RetireBot(submissions_pb2.RetireBotRequest(ref="gobot@1"), metadata=_bearer(alice)).retired
    assert [v.ref for v in retired] == ["alice/gobot@1"] and retired[0].state == submissions_pb2.VERSION_STATE_RETIRED
    assert stub.GetVersion(submissions_pb2.GetVersionRequest(ref="bob/gobot@1"), metadata=_bearer(bob)).version.state \
        == submissions_pb2.VERSION_STATE_RECEIVED  # bob's untouched


def _tar(*members: tuple[tarfile.TarInfo, bytes | None], gz: bool = True) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz" if gz else "w") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return out.getvalue()


def _file(name: str, data: bytes, mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def _special(name: str, kind: bytes, target: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, None


MANIFEST_MEMBER = _file("mizerka-bot.toml", MANIFEST.encode())
HOSTILE = {
    "absolute path": (_tar(MANIFEST_MEMBER, _file("/etc/cron.d/evil", b"x")), "/etc/cron.d/evil"),
    "dot-dot": (_tar(MANIFEST_MEMBER, _file("../../evil", b"x")), ".."),
    "symlink out": (_tar(MANIFEST_MEMBER, _special("key", tarfile.SYMTYPE, "/root/.ssh/id_rsa")), "key"),
    "symlink up": (_tar(MANIFEST_MEMBER, _special("up", tarfile.SYMTYPE, "../../etc")), "up"),
    "hard link": (_tar(MANIFEST_MEMBER, _special("hard", tarfile.LNKTYPE, "/etc/passwd")), "hard"),
    "device": (_tar(MANIFEST_MEMBER, _special("disk", tarfile.BLKTYPE)), "disk"),
    "fifo": (_tar(MANIFEST_MEMBER, _special("pipe", tarfile.FIFOTYPE)), "pipe"),
    "set-uid": (_tar(MANIFEST_MEMBER, _file("su", b"#!/bin/sh\n", 0o4755)), "su"),
    "no manifest": (_tar(_file("bot.py", b"print(1)\n")), "mizerka-bot.toml"),
    "manifest key": (_tar(_file("mizerka-bot.toml", b'name = "gobot"\n')), "run"),
    "bad name": (_tar(_file("mizerka-bot.toml", b'name = "Go Bot"\nrun = "x"\n')), "name"),
    "not gzip": (b"this is not an archive" * 10, "gzip"),
    "too many files": (_tar(MANIFEST_MEMBER, *(_file(f"f{i}", b"") for i in range(60))), "50"),
    "too big": (_tar(MANIFEST_MEMBER, _file("noise", os.urandom(1200 * 1024))), "over 1 MiB"),
    "unpacked": (_tar(MANIFEST_MEMBER, _file("zeros", bytes(5 * 2**20))), "more than 4 MiB"),
    "bomb": (_tar(MANIFEST_MEMBER, _file("zeros", bytes(3 * 2**20))), "bomb"),
}


@pytest.mark.parametrize("attack", sorted(HOSTILE))
def test_a_hostile_upload_is_refused_naming_what_is_wrong_and_nothing_is_stored(ref: Referee, attack: str) -> None:
    token = _author(ref, "mallory")
    data, named = HOSTILE[attack]
    before = _counts(ref)
    error = _refused(lambda: _submit(ref, token, data))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert "nothing stored" in error.details() and named.lower() in error.details().lower(), error.details()
    assert _counts(ref) == before == {**before, "bot_versions": 0, "blobs": 0, "submitted_bots": 0}
    # and the author may upload a good one right after
    good = _tar(MANIFEST_MEMBER, _file("bot.py", b"print(1)\n"))
    assert _submit(ref, token, good).version.ref == "mallory/gobot@1"


def test_an_oversized_chunk_and_a_second_upload_at_once_are_refused(ref: Referee) -> None:
    token = _author(ref, "mallory")
    data = _tar(MANIFEST_MEMBER, _file("bot.py", os.urandom(70 * 1024)))
    error = _refused(lambda: _submit(ref, token, data, chunk=70 * 1024))
    assert error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert _counts(ref)["blobs"] == 0

    release = threading.Event()
    first = _stub(ref).Submit.future(_held(submissions_pb2.SubmitRequest(data=data[:1000]), release), metadata=_bearer(token),
                                     timeout=60)
    try:
        second = _refused(lambda: _submit(ref, token, data))
        assert second.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "one at a time" in second.details()
    finally:
        release.set()
        first.cancel()
    assert _counts(ref)["blobs"] == 0


def _held(first: submissions_pb2.SubmitRequest, release: threading.Event) -> Iterator[submissions_pb2.SubmitRequest]:
    """An upload's first chunk, then nothing until ``release``: an upload held open."""
    yield first
    release.wait(60)


def _mizerka(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "mizerka"), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def test_the_author_commands_add_submit_list_log_and_retire(ref: Referee, tmp_path: Path) -> None:
    added = _mizerka("author", "add", "alice", "--server", ref.address, env={"MIZERKA_ADMIN_TOKEN": ADMIN})
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]
    me = {"MIZERKA_AUTHOR_TOKEN": token}
    folder = _bot_folder(tmp_path / "gobot")
    sent = _mizerka("submit", str(folder), "--server", ref.address, env=me)
    assert sent.returncode == 0, sent.stderr
    assert "received alice/gobot@1" in sent.stdout
    status = _mizerka("bots", "status", "gobot", "--server", ref.address, env=me)
    assert status.returncode == 0 and "alice/gobot@1  received" in status.stdout
    logged = _mizerka("bots", "log", "gobot@1", "--server", ref.address, env=me)
    assert logged.returncode == 0 and "--- build log" in logged.stdout
    assert _mizerka("bots", "retire", "gobot", "--server", ref.address, env=me).stdout.strip() == "retired alice/gobot@1"
    assert "retired" in _mizerka("bots", "list", "--server", ref.address, env=me).stdout

    (folder / "mizerka-bot.toml").write_text('name = "gobot"\nrn = "python3 bot.py"\n')
    typo = _mizerka("submit", str(folder), "--server", ref.address, env=me)
    assert typo.returncode == 2 and "rn" in typo.stderr and "run" in typo.stderr  # said before anything is sent
    unknown = _mizerka("bots", "status", "gobot", "--server", ref.address, env={"MIZERKA_AUTHOR_TOKEN": "nope"})
    assert unknown.returncode == 1 and "UNAUTHENTICATED" in unknown.stderr
    none = _mizerka("submit", str(folder), "--server", ref.address, env={"MIZERKA_AUTHOR_TOKEN": ""})
    assert none.returncode == 2 and "MIZERKA_AUTHOR_TOKEN" in none.stderr
