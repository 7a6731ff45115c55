"""The Submissions service (proto/mizerka/v1/submissions.proto): authors, their uploads, their bots'
versions. What an upload may hold is checked as it arrives (server/submissions/archive.py); only an
accepted one reaches the store.
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
import structlog
from google.protobuf.timestamp_pb2 import Timestamp

from mizerka_proto import submissions_pb2, submissions_pb2_grpc
from server.arena import Arena
from server.names import shown
from server.storage.store import StoreError
from server.storage.submissions import Author, Submissions, Version, VersionState
from server.submissions.archive import ArchiveChecker, ArchiveError, ArchiveLimits
from server.submissions.refs import Ref, RefError, parse_ref
from server.transport.auth import bearer, is_admin
from server.transport.status import abort

log = structlog.get_logger("uploads")

MAX_CHUNK = 60 * 1024  # bytes of one SubmitRequest (the server takes messages of at most 64 KiB)
STATES = {s: getattr(submissions_pb2, f"VERSION_STATE_{s.name}") for s in VersionState}
_AUTHOR_ONLY = "this call needs an author's token: one metadata entry 'authorization: Bearer <author token>'"


@dataclass(frozen=True, slots=True)
class UploadSettings:
    """What ``mizerka serve`` lets authors upload, and how they join."""

    limits: ArchiveLimits = field(default_factory=ArchiveLimits)
    invite_code: str = ""  # "": authors cannot register themselves (the organiser adds them)
    max_uploads: int = 4  # uploads in progress at once, all authors together (one per author)
    upload_timeout_s: float = 600.0  # an upload must be complete by then (a trickle holds a slot no longer)


def version_to_proto(version: Version) -> submissions_pb2.BotVersion:
    created = Timestamp()
    created.FromNanoseconds(int(version.created_at * 1e9))
    return submissions_pb2.BotVersion(
        author=version.author, bot=version.bot, number=version.number, ref=version.ref, digest=version.digest,
        state=STATES[version.state], reason=version.reason, created=created, built_digest=version.built_digest or "",
        run=list(version.manifest.run), build=version.manifest.build or "")


class SubmissionsService(submissions_pb2_grpc.SubmissionsServicer):
    """Store calls run in the arena's writer thread or worker threads, never on the event loop."""

    def __init__(self, arena: Arena, admin_token: str, settings: UploadSettings) -> None:
        self.arena = arena
        self.submissions = Submissions(arena.store)
        self.admin_token = admin_token
        self.settings = settings
        self.uploading: set[str] = set()  # authors with an upload in progress

    async def _author(self, context: grpc.aio.ServicerContext) -> Author:
        token = bearer(context.invocation_metadata())
        author = None if token is None else await asyncio.to_thread(self.submissions.author_by_token, token)
        if author is None:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, _AUTHOR_ONLY)
        assert author is not None
        return author

    async def _credentials(self, name: str, context: grpc.aio.ServicerContext) -> submissions_pb2.AuthorCredentials:
        try:
            author, token = await self.arena.write(self.submissions.add_author, name)
        except StoreError as e:
            code = grpc.StatusCode.ALREADY_EXISTS if "already" in str(e) else grpc.StatusCode.INVALID_ARGUMENT
            await abort(context, code, str(e))
        log.info("author added", author=author.name, author_id=author.id)
        return submissions_pb2.AuthorCredentials(author_id=author.id, name=author.name, token=token)

    async def AddAuthor(self, request: submissions_pb2.AddAuthorRequest, context: grpc.aio.ServicerContext) -> submissions_pb2.AuthorCredentials:  # noqa: N802
        if not is_admin(context.invocation_metadata(), self.admin_token):
            await abort(context, grpc.StatusCode.UNAUTHENTICATED,
                        "AddAuthor needs exactly one metadata entry 'authorization: Bearer <admin token>'")
        return await self._credentials(request.name, context)

    async def RegisterAuthor(self, request: submissions_pb2.RegisterAuthorRequest, context: grpc.aio.ServicerContext) -> submissions_pb2.AuthorCredentials:  # noqa: N802
        code = self.settings.invite_code
        if not code or not hmac.compare_digest(request.invite_code.encode(), code.encode()):
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, "wrong invite code" if code else
                        "this server takes no self-registration: ask its organiser to add you (mizerka author add)")
        return await self._credentials(request.name, context)

    async def Submit(self, request_iterator: AsyncIterator[submissions_pb2.SubmitRequest], context: grpc.aio.ServicerContext) -> submissions_pb2.SubmitResponse:  # noqa: N802
        author = await self._author(context)
        if author.id in self.uploading:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, "you have an upload in progress already: one at a time")
        if len(self.uploading) >= self.settings.max_uploads:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                        f"the server takes {self.settings.max_uploads} uploads at once and has them: try again in a minute")
        self.uploading.add(author.id)
        checker = ArchiveChecker(self.settings.limits)
        try:
            async with asyncio.timeout(self.settings.upload_timeout_s):
                async for chunk in request_iterator:
                    if len(chunk.data) > MAX_CHUNK:
                        raise ArchiveError(f"a SubmitRequest carries at most {MAX_CHUNK} bytes, this one {len(chunk.data)}")
                    await asyncio.to_thread(checker.feed, chunk.data)
            checked = await asyncio.to_thread(checker.finish)
        except ArchiveError as e:
            log.info("upload refused", author=author.name, why=str(e))
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"upload refused, nothing stored: {e}")
        except TimeoutError:
            await abort(context, grpc.StatusCode.DEADLINE_EXCEEDED, f"upload refused, nothing stored: not complete within "
                        f"{self.settings.upload_timeout_s:g} s")
        finally:
            await asyncio.to_thread(checker.close)
            self.uploading.discard(author.id)
        assert checked.manifest is not None  # the checker asks for one
        version, existing = await self.arena.write(self.submissions.add_version, author, checked.digest, checked.canonical,
                                                   checked.manifest)
        log.info("upload stored", version=version.ref, digest=version.digest, existing=existing, files=checked.files)
        return submissions_pb2.SubmitResponse(version=version_to_proto(version), existing=existing)

    async def _ref(self, text: str, author: Author, context: grpc.aio.ServicerContext) -> Ref:
        """A ref of the caller's own: another author's name is NOT_FOUND, as a bot that does not exist."""
        try:
            ref = parse_ref(text, author.name)
        except RefError as e:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(e))
        if ref.author != author.name:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"you have no bot {shown(text)}")
        return ref

    async def _version(self, ref: Ref, context: grpc.aio.ServicerContext) -> Version:
        version = await asyncio.to_thread(self.submissions.version, ref)
        if version is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"you have no bot {shown(str(ref))}")
        assert version is not None
        return version

    async def ListBots(self, request: submissions_pb2.ListBotsRequest, context: grpc.aio.ServicerContext) -> submissions_pb2.ListBotsResponse:  # noqa: N802
        author = await self._author(context)
        bot = (await self._ref(request.bot, author, context)).bot if request.bot else None
        versions = await asyncio.to_thread(self.submissions.versions, author.name, bot)
        return submissions_pb2.ListBotsResponse(versions=[version_to_proto(v) for v in versions])

    async def GetVersion(self, request: submissions_pb2.GetVersionRequest, context: grpc.aio.ServicerContext) -> submissions_pb2.GetVersionResponse:  # noqa: N802
        author = await self._author(context)
        version = await self._version(await self._ref(request.ref, author, context), context)
        logs = await asyncio.to_thread(self.submissions.logs, version)
        return submissions_pb2.GetVersionResponse(version=version_to_proto(version), build_log=logs.build,
                                                  validation_log=logs.validation)

    async def RetireBot(self, request: submissions_pb2.RetireBotRequest, context: grpc.aio.ServicerContext) -> submissions_pb2.RetireBotResponse:  # noqa: N802
        author = await self._author(context)
        ref = await self._ref(request.ref, author, context)
        await self._version(ref, context)
        retired = await self.arena.write(self.submissions.retire, ref)
        log.info("versions retired", versions=[v.ref for v in retired])
        return submissions_pb2.RetireBotResponse(retired=[version_to_proto(v) for v in retired])
