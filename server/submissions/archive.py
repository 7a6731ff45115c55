"""The archive a bot author uploads, checked as it arrives. An upload is hostile until proven
otherwise (paths out of the folder, links out of it, devices, set-uid bits, compression bombs), and
what is kept is a canonical tar of what was accepted, so that the same files are the same version
whatever tool packed them and whoever owned them.

The tar is read by a small parser of our own rather than :mod:`tarfile`: it takes bytes as they come
out of zlib, so a refusal comes with the chunk that holds the bad header (not after 50 MiB more of
upload), memory stays bounded (a pax header is capped before it is read; file data spills to a
temporary file), and what it does not understand it refuses instead of reading it some other way than
the tools that unpack the canonical form later."""

from __future__ import annotations

import enum
import hashlib
import io
import os
import stat
import struct
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from gzip import GzipFile
from pathlib import Path
from typing import IO

from server.names import shown
from server.submissions.manifest import MANIFEST, MAX_MANIFEST_BYTES, Manifest, ManifestError, parse_manifest

BLOCK = 512  # a tar header, and the unit tar pads data to
MAX_PATH = 4096  # bytes of a member's path or a link's target (Linux's PATH_MAX)
MAX_COMPONENT = 255  # bytes of one name in a path (NAME_MAX)
MAX_PAX = 2**20  # bytes of a pax extended header, read whole: capped before it is read
HEADER_ALLOWANCE = 2048  # tar bytes a member may take beside its data (headers, long names, padding)
BOMB_FLOOR = 2**20  # decompressed bytes below which no ratio makes an upload a bomb
_PIECE = 64 * 1024  # the most zlib hands out at once, so one small chunk cannot inflate to gigabytes in memory
_SPOOL_BYTES = 8 * 2**20  # file data kept in memory before it spills to a temporary file
_BITS = {stat.S_ISUID: "set-uid", stat.S_ISGID: "set-gid", stat.S_ISVTX: "sticky"}
_REFUSED_TYPES = {b"1": "a hard link", b"3": "a character device", b"4": "a block device", b"6": "a FIFO",
                  b"7": "a contiguous file", b"S": "a sparse file", b"V": "a tape volume label", b"M": "a multi-volume part",
                  b"D": "a GNU dump folder", b"N": "an old GNU long name"}
_ALLOWED = "a bot's folder may hold files, folders and symlinks only"


def _amount(size: int) -> str:
    """``size`` bytes as people read it in an error: "50 MiB", "1000 bytes"."""
    for unit, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """What one bot may upload; the defaults are the arena's, builds pass their own."""

    max_bytes: int = 50 * 2**20  # the upload (compressed)
    max_files: int = 10_000  # members of every kind
    max_unpacked: int = 200 * 2**20  # sum of file sizes, and (with headers, max_tar) decompressed bytes counted as they come out of zlib
    max_ratio: int = 200  # decompressed/compressed beyond which (past 1 MiB out) it is a compression bomb

    @property
    def max_tar(self) -> int:
        """The most bytes the tar inside may take: its files and, for each member, its headers."""
        return self.max_unpacked + (self.max_files + 1) * HEADER_ALLOWANCE


class ArchiveError(ValueError):
    """An upload the arena refuses; the message says what and which member."""


class Kind(StrEnum):
    """What a member may be; anything else (links, devices, FIFOs) is refused."""

    FILE = "file"
    DIR = "dir"
    SYMLINK = "symlink"


_KIND_WORDS = {Kind.FILE: "a file", Kind.DIR: "a folder", Kind.SYMLINK: "a symlink"}


@dataclass(frozen=True, slots=True)
class Member:
    """One accepted member, as the canonical tar writes it."""

    path: str  # relative, "/"-separated, no "." or ".." or empty components
    kind: Kind
    executable: bool = False
    size: int = 0
    target: str | None = None  # a symlink's


@dataclass(frozen=True, slots=True)
class CheckedArchive:
    """An accepted upload, in the one form the arena keeps."""

    digest: str  # hex SHA-256 of the canonical tar (uncompressed): the version's name; same contents = same digest
    canonical: bytes  # canonical tar.gz (sorted members, mtime 0, uid/gid 0, modes 0644/0755, gzip mtime 0): deterministic
    files: int  # members of every kind, folders and symlinks too (as max_files counts them)
    unpacked: int  # bytes of the files
    manifest: Manifest | None  # parsed from the top-level mizerka-bot.toml when asked for


@dataclass(frozen=True, slots=True)
class _Entry:
    """A member's header as the tar says it, long names and pax records applied, nothing checked."""

    name: bytes
    type: bytes
    mode: int
    size: int
    link: bytes


@dataclass(frozen=True, slots=True)
class _Data:
    """Some of the current entry's data; ``last`` with its last bytes (an empty entry gets one, empty)."""

    chunk: memoryview
    last: bool


class _Meta(enum.Enum):
    """Headers whose data says something about the next member (or, global, every later one)."""

    PAX = b"x"
    GLOBAL = b"g"
    LONG_NAME = b"L"
    LONG_LINK = b"K"


def _number(field: bytes) -> int:
    """A tar number: octal digits, or GNU's base-256 with the high bit set."""
    if field[0] in (0o200, 0o377):
        value = int.from_bytes(field[1:], "big")
        return value if field[0] == 0o200 else value - 256 ** (len(field) - 1)
    digits = field.split(b"\0", 1)[0].strip()
    if digits and not digits.isdigit():
        raise ValueError(f"not an octal number: {digits!r}")
    return int(digits or b"0", 8)


def _pax_records(data: bytes) -> dict[str, bytes]:
    """The ``LENGTH KEY=VALUE\\n`` records of a pax header; ValueError when they are not."""
    records: dict[str, bytes] = {}
    at = 0
    while at < len(data) and data[at]:
        space = data.find(b" ", at)
        length = int(data[at:space]) if space > at and data[at:space].isdigit() else 0
        record = data[space + 1:at + length]
        if length <= space - at or at + length > len(data) or not record.endswith(b"\n") or b"=" not in record:
            raise ValueError(f"a broken pax record at byte {at}")
        key, _, value = record[:-1].partition(b"=")
        records[key.decode("utf-8", "replace")] = value
        at += length
    return records


class _TarStream:
    """Splits a tar stream into entries and their data as its bytes arrive, applying pax records and
    GNU long names; refuses a stream it cannot read unambiguously."""

    def __init__(self) -> None:
        self._block = bytearray()  # the header being gathered
        self._left = 0  # data bytes of the current entry (or meta header) still to come
        self._pad = 0  # padding after them
        self._meta: _Meta | None = None  # the meta header whose data is being gathered
        self._meta_data = bytearray()
        self._pending: dict[_Meta, dict[str, bytes]] = {}  # for the next member, as pax records (a GNU long name is a path)
        self._ended = False
        self._headers = 0
        self._last = ""  # the last member's name, for messages

    def _where(self) -> str:
        return f"after {shown(self._last)}" if self._last else "at its start"

    def feed(self, data: memoryview) -> Iterator[_Entry | _Data]:
        """The entries and data in ``data``, the stream's next bytes."""
        at = 0
        while at < len(data):
            if self._ended:
                if bytes(data[at:]).count(0) != len(data) - at:
                    raise ArchiveError("the archive has data after its end-of-archive marker")
                return
            if self._left:
                size = min(self._left, len(data) - at)
                chunk, at, self._left = data[at:at + size], at + size, self._left - size
                if self._meta is None:
                    yield _Data(chunk, last=not self._left)
                else:
                    self._meta_data += chunk
                    if not self._left:
                        self._meta_done()
            elif self._pad:
                size = min(self._pad, len(data) - at)
                at, self._pad = at + size, self._pad - size
            else:
                size = min(BLOCK - len(self._block), len(data) - at)
                self._block += data[at:at + size]
                at += size
                if len(self._block) == BLOCK:
                    entry = self._header(bytes(self._block))
                    self._block.clear()
                    if entry is not None:
                        yield entry
                        if not entry.size:
                            yield _Data(memoryview(b""), last=True)

    def finish(self) -> None:
        """ArchiveError unless the stream ended with its end-of-archive marker."""
        if self._ended:
            return
        if self._left or self._pad:
            inside = "a pax header or long name" if self._meta is not None else shown(self._last)
            raise ArchiveError(f"the archive is truncated: it ends inside {inside}")
        if self._block:
            raise ArchiveError(f"the archive is truncated: it ends inside a tar header {self._where()}")
        raise ArchiveError(f"the archive is truncated: it ends {self._where()} with no end-of-archive marker")

    def _header(self, block: bytes) -> _Entry | None:
        """The member this header starts, or None for a meta header or the end."""
        if block.count(0) == BLOCK:
            if self._pending:
                raise ArchiveError(f"the archive ends {self._where()} with a pax header or long name for no member")
            self._ended = True
            return None
        try:
            checksum = _number(block[148:156])
            if checksum not in (sum(struct.unpack("148B8x356B", block)) + 256, sum(struct.unpack("148b8x356b", block)) + 256):
                raise ValueError("its checksum does not match")
            mode, size = _number(block[100:108]), _number(block[124:136])
        except ValueError as error:
            if not self._headers:
                raise ArchiveError(f"the upload is not a tar archive ({error} in its first header)") from None
            raise ArchiveError(f"the archive has a corrupt tar header {self._where()}: {error}") from None
        self._headers += 1
        kind = block[156:157]
        if size < 0:
            raise ArchiveError(f"the archive has a header {self._where()} with a negative size")
        meta = next((meta for meta in _Meta if meta.value == kind), None)
        if meta is not None:
            return self._start_meta(meta, size)
        name = block[:100].split(b"\0", 1)[0]
        prefix = block[345:500].split(b"\0", 1)[0]
        if block[257:263] == b"ustar\0" and prefix:  # POSIX splits long names in two; GNU's magic uses those bytes otherwise
            name = prefix + b"/" + name
        if kind == b"\0" and name.endswith(b"/"):  # old tars mark a folder so
            kind = b"5"
        link = block[157:257].split(b"\0", 1)[0]
        extra = {key: value for meta in (_Meta.LONG_NAME, _Meta.LONG_LINK, _Meta.PAX) for key, value in self._pending.get(meta, {}).items()}
        self._pending.clear()
        name, link = extra.get("path", name), extra.get("linkpath", link)
        if "size" in extra:
            if not extra["size"].isdigit():
                raise ArchiveError(f"member {shown(name.decode('utf-8', 'replace'))} has a pax size that is not a number of bytes")
            size = int(extra["size"])
        self._last = name.decode("utf-8", "backslashreplace")
        self._left, self._pad = size, -size % BLOCK
        return _Entry(name=name, type=kind, mode=mode, size=size, link=link)

    def _start_meta(self, meta: _Meta, size: int) -> None:
        if meta in self._pending:
            raise ArchiveError(f"the archive has two {meta.name.lower().replace('_', ' ')} headers for one member {self._where()}")
        cap = MAX_PATH + 1 if meta in (_Meta.LONG_NAME, _Meta.LONG_LINK) else MAX_PAX
        if size > cap:
            raise ArchiveError(f"the archive has a {meta.name.lower().replace('_', ' ')} header of {size} bytes {self._where()}, "
                               f"over the {_amount(cap)} one may have")
        self._meta, self._left, self._pad = meta, size, -size % BLOCK
        self._meta_data.clear()
        if not size:
            self._meta_done()

    def _meta_done(self) -> None:
        meta, data = self._meta, bytes(self._meta_data)
        assert meta is not None
        self._meta = None
        if meta in (_Meta.LONG_NAME, _Meta.LONG_LINK):
            self._pending[meta] = {"path" if meta is _Meta.LONG_NAME else "linkpath": data.split(b"\0", 1)[0]}
            return
        try:
            records = _pax_records(data)
        except ValueError as error:
            raise ArchiveError(f"the archive has a broken pax header {self._where()}: {error}") from None
        sparse = next((key for key in records if key.startswith("GNU.sparse.")), None)
        if sparse is not None:
            raise ArchiveError(f"the archive has a sparse file {self._where()} (pax record {shown(sparse)}): {_ALLOWED}")
        if meta is _Meta.GLOBAL:  # such as git archive's commit id; one that renames or resizes every member is refused
            changing = next((key for key in ("path", "linkpath", "size") if key in records), None)
            if changing is not None:
                raise ArchiveError(f"the archive has a global pax header {self._where()} setting {changing} for every later member")
            return
        self._pending[meta] = {key: value for key, value in records.items() if value}  # an empty value undoes a key


class _TarWriter:
    """A tar.gz written in one pass and hashed, as tar, on the way: nothing but the compressed bytes is held."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._out = io.BytesIO()
        self._gzip = GzipFile(fileobj=self._out, mode="wb", compresslevel=1, mtime=0, filename="")
        self._written = 0
        self._tar = tarfile.open(fileobj=self, mode="w", format=tarfile.PAX_FORMAT, encoding="utf-8")

    def write(self, data: bytes) -> int:
        """What the tar writes (the file-like object tarfile writes to)."""
        self._hash.update(data)
        self._written += len(data)
        return self._gzip.write(data)

    def tell(self) -> int:
        return self._written

    def __enter__(self) -> _TarWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self._gzip.close()  # an abandoned one too, before its BytesIO goes (idempotent)

    def add(self, info: tarfile.TarInfo, data: IO[bytes] | None = None) -> None:
        """Write a member, its data read from ``data`` (info.size bytes from where it stands)."""
        self._tar.addfile(info, data)

    def close(self) -> tuple[str, bytes]:
        """The tar's SHA-256 (hex) and the tar.gz."""
        self._tar.close()
        self._gzip.close()
        return self._hash.hexdigest(), self._out.getvalue()


def _canonical(member: Member) -> tarfile.TarInfo:
    """``member``'s header in the canonical tar: owner root, no times, one mode per kind."""
    info = tarfile.TarInfo(member.path)  # mtime, uid and gid 0, uname and gname "" by default
    if member.kind is Kind.DIR:
        info.type, info.mode = tarfile.DIRTYPE, 0o755
    elif member.kind is Kind.SYMLINK:
        info.type, info.mode, info.linkname = tarfile.SYMTYPE, 0o777, member.target or ""
    else:
        info.mode, info.size = 0o755 if member.executable else 0o644, member.size
    return info


class ArchiveChecker:
    """Checks an upload chunk by chunk as it arrives (a tar.gz, or a plain tar with gzip=False)."""

    def __init__(self, limits: ArchiveLimits = ArchiveLimits(), *, gzip: bool = True, manifest: bool = True) -> None:
        self._limits = limits
        self._want_manifest = manifest
        self._unzip = zlib.decompressobj(wbits=31) if gzip else None
        self._compressed = 0
        self._tar_bytes = 0
        self._tar = _TarStream()
        self._spool: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # closed by close()
        self._members: dict[str, Member] = {}  # given and implied folders, by path
        self._given: set[str] = set()  # the paths the archive names itself
        self._offsets: dict[str, int] = {}  # where each file's data is in the spool
        self._unpacked = 0
        self._current: Member | None = None  # whose data is arriving
        self._manifest_data: bytearray | None = None  # the manifest's bytes, while they arrive
        self._manifest: Manifest | None = None
        self._refusal: str | None = None
        self._done = ""  # why no more can be fed: "finished" or "closed"

    def feed(self, chunk: bytes) -> None:
        """ArchiveError as soon as the bytes so far are refused (size, bad member, bomb...); the
        checker is closed then, and says the same again to any later call."""
        self._usable()
        try:
            self._compressed += len(chunk)
            if self._compressed > self._limits.max_bytes:
                raise ArchiveError(f"the upload is over {_amount(self._limits.max_bytes)} (the most a bot may have, compressed)")
            if self._unzip is None:
                self._tar_data(memoryview(chunk))
            else:
                self._gunzip(chunk)
        except ArchiveError as error:
            self._refuse(error)
            raise

    def finish(self) -> CheckedArchive:
        """The accepted archive (the checker is closed then), else ArchiveError (truncated, a link
        through a link, the manifest missing or invalid: the message names the key)."""
        self._usable()
        try:
            checked = self._finish()
        except ArchiveError as error:
            self._refuse(error)
            raise
        self.close()
        self._done = "finished"
        return checked

    def close(self) -> None:
        """Release everything (idempotent); after a refusal or an abandoned upload."""
        self._spool.close()
        self._unzip = None
        self._members.clear()
        self._given.clear()
        self._offsets.clear()
        self._manifest_data = None
        self._done = self._done or "closed"

    def _usable(self) -> None:
        if self._refusal is not None:
            raise ArchiveError(self._refusal)
        if self._done:
            raise ArchiveError(f"the upload is {self._done}: nothing more can be fed to it")

    def _refuse(self, error: ArchiveError) -> None:
        self._refusal = str(error)
        self.close()

    def _gunzip(self, data: bytes) -> None:
        """Decompress ``data`` a piece at a time, counting what comes out (a bomb is refused after its
        first MiB or so, whatever the chunk), and hand it to the tar parser."""
        while data:
            assert self._unzip is not None
            if self._unzip.eof:  # gzip members may follow one another
                self._unzip = zlib.decompressobj(wbits=31)
            try:
                out = self._unzip.decompress(data, _PIECE)
            except zlib.error as error:
                raise ArchiveError(f"the upload is not a tar.gz: its gzip stream is broken ({error}) "
                                   f"within its first {self._compressed} bytes") from None
            data = self._unzip.unused_data if self._unzip.eof else self._unzip.unconsumed_tail
            consumed = self._compressed - len(data)
            if self._tar_bytes + len(out) > BOMB_FLOOR and self._tar_bytes + len(out) > self._limits.max_ratio * consumed:
                raise ArchiveError(f"the upload is a compression bomb: {self._tar_bytes + len(out)} bytes came out of its first "
                                   f"{consumed} bytes, over {self._limits.max_ratio} times as many (the most a bot may have)")
            self._tar_data(memoryview(out))

    def _tar_data(self, data: memoryview) -> None:
        self._tar_bytes += len(data)
        if self._tar_bytes > self._limits.max_tar:
            raise ArchiveError(f"the archive is over {_amount(self._limits.max_tar)} as a tar (its files' {_amount(self._limits.max_unpacked)}, "
                               f"the most a bot may have, and {_amount(HEADER_ALLOWANCE)} a member for headers)")
        for event in self._tar.feed(data):
            if isinstance(event, _Entry):
                self._current = self._entry(event)
            else:
                self._data(event)

    def _entry(self, entry: _Entry) -> Member | None:
        """The member ``entry`` adds (None for the folder itself, "./"), or ArchiveError saying why not."""
        path = _path(entry.name)
        what = shown(path or ".")
        if entry.type in (b"0", b"\0"):
            kind = Kind.FILE
        elif entry.type in (b"5", b"2"):
            kind = Kind.DIR if entry.type == b"5" else Kind.SYMLINK
            if entry.size:
                raise ArchiveError(f"member {what} is {_KIND_WORDS[kind]} with {entry.size} bytes of data")
        elif entry.type in _REFUSED_TYPES:
            raise ArchiveError(f"member {what} is {_REFUSED_TYPES[entry.type]}: {_ALLOWED}")
        else:
            raise ArchiveError(f"member {what} is of tar type {entry.type!r}, which the arena does not take: {_ALLOWED}")
        bits = [word for bit, word in _BITS.items() if entry.mode & bit]
        if bits:
            raise ArchiveError(f"member {what} has the {' and '.join(bits)} bit{'s' if len(bits) > 1 else ''} set, which a bot's files may not have")
        if not path:
            if kind is not Kind.DIR:
                raise ArchiveError(f"member {what} is {_KIND_WORDS[kind]} where the bot's folder itself is")
            return None
        target = _target(path, entry.link) if kind is Kind.SYMLINK else None
        member = Member(path, kind, executable=kind is Kind.FILE and bool(entry.mode & stat.S_IXUSR),
                        size=entry.size if kind is Kind.FILE else 0, target=target)
        if self._want_manifest and path == MANIFEST:
            if kind is not Kind.FILE:
                raise ArchiveError(f"{MANIFEST} must be a regular file at the top of the bot's folder, not {_KIND_WORDS[kind]}")
            if member.size > MAX_MANIFEST_BYTES:
                raise ArchiveError(f"{MANIFEST} is {member.size} bytes, over the {_amount(MAX_MANIFEST_BYTES)} a manifest may have")
            self._manifest_data = bytearray()
        self._add(member)
        if target is not None:
            self._walk(member)
        if kind is Kind.FILE:
            self._unpacked += member.size
            if self._unpacked > self._limits.max_unpacked:
                raise ArchiveError(f"the archive's files come to more than {_amount(self._limits.max_unpacked)} "
                                   f"(the most a bot may have) with {what} ({member.size} bytes)")
            self._offsets[path] = self._spool.tell()
        return member

    def _add(self, member: Member) -> None:
        """Keep ``member`` and the folders it is in, unless it clashes with what is kept."""
        parts = member.path.split("/")
        for depth in range(1, len(parts)):
            above = "/".join(parts[:depth])
            found = self._members.get(above)
            if found is None:
                self._keep(Member(above, Kind.DIR))
            elif found.kind is not Kind.DIR:
                raise ArchiveError(f"member {shown(member.path)} is below {shown(above)}, which is {_KIND_WORDS[found.kind]}")
        if member.path in self._given:
            raise ArchiveError(f"member {shown(member.path)} is given twice")
        self._given.add(member.path)
        found = self._members.get(member.path)
        if found is None:
            self._keep(member)
        elif member.kind is not Kind.DIR:
            raise ArchiveError(f"member {shown(member.path)} is {_KIND_WORDS[member.kind]}, but other members are below it")

    def _keep(self, member: Member) -> None:
        self._members[member.path] = member
        if len(self._members) > self._limits.max_files:
            raise ArchiveError(f"the archive has more than {self._limits.max_files} files (the most a bot may have; "
                               f"folders and symlinks count too) with {shown(member.path)}")

    def _walk(self, link: Member) -> None:
        """ArchiveError unless ``link``'s target, walked a name at a time from the link's folder, stays
        in the bot's folder and passes through no symlink (of those kept so far)."""
        at = link.path.split("/")[:-1]
        assert link.target is not None
        names = link.target.split("/")
        for index, name in enumerate(names):
            if name in ("", "."):
                continue
            if name == "..":
                if not at:
                    raise ArchiveError(f"symlink {shown(link.path)} -> {shown(link.target)} leads outside the bot's folder")
                at.pop()
                continue
            at.append(name)
            through = self._members.get("/".join(at))
            if index < len(names) - 1 and through is not None and through.kind is Kind.SYMLINK:
                raise ArchiveError(f"symlink {shown(link.path)} -> {shown(link.target)} goes through another symlink, "
                                   f"{shown(through.path)}: a link must lead to its file or folder directly")

    def _data(self, data: _Data) -> None:
        if self._current is None or self._current.kind is not Kind.FILE:
            return
        self._spool.write(data.chunk)
        if self._manifest_data is None:
            return
        self._manifest_data += data.chunk
        if data.last:  # refused as soon as it is all here, not after the rest of the upload
            try:
                self._manifest = parse_manifest(bytes(self._manifest_data))
            except ManifestError as error:
                raise ArchiveError(str(error)) from None
            self._manifest_data = None

    def _finish(self) -> CheckedArchive:
        if not self._compressed:
            raise ArchiveError("the upload is empty")
        if self._unzip is not None and not self._unzip.eof:
            raise ArchiveError("the upload is truncated: its gzip stream ends early")
        self._tar.finish()
        for member in self._members.values():
            if member.kind is Kind.SYMLINK:
                self._walk(member)  # again, now that every symlink it could pass through is known
        if self._want_manifest and self._manifest is None:
            raise ArchiveError(f"the archive has no {MANIFEST} at the top of the bot's folder: it says the bot's name and how to run it")
        with _TarWriter() as writer:
            for path in sorted(self._members):
                member = self._members[path]
                if member.kind is Kind.FILE:
                    self._spool.seek(self._offsets[path])
                writer.add(_canonical(member), self._spool if member.kind is Kind.FILE else None)
            digest, canonical = writer.close()
        return CheckedArchive(digest=digest, canonical=canonical, files=len(self._members), unpacked=self._unpacked,
                              manifest=self._manifest)


def _decoded(raw: bytes, what: str) -> str:
    """``raw``, a path or link target, as text: UTF-8 with no NUL, at most MAX_PATH bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ArchiveError(f"{what} {shown(raw.decode('utf-8', 'replace'))} is not UTF-8") from None
    if "\0" in text:
        raise ArchiveError(f"{what} {shown(text)} has a NUL character in it")
    if len(raw) > MAX_PATH:
        raise ArchiveError(f"{what} {shown(text)} is {len(raw)} bytes long, over the {MAX_PATH} a path may have")
    return text


def _path(raw: bytes) -> str:
    """A member's path, normalised ("./a//b/" is "a/b"; "./" is "", the folder itself), or ArchiveError
    when it is empty, absolute, goes up or is no path Linux takes."""
    text = _decoded(raw, "the path of member")
    if not text:
        raise ArchiveError("a member has an empty path")
    if text.startswith("/"):
        raise ArchiveError(f"member {shown(text)} has an absolute path: paths must be relative to the bot's folder")
    names = [name for name in text.split("/") if name not in ("", ".")]
    if ".." in names:
        raise ArchiveError(f"member {shown(text)} has '..' in its path: paths must stay in the bot's folder")
    long = next((name for name in names if len(name.encode()) > MAX_COMPONENT), None)
    if long is not None:
        raise ArchiveError(f"member {shown(text)} has a name of {len(long.encode())} bytes, over the {MAX_COMPONENT} a name may have")
    return "/".join(names)


def _target(path: str, raw: bytes) -> str:
    """A symlink's target, if it is relative (where it leads is walked by the checker)."""
    target = _decoded(raw, f"the target of symlink {shown(path)},")
    if not target:
        raise ArchiveError(f"symlink {shown(path)} has an empty target")
    if target.startswith("/"):
        raise ArchiveError(f"symlink {shown(path)} -> {shown(target)} is absolute: links must stay in the bot's folder")
    return target


def check_archive(data: bytes, limits: ArchiveLimits = ArchiveLimits(), *, gzip: bool = True,
                  manifest: bool = True) -> CheckedArchive:
    """An upload received whole, checked as ArchiveChecker checks one in chunks."""
    checker = ArchiveChecker(limits, gzip=gzip, manifest=manifest)
    try:
        checker.feed(data)
        return checker.finish()
    finally:
        checker.close()


_SKIPPED = frozenset({".git", "__pycache__"})  # a repository and bytecode: never part of what a bot is


def _folder_entries(folder: Path, below: str = "") -> Iterator[tuple[str, os.stat_result]]:
    """Every path in ``folder`` (relative, sorted, folders before what they hold) but the skipped, with its lstat."""
    with os.scandir(folder / below) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        if entry.name in _SKIPPED:
            continue
        path = f"{below}/{entry.name}" if below else entry.name
        status = entry.stat(follow_symlinks=False)
        yield path, status
        if stat.S_ISDIR(status.st_mode):
            yield from _folder_entries(folder, path)


def pack(folder: Path) -> bytes:
    """Deterministic tar.gz of a bot folder (skips .git and __pycache__): what `mizerka submit`
    uploads. Packed as it is, modes and symlinks included: the server's checker is the one judge of
    what a bot may hold. A device, FIFO or socket, which a tar would carry as one, is an ArchiveError."""
    if not folder.is_dir():
        raise ArchiveError(f"{folder} is not a folder")
    with _TarWriter() as writer:
        for path, status in _folder_entries(folder):
            info = tarfile.TarInfo(path)  # mtime and owners 0: the same folder packs to the same bytes
            info.mode = stat.S_IMODE(status.st_mode)
            if stat.S_ISDIR(status.st_mode):
                info.type = tarfile.DIRTYPE
                writer.add(info)
            elif stat.S_ISLNK(status.st_mode):
                info.type, info.linkname = tarfile.SYMTYPE, os.readlink(folder / path)
                writer.add(info)
            elif stat.S_ISREG(status.st_mode):
                info.size = status.st_size
                with open(folder / path, "rb") as file:
                    writer.add(info, file)
            else:
                raise ArchiveError(f"{shown(path)} in {folder} is neither a file, a folder nor a symlink: {_ALLOWED}")
        return writer.close()[1]


def unpack(canonical: bytes, dest: Path) -> None:
    """Extract a CheckedArchive.canonical into ``dest`` (created; must not exist or be empty). It was
    checked; tarfile's "data" filter refuses links out and special files again all the same."""
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise FileExistsError(f"{dest} must not exist or be an empty folder to unpack a bot into")
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(canonical), mode="r:gz") as tar:
            tar.extractall(dest, filter="data")
    except (tarfile.TarError, zlib.error, EOFError) as error:
        raise ArchiveError(f"the archive cannot be unpacked into {dest}: {error}") from error
