"""The author's commands (docs/submitting.md): ``mizerka author add|register``, ``mizerka submit``
and ``mizerka bots list|status|log|retire``, all over the referee's Submissions service."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

from mizerka.connection import Connection, ConnectionSettingsError
from mizerka_proto import submissions_pb2, submissions_pb2_grpc
from server.commands import usage_error
from server.submissions.archive import ArchiveError, check_archive, pack
from server.transport.uploads import MAX_CHUNK

author_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Bot authors (docs/submitting.md).")
submit_app = typer.Typer(add_completion=False)
bots_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Your submitted bots (needs $MIZERKA_AUTHOR_TOKEN).")

DEFAULT_SERVER = "127.0.0.1:50051"
ServerOption = Annotated[str, typer.Option(help="The referee, HOST:PORT (https://HOST:PORT for TLS: docs/protocol.md#tls).")]
AuthorToken = Annotated[str | None, typer.Option(envvar="MIZERKA_AUTHOR_TOKEN", hidden=True)]
STATE_NAMES = {v: k.removeprefix("VERSION_STATE_").lower().replace("_", "-") for k, v in submissions_pb2.VersionState.items()}


def _stub(server: str) -> tuple[grpc.Channel, submissions_pb2_grpc.SubmissionsStub]:
    try:
        channel = Connection.resolve(server).channel()
    except ConnectionSettingsError as e:
        raise usage_error(str(e)) from None
    return channel, submissions_pb2_grpc.SubmissionsStub(channel)


def _call(server: str, token: str | None, method: str, request: Any, timeout: float | None = 30) -> Any:
    """One call of the service; an error is printed as the server words it (exit status 1)."""
    channel, stub = _stub(server)
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    try:
        with channel:
            return getattr(stub, method)(request, metadata=metadata, timeout=timeout)
    except grpc.RpcError as e:
        _fail(e)


def _fail(error: grpc.RpcError) -> None:
    code = error.code()  # type: ignore[attr-defined]
    print(f"error: {error.details() or code.name} ({code.name})", file=sys.stderr)  # type: ignore[attr-defined]
    raise typer.Exit(1)


def _author_token(token: str | None) -> str:
    if not token:
        raise usage_error("set MIZERKA_AUTHOR_TOKEN to your author token (the organiser's `mizerka author add` printed it)")
    return token


def _show(version: submissions_pb2.BotVersion) -> str:
    state = STATE_NAMES[version.state]
    reason = f": {version.reason}" if version.reason else ""
    return f"{version.ref}  {state}{reason}  (sha256 {version.digest[:12]})"


# ------------------------------------------------------------------------------------- authors
@author_app.command("add")
def author_add(
    name: Annotated[str, typer.Argument(help="The author's name: lower-case letters, digits, '-', '_'.")],
    server: ServerOption = DEFAULT_SERVER,
    admin_token: Annotated[str | None, typer.Option(envvar="MIZERKA_ADMIN_TOKEN", help="The referee's admin token (default: $MIZERKA_ADMIN_TOKEN, else the file DB.admin-token of --db).")] = None,
    db: Annotated[Path, typer.Option(help="The referee's database file, whose DB.admin-token file holds its admin token.")] = Path("data/arena.sqlite"),
) -> None:
    """(Organiser) Create an author and print its token, shown only this once."""
    token = admin_token
    if not token:
        path = db.with_name(db.name + ".admin-token")
        try:
            token = path.read_text().strip()
        except OSError as e:
            raise usage_error(f"no admin token: set MIZERKA_ADMIN_TOKEN, or give --db of the referee ({path}: {e.strerror})") from None
    made = _call(server, token, "AddAuthor", submissions_pb2.AddAuthorRequest(name=name))
    print(f"author {made.name} added; its token (shown only now; the author sets MIZERKA_AUTHOR_TOKEN to it):")
    print(made.token)


@author_app.command("register")
def author_register(
    name: Annotated[str, typer.Argument(help="Your author name: lower-case letters, digits, '-', '_'.")],
    server: ServerOption = DEFAULT_SERVER,
    invite_code: Annotated[str, typer.Option(envvar="MIZERKA_INVITE_CODE", prompt=True, hide_input=True, help="The invite code the organiser gave you (default: $MIZERKA_INVITE_CODE, else asked).")] = "",
) -> None:
    """Register yourself as an author with the organiser's invite code; prints your token once."""
    made = _call(server, None, "RegisterAuthor", submissions_pb2.RegisterAuthorRequest(name=name, invite_code=invite_code))
    print(f"author {made.name} registered; your token (shown only now: set MIZERKA_AUTHOR_TOKEN to it):")
    print(made.token)


# -------------------------------------------------------------------------------------- submit
def _chunks(data: bytes, progress: Progress | None) -> Iterator[submissions_pb2.SubmitRequest]:
    task = None if progress is None else progress.add_task("upload", total=len(data))
    for start in range(0, len(data), MAX_CHUNK):
        chunk = data[start:start + MAX_CHUNK]
        yield submissions_pb2.SubmitRequest(data=chunk)
        if progress is not None and task is not None:
            progress.advance(task, len(chunk))


@submit_app.command()
def submit(
    folder: Annotated[Path, typer.Argument(help="The bot's folder, with its mizerka-bot.toml at the top.")],
    server: ServerOption = DEFAULT_SERVER,
    token: AuthorToken = None,
) -> None:
    """Upload a bot's folder: it becomes a new version of the bot its manifest names (received)."""
    token = _author_token(token)
    if not folder.is_dir():
        raise usage_error(f"{folder} is not a folder")
    try:
        data = pack(folder)
        checked = check_archive(data)  # what the server will say, said before the upload
    except (ArchiveError, OSError) as e:
        raise usage_error(f"{folder}: {e}") from None
    assert checked.manifest is not None
    console = Console(stderr=True)
    channel, stub = _stub(server)
    with channel, Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                           console=console, transient=True, disable=not console.is_terminal) as progress:
        try:
            done = stub.Submit(_chunks(data, progress), metadata=(("authorization", f"Bearer {token}"),), timeout=900)
        except grpc.RpcError as e:
            progress.stop()
            _fail(e)
    print(("the same files as " if done.existing else "received ") + _show(done.version))


# ---------------------------------------------------------------------------------------- bots
@bots_app.command("list")
def bots_list(server: ServerOption = DEFAULT_SERVER, token: AuthorToken = None) -> None:
    """Every version of your bots, with its state."""
    got = _call(server, _author_token(token), "ListBots", submissions_pb2.ListBotsRequest())
    for version in got.versions:
        print(_show(version))
    if not got.versions:
        print("no bots yet: mizerka submit FOLDER")


@bots_app.command("status")
def bots_status(
    name: Annotated[str, typer.Argument(help="Your bot's name (gobot).")],
    server: ServerOption = DEFAULT_SERVER, token: AuthorToken = None,
) -> None:
    """One bot's versions and their states (the latest last)."""
    got = _call(server, _author_token(token), "ListBots", submissions_pb2.ListBotsRequest(bot=name))
    if not got.versions:
        print(f"error: you have no bot {name!r}", file=sys.stderr)
        raise typer.Exit(1)
    for version in got.versions:
        print(_show(version))


@bots_app.command("log")
def bots_log(
    ref: Annotated[str, typer.Argument(help="A version of yours (gobot@3), or a bot (its latest version).")],
    server: ServerOption = DEFAULT_SERVER, token: AuthorToken = None,
) -> None:
    """A version's build log and validation log."""
    got = _call(server, _author_token(token), "GetVersion", submissions_pb2.GetVersionRequest(ref=ref))
    print(_show(got.version))
    print("--- build log" + ("" if got.build_log else " (empty: no build command, or not built yet)"))
    if got.build_log:
        print(got.build_log.rstrip("\n"))
    print("--- validation" + ("" if got.validation_log else " (not validated yet)"))
    if got.validation_log:
        print(got.validation_log.rstrip("\n"))


@bots_app.command("retire")
def bots_retire(
    ref: Annotated[str, typer.Argument(help="A version of yours (gobot@3), or a bot (every version).")],
    server: ServerOption = DEFAULT_SERVER, token: AuthorToken = None,
) -> None:
    """Retire a version, or every version of a bot: it enters no more leagues (final)."""
    got = _call(server, _author_token(token), "RetireBot", submissions_pb2.RetireBotRequest(ref=ref))
    for version in got.retired:
        print(f"retired {version.ref}")
    if not got.retired:
        print("nothing to retire: retired already")

