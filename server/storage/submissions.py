"""What authors submit, kept beside the referee's tables: authors (their tokens hashed), their
bots, every bot's versions with their state and logs, and the archives themselves (a version's
source and its built tree) by SHA-256, so that every host running a version gets the same bytes
from the database (no shared file system: docs/submitting.md).

A version is immutable: its number, its source's digest and what it was built into never change;
only its state moves on (received -> building -> build-failed | validating -> rejected | ready,
and retired at the author's word). The same bytes submitted again are the same version.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from server.names import shown
from server.storage.store import Store, StoreError
from server.submissions.manifest import Manifest
from server.submissions.refs import Ref, RefError, check_bot_name, parse_ref

metadata = sa.MetaData()

authors = sa.Table(
    "authors",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False, unique=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

submitted_bots = sa.Table(
    "submitted_bots",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("author_id", sa.String(64), sa.ForeignKey("authors.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("author_id", "name"),
)

blobs = sa.Table(
    "blobs",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),  # SHA-256 of the uncompressed canonical tar
    sa.Column("size", sa.BigInteger, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),  # the canonical tar.gz (server/submissions/archive.py)
    sa.Column("created_at", sa.Float, nullable=False),
)

bot_versions = sa.Table(
    "bot_versions",
    metadata,
    sa.Column("bot_id", sa.String(64), sa.ForeignKey("submitted_bots.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # 1, 2, ... per bot
    sa.Column("digest", sa.String(64), sa.ForeignKey("blobs.digest"), nullable=False),  # its source
    sa.Column("state", sa.String(16), nullable=False, index=True),
    sa.Column("reason", sa.Text, nullable=False),  # why it failed or was rejected ("" otherwise)
    sa.Column("manifest", sa.JSON, nullable=False),
    sa.Column("build_log", sa.Text, nullable=False),
    sa.Column("validation_log", sa.Text, nullable=False),
    sa.Column("built_digest", sa.String(64), sa.ForeignKey("blobs.digest")),  # its built tree, once built
    sa.Column("claimed_by", sa.String(200)),  # the builder building or validating it
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.UniqueConstraint("bot_id", "digest"),
)


class VersionState(StrEnum):
    RECEIVED = "received"  # stored, waiting for a builder
    BUILDING = "building"
    BUILD_FAILED = "build-failed"  # its build command failed; the build log says why
    VALIDATING = "validating"  # built, playing its validation match
    REJECTED = "rejected"  # the validation match found a fault; reason and validation log say which
    READY = "ready"  # may play in leagues
    RETIRED = "retired"  # withdrawn by its author: plays no more


FINAL = (VersionState.BUILD_FAILED, VersionState.REJECTED, VersionState.READY, VersionState.RETIRED)


@dataclass(frozen=True, slots=True)
class Author:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Version:
    author: str
    bot: str
    number: int
    digest: str  # its source archive's
    state: VersionState
    reason: str
    manifest: Manifest
    built_digest: str | None
    created_at: float
    updated_at: float

    @property
    def ref(self) -> str:
        """The version's name: ``alice/gobot@3``."""
        return f"{self.author}/{self.bot}@{self.number}"


@dataclass(frozen=True, slots=True)
class VersionLogs:
    build: str
    validation: str


def _hash(token: str) -> str:
    """What is kept of an author token (random 192 bits: a plain SHA-256 leaves nothing to guess)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _manifest(data: dict[str, Any]) -> Manifest:
    return Manifest(name=data["name"], run=tuple(data["run"]), build=data.get("build"))


_COLUMNS = (authors.c.name.label("author"), submitted_bots.c.name.label("bot"), bot_versions.c.number, bot_versions.c.digest,
            bot_versions.c.state, bot_versions.c.reason, bot_versions.c.manifest, bot_versions.c.built_digest,
            bot_versions.c.created_at, bot_versions.c.updated_at)
_JOINED = bot_versions.join(submitted_bots, bot_versions.c.bot_id == submitted_bots.c.id).join(
    authors, submitted_bots.c.author_id == authors.c.id)


def _version(row: Any) -> Version:
    return Version(row.author, row.bot, row.number, row.digest, VersionState(row.state), row.reason, _manifest(row.manifest),
                   row.built_digest, row.created_at, row.updated_at)


class Submissions:
    """The submissions of one database (the referee's ``--db``). Blocking, like :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # --------------------------------------------------------------------------------- authors
    def add_author(self, name: str) -> tuple[Author, str]:
        """A new author and its token (shown once; only its hash is kept)."""
        try:
            name = check_bot_name(name, "an author's name")
        except RefError as e:
            raise StoreError(str(e)) from None
        token = secrets.token_urlsafe(24)
        author = Author(f"author-{uuid.uuid4().hex[:12]}", name)
        try:
            with self.engine.begin() as conn:
                conn.execute(authors.insert().values(id=author.id, name=name, token_hash=_hash(token), created_at=time.time()))
        except IntegrityError:
            raise StoreError(f"an author named {name!r} already exists") from None
        return author, token

    def author_by_token(self, token: str) -> Author | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(authors.c.id, authors.c.name).where(authors.c.token_hash == _hash(token))).first()
        return None if row is None else Author(row.id, row.name)

    # -------------------------------------------------------------------------------- versions
    def add_version(self, author: Author, digest: str, source: bytes, manifest: Manifest) -> tuple[Version, bool]:
        """Store an accepted upload (its canonical archive ``source`` of SHA-256 ``digest``) as the
        next version of ``author``'s bot ``manifest.name``; returns it and whether it existed already
        (the same bytes are the same version: nothing new is stored)."""
        now = time.time()
        for _ in range(3):  # two uploads of one bot at once: the second numbers its version again
            with self.engine.begin() as conn:
                bot_id = conn.execute(sa.select(submitted_bots.c.id).where(
                    submitted_bots.c.author_id == author.id, submitted_bots.c.name == manifest.name)).scalar()
                if bot_id is not None:
                    same = conn.execute(sa.select(bot_versions.c.number).where(
                        bot_versions.c.bot_id == bot_id, bot_versions.c.digest == digest)).scalar()
                    if same is not None:
                        return self._get(conn, bot_id, same), True
            try:
                with self.engine.begin() as conn:
                    if bot_id is None:
                        bot_id = f"sbot-{uuid.uuid4().hex[:12]}"
                        conn.execute(submitted_bots.insert().values(id=bot_id, author_id=author.id, name=manifest.name, created_at=now))
                    if conn.execute(sa.select(blobs.c.digest).where(blobs.c.digest == digest)).first() is None:
                        conn.execute(blobs.insert().values(digest=digest, size=len(source), data=source, created_at=now))
                    number = (conn.execute(sa.select(sa.func.max(bot_versions.c.number)).where(
                        bot_versions.c.bot_id == bot_id)).scalar() or 0) + 1
                    conn.execute(bot_versions.insert().values(
                        bot_id=bot_id, number=number, digest=digest, state=VersionState.RECEIVED.value, reason="",
                        manifest=manifest.to_json(), build_log="", validation_log="", created_at=now, updated_at=now))
                    return self._get(conn, bot_id, number), False
            except IntegrityError:
                continue
        raise StoreError(f"could not store a version of {author.name}/{manifest.name}: too many uploads of it at once")

    def _get(self, conn: sa.Connection, bot_id: str, number: int) -> Version:
        row = conn.execute(sa.select(*_COLUMNS).select_from(_JOINED).where(
            bot_versions.c.bot_id == bot_id, bot_versions.c.number == number)).one()
        return _version(row)

    def versions(self, author: str, bot: str | None = None) -> list[Version]:
        """An author's versions (of one bot, or of all), by bot then number."""
        query = sa.select(*_COLUMNS).select_from(_JOINED).where(authors.c.name == author)
        if bot is not None:
            query = query.where(submitted_bots.c.name == bot)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(submitted_bots.c.name, bot_versions.c.number)).all()
        return [_version(r) for r in rows]

    def version(self, ref: Ref) -> Version | None:
        """The version ``ref`` names; with no number, the latest (whatever its state)."""
        versions = self.versions(ref.author, ref.bot)
        if ref.number is None:
            return versions[-1] if versions else None
        return next((v for v in versions if v.number == ref.number), None)

    def logs(self, version: Version) -> VersionLogs:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(bot_versions.c.build_log, bot_versions.c.validation_log).select_from(_JOINED).where(
                authors.c.name == version.author, submitted_bots.c.name == version.bot,
                bot_versions.c.number == version.number)).one()
        return VersionLogs(row.build_log, row.validation_log)

    def retire(self, ref: Ref) -> list[Version]:
        """Retire a version (or, with no number, every version of the bot); returns those retired."""
        targets = [v for v in self.versions(ref.author, ref.bot) if ref.number in (None, v.number)]
        if not targets:
            raise StoreError(f"no submitted bot {shown(str(ref))}")
        retired = [v for v in targets if v.state is not VersionState.RETIRED]
        for v in retired:
            self._set(v, VersionState.RETIRED, v.reason)
        return [self.version(Ref(v.author, v.bot, v.number)) or v for v in retired]

    def resolve(self, ref: str | Ref) -> Version:
        """The ready version a league plays: ``alice/gobot`` its latest ready one, ``alice/gobot@3``
        that one, which must be ready. StoreError saying why not."""
        try:
            ref = ref if isinstance(ref, Ref) else parse_ref(ref)
        except RefError as e:
            raise StoreError(str(e)) from None
        versions = self.versions(ref.author, ref.bot)
        if not versions:
            raise StoreError(f"no submitted bot {shown(f'{ref.author}/{ref.bot}')} in this database")
        if ref.number is None:
            ready = [v for v in versions if v.state is VersionState.READY]
            if not ready:
                states = ", ".join(f"@{v.number} {v.state}" for v in versions[-3:])
                raise StoreError(f"{ref.author}/{ref.bot} has no ready version yet ({states})")
            return ready[-1]
        found = next((v for v in versions if v.number == ref.number), None)
        if found is None:
            raise StoreError(f"{ref.author}/{ref.bot} has no version {ref.number} (its latest is @{versions[-1].number})")
        if found.state is not VersionState.READY:
            why = f": {found.reason}" if found.reason else ""
            raise StoreError(f"{found.ref} is {found.state}, not ready{why}")
        return found

    def blob(self, digest: str) -> bytes:
        """A stored archive by its digest (a version's source or built tree)."""
        with self.engine.connect() as conn:
            data = conn.execute(sa.select(blobs.c.data).where(blobs.c.digest == digest)).scalar()
        if data is None:
            raise StoreError(f"no stored archive {shown(digest)}")
        return bytes(data)

    # ----------------------------------------------------------------------- for the builders
    def claim(self, builder: str) -> Version | None:
        """Take the oldest received version to build (RECEIVED -> BUILDING), if there is one. Several
        builders may share the database: the update that takes it is conditional."""
        while True:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(bot_versions.c.bot_id, bot_versions.c.number).where(
                    bot_versions.c.state == VersionState.RECEIVED.value).order_by(bot_versions.c.created_at).limit(1)).first()
            if row is None:
                return None
            with self.engine.begin() as conn:
                taken = conn.execute(bot_versions.update().where(
                    bot_versions.c.bot_id == row.bot_id, bot_versions.c.number == row.number,
                    bot_versions.c.state == VersionState.RECEIVED.value,
                ).values(state=VersionState.BUILDING.value, claimed_by=builder, updated_at=time.time())).rowcount
                if taken:
                    return self._get(conn, row.bot_id, row.number)

    def release(self, builder: str) -> int:
        """Versions ``builder`` was building or validating when it stopped go back to RECEIVED (it
        starts again at its next start); returns how many."""
        with self.engine.begin() as conn:
            return conn.execute(bot_versions.update().where(
                bot_versions.c.claimed_by == builder,
                bot_versions.c.state.in_((VersionState.BUILDING.value, VersionState.VALIDATING.value)),
            ).values(state=VersionState.RECEIVED.value, claimed_by=None, updated_at=time.time())).rowcount

    def record(self, version: Version, state: VersionState, reason: str = "", *, build_log: str | None = None,
               validation_log: str | None = None, built: tuple[str, bytes] | None = None) -> Version:
        """Move ``version`` on (its logs, and ``built``: the built tree's digest and archive)."""
        return self._set(version, state, reason, build_log, validation_log, built)

    def _set(self, version: Version, state: VersionState, reason: str, build_log: str | None = None,
             validation_log: str | None = None, built: tuple[str, bytes] | None = None) -> Version:
        now = time.time()
        values: dict[str, Any] = {"state": state.value, "reason": reason, "updated_at": now}
        if state in FINAL:
            values["claimed_by"] = None
        if build_log is not None:
            values["build_log"] = build_log
        if validation_log is not None:
            values["validation_log"] = validation_log
        with self.engine.begin() as conn:
            bot_id = conn.execute(sa.select(submitted_bots.c.id).join(authors, submitted_bots.c.author_id == authors.c.id).where(
                authors.c.name == version.author, submitted_bots.c.name == version.bot)).scalar_one()
            if built is not None:
                digest, data = built
                if conn.execute(sa.select(blobs.c.digest).where(blobs.c.digest == digest)).first() is None:
                    conn.execute(blobs.insert().values(digest=digest, size=len(data), data=data, created_at=now))
                values["built_digest"] = digest
            which = [bot_versions.c.bot_id == bot_id, bot_versions.c.number == version.number]
            if state is not VersionState.RETIRED:  # retired while a builder had it: it stays retired
                which.append(bot_versions.c.state != VersionState.RETIRED.value)
            conn.execute(bot_versions.update().where(*which).values(**values))
            return self._get(conn, bot_id, version.number)
