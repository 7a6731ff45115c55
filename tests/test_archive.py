"""What a bot author uploads, tried the way an attacker would (issue 33, items 2 and 7): every
hostile archive is crafted by hand with tarfile and zlib, fed to the checker as an upload arrives, in
chunks, and must be refused with a message naming the member and the limit, early, leaving nothing
behind. And the manifest, and the canonical form: the same files are the same version."""

from __future__ import annotations

import gc
import io
import os
import random
import tarfile
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.submissions import archive
from server.submissions.archive import (
    ArchiveChecker,
    ArchiveError,
    ArchiveLimits,
    check_archive,
    pack,
    unpack,
)
from server.submissions.manifest import MANIFEST, Manifest, ManifestError, parse_manifest

DEFAULTS = ArchiveLimits()
GOOD = b'name = "gobot"\nrun = "python3 bot.py --fast"\n'


@dataclass(frozen=True)
class Entry:
    """A member as a hostile tool would write it."""

    name: str
    data: bytes = b""
    type: bytes = tarfile.REGTYPE
    mode: int = 0o644
    link: str = ""
    mtime: int = 0
    uid: int = 0
    pax: tuple[tuple[str, str], ...] = ()


def tar_of(*entries: Entry, manifest: bool = True, format: int = tarfile.PAX_FORMAT, end: bool = True) -> bytes:
    """A plain tar of ``entries``, after a good manifest unless ``manifest`` is False; with ``end``
    False, without its end-of-archive marker."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=format, encoding="utf-8") as tar:
        for entry in ((Entry(MANIFEST, GOOD),) if manifest else ()) + entries:
            info = tarfile.TarInfo(entry.name)
            info.type, info.mode, info.linkname, info.mtime, info.uid = entry.type, entry.mode, entry.link, entry.mtime, entry.uid
            info.pax_headers = dict(entry.pax)
            info.size = len(entry.data)
            tar.addfile(info, io.BytesIO(entry.data) if entry.data else None)
        members_end = tar.offset
    return out.getvalue() if end else out.getvalue()[:members_end]


def gz(data: bytes) -> bytes:
    return zlib.compress(data, wbits=31)


def noise(size: int, seed: int = 1) -> bytes:
    """Incompressible bytes, the same every run."""
    return random.Random(seed).randbytes(size)


def refused(data: bytes, limits: ArchiveLimits = DEFAULTS, **options: bool) -> str:
    with pytest.raises(ArchiveError) as caught:
        check_archive(data, limits, **options)
    return str(caught.value)


def fed_until_refused(checker: ArchiveChecker, data: bytes, chunk: int = 4096) -> int:
    """How many bytes of ``data`` were fed, a chunk at a time, when the checker refused them."""
    for at in range(0, len(data), chunk):
        try:
            checker.feed(data[at:at + chunk])
        except ArchiveError:
            return at + chunk
    raise AssertionError("the checker took every byte")


BOT = (Entry("bot.py", b"print('pass')\n", mode=0o755), Entry("lib/util.py", b"X = 1\n"), Entry("lib/data", noise(3000)),
       Entry("run", type=tarfile.SYMTYPE, link="bot.py"), Entry("lib/up", type=tarfile.SYMTYPE, link="../bot.py"))


def test_a_good_bot_is_taken_with_its_manifest_and_its_folders_counted() -> None:
    checked = check_archive(gz(tar_of(*BOT)))
    assert checked.manifest == Manifest(name="gobot", run=("python3", "bot.py", "--fast"))
    assert checked.files == 7  # the five, the manifest, and lib/, which no entry names
    assert checked.unpacked == len(GOOD) + 14 + 6 + 3000
    with tarfile.open(fileobj=io.BytesIO(checked.canonical), mode="r:gz") as tar:
        members = {info.name: info for info in tar.getmembers()}
    assert list(members) == sorted(members)
    assert {name: (info.mode, info.mtime, info.uid, info.uname) for name, info in members.items()}["bot.py"] == (0o755, 0, 0, "")
    assert members["lib"].isdir() and members["lib/up"].linkname == "../bot.py" and members["lib/data"].mode == 0o644
    assert check_archive(checked.canonical).digest == checked.digest  # the canonical form is its own canonical form


def test_the_same_files_are_the_same_version_however_they_were_packed() -> None:
    first = check_archive(gz(tar_of(*BOT)))
    other = (Entry("./lib/", type=tarfile.DIRTYPE, mode=0o700, mtime=99), *reversed(BOT))
    shuffled = tar_of(*(Entry(e.name, e.data, e.type, e.mode | 0o020, e.link, mtime=1_700_000_000, uid=1000) for e in other),
                      format=tarfile.GNU_FORMAT)
    again = check_archive(gz(shuffled))
    assert again.digest == first.digest and again.canonical == first.canonical
    assert check_archive(shuffled, gzip=False).digest == first.digest


@pytest.mark.parametrize("change", ["a byte", "a mode", "a link", "a name"])
def test_any_change_to_the_files_is_another_version(change: str) -> None:
    changed = {
        "a byte": (Entry("bot.py", b"print('pasS')\n", mode=0o755), *BOT[1:]),
        "a mode": (Entry("bot.py", b"print('pass')\n"), *BOT[1:]),
        "a link": (*BOT[:3], Entry("run", type=tarfile.SYMTYPE, link="lib/util.py"), BOT[4]),
        "a name": (Entry("Bot.py", b"print('pass')\n", mode=0o755), *BOT[1:]),
    }[change]
    assert check_archive(gz(tar_of(*changed))).digest != check_archive(gz(tar_of(*BOT))).digest


LIMITS = ArchiveLimits(max_bytes=64 * 1024, max_files=10, max_unpacked=10_000)

# What each hostile archive holds, and what the refusal must say: the member, and why.
HOSTILE = {
    "absolute path": ((Entry("/etc/cron.d/x", b"x"),), r"member '/etc/cron.d/x' has an absolute path"),
    "dot dot": ((Entry("../../.bashrc", b"x"),), r"member '../../.bashrc' has '\.\.' in its path"),
    "dot dot inside": ((Entry("a/../b", b"x"),), r"member 'a/../b' has '\.\.' in its path"),
    "empty path": ((Entry("", b"x"),), r"a member has an empty path"),
    "nul in path": ((Entry("a", b"x", pax=(("path", "a\0b"),)),), r"member 'a\\x00b' has a NUL character"),
    "long path": ((Entry("d/" * 2100 + "f", b"x"),), r"is 4201 bytes long, over the 4096 a path may have"),
    "long name": ((Entry("n" * 256, b"x"),), r"has a name of 256 bytes, over the 255"),
    "not utf-8": ((Entry("caf\udce9", b"x"),), "the path of member 'caf\ufffd' is not UTF-8"),
    "twice": ((Entry("a", b"x"), Entry("./a", b"y")), r"member 'a' is given twice"),
    "manifest twice": ((Entry(MANIFEST, GOOD),), r"member 'mizerka-bot.toml' is given twice"),
    "symlink absolute": ((Entry("l", type=tarfile.SYMTYPE, link="/etc/shadow"),), r"symlink 'l' -> '/etc/shadow' is absolute"),
    "symlink out": ((Entry("a/l", type=tarfile.SYMTYPE, link="../../x"),), r"symlink 'a/l' -> '../../x' leads outside"),
    "symlink out and back": ((Entry("l", type=tarfile.SYMTYPE, link="../bot/x"),), r"symlink 'l' -> '../bot/x' leads outside"),
    "symlink through symlink": ((Entry("d", type=tarfile.SYMTYPE, link="lib"), Entry("l", type=tarfile.SYMTYPE, link="d/../../x")),
                                r"symlink 'l' -> 'd/../../x' goes through another symlink, 'd'"),
    "symlink through a later symlink": ((Entry("l", type=tarfile.SYMTYPE, link="d/x"), Entry("d", type=tarfile.SYMTYPE, link=".")),
                                        r"symlink 'l' -> 'd/x' goes through another symlink, 'd'"),
    "below a symlink": ((Entry("d", type=tarfile.SYMTYPE, link="lib"), Entry("d/x", b"x")),
                        r"member 'd/x' is below 'd', which is a symlink"),
    "above a file": ((Entry("d/x", b"x"), Entry("d", b"x")), r"member 'd' is a file, but other members are below it"),
    "hard link": ((Entry("a", b"x"), Entry("b", type=tarfile.LNKTYPE, link="a")), r"member 'b' is a hard link"),
    "char device": ((Entry("tty", type=tarfile.CHRTYPE),), r"member 'tty' is a character device: a bot's folder may hold"),
    "block device": ((Entry("sda", type=tarfile.BLKTYPE),), r"member 'sda' is a block device"),
    "fifo": ((Entry("pipe", type=tarfile.FIFOTYPE),), r"member 'pipe' is a FIFO"),
    "unknown type": ((Entry("odd", type=b"Z"),), r"member 'odd' is of tar type b'Z'"),
    "pax size": ((Entry("a", b"x", pax=(("size", "-5"),)),), r"member 'a' has a pax size that is not a number of bytes"),
    "sparse": ((Entry("s", b"x", pax=(("GNU.sparse.size", "1"),)),), r"has a sparse file"),
    "set-uid": ((Entry("su", b"x", mode=0o4755),), r"member 'su' has the set-uid bit set"),
    "set-gid folder": ((Entry("d", type=tarfile.DIRTYPE, mode=0o2755),), r"member 'd' has the set-gid bit set"),
    "sticky": ((Entry("tmp", type=tarfile.DIRTYPE, mode=0o1777),), r"member 'tmp' has the sticky bit set"),
    "too many files": ((*(Entry(f"f{n}", b"x") for n in range(10)),), r"more than 10 files \(the most a bot may have; .*'f9'"),
    "too many folders": ((Entry("a/b/c/d/e/f/g/h/i/j/k", b"x"),), r"more than 10 files .* with 'a/b/c/d/e/f/g/h/i/j'"),
    "too big unpacked": ((Entry("a", noise(6000)), Entry("b", noise(6000, 2))), r"files come to more than 10000 bytes .* with 'b'"),
    "manifest a symlink": ((), r"mizerka-bot.toml must be a regular file .* not a symlink"),
    "manifest a folder": ((), r"mizerka-bot.toml must be a regular file .* not a folder"),
    "manifest missing": ((Entry("bot.py", b"x"),), r"the archive has no mizerka-bot.toml at the top"),
    "manifest without run": ((), r"mizerka-bot.toml: run is missing"),
    "manifest bad name": ((), r"mizerka-bot.toml: name must be 1 to 40 lower-case .* got 'Go Bot'"),
    "manifest unknown key": ((), r"mizerka-bot.toml: unknown key 'buidl' \(did you mean 'build'\?\)"),
    "manifest bad toml": ((), r"mizerka-bot.toml is not valid TOML: .*at line 2"),
}
MANIFESTS = {
    "manifest a symlink": Entry(MANIFEST, type=tarfile.SYMTYPE, link="bot.toml"),
    "manifest a folder": Entry(MANIFEST, type=tarfile.DIRTYPE, mode=0o755),
    "manifest missing": None,
    "manifest without run": Entry(MANIFEST, b'name = "gobot"\n'),
    "manifest bad name": Entry(MANIFEST, b'name = "Go Bot"\nrun = "x"\n'),
    "manifest unknown key": Entry(MANIFEST, b'name = "gobot"\nrun = "x"\nbuidl = "make"\n'),
    "manifest bad toml": Entry(MANIFEST, b'name = "gobot"\nrun = python3 bot.py\n'),
}


@pytest.mark.parametrize("attack", HOSTILE)
def test_every_hostile_archive_is_refused_naming_what_is_wrong(attack: str) -> None:
    entries, message = HOSTILE[attack]
    if attack in MANIFESTS:
        given = MANIFESTS[attack]
        data = tar_of(*entries, *((given,) if given else ()), manifest=False)
    else:
        data = tar_of(*entries, format=tarfile.GNU_FORMAT if attack == "not utf-8" else tarfile.PAX_FORMAT)
    assert check_archive(gz(tar_of(*BOT)), LIMITS).files <= LIMITS.max_files  # the limits let a good bot through
    with pytest.raises(ArchiveError, match=message):
        check_archive(gz(data), LIMITS)


def test_a_refusal_comes_with_the_chunk_that_holds_the_bad_member() -> None:
    """The device is the second member of a 2 MiB upload: refused within the first chunks, not at the end."""
    data = gz(tar_of(Entry("tty", type=tarfile.CHRTYPE), Entry("weights", noise(2 * 2**20))))
    checker = ArchiveChecker()
    assert fed_until_refused(checker, data) <= 4096
    with pytest.raises(ArchiveError, match="'tty' is a character device"):  # and it says so again, to any call
        checker.feed(b"more")
    with pytest.raises(ArchiveError, match="'tty' is a character device"):
        checker.finish()


def test_a_bad_manifest_is_refused_as_soon_as_it_has_arrived() -> None:
    data = gz(tar_of(Entry(MANIFEST, b'name = "gobot"\n'), Entry("weights", noise(2 * 2**20)), manifest=False))
    assert fed_until_refused(ArchiveChecker(), data) <= 4096


def test_an_upload_over_the_size_limit_is_refused_at_the_chunk_that_passes_it() -> None:
    data = gz(tar_of(Entry("weights", noise(200_000))))
    limits = ArchiveLimits(max_bytes=50_000)
    assert 50_000 < fed_until_refused(ArchiveChecker(limits), data, chunk=1000) <= 51_000
    assert refused(data, limits) == "the upload is over 50000 bytes (the most a bot may have, compressed)"


def test_a_compression_bomb_is_refused_after_its_first_mebibyte() -> None:
    """100 MiB of zeros in 100 KiB: refused once a little over 1 MiB came out, long before its end."""
    squeeze = zlib.compressobj(wbits=31)
    info = tarfile.TarInfo("zeros")
    info.size = 100 * 2**20
    parts = [squeeze.compress(tar_of(end=False) + info.tobuf(tarfile.PAX_FORMAT))]
    zeros = bytes(2**20)
    parts += [squeeze.compress(zeros) for _ in range(100)]
    bomb = b"".join(parts) + squeeze.flush()
    assert len(bomb) < 200_000
    checker = ArchiveChecker()
    fed = fed_until_refused(checker, bomb, chunk=1024)
    assert fed < 10_000
    with pytest.raises(ArchiveError, match=r"the upload is a compression bomb: \d+ bytes came out of its first \d+ bytes, over 200 times"):
        checker.finish()
    assert check_archive(gz(tar_of(Entry("zeros", bytes(512 * 1024))))).unpacked > 512 * 1024  # under 1 MiB no ratio counts


def test_data_beyond_the_tar_the_files_could_make_is_refused() -> None:
    """Zeros after the end-of-archive marker carry no file, so no file limit sees them; the tar limit does."""
    limits = ArchiveLimits(max_files=4, max_unpacked=1000, max_ratio=10**9)
    assert limits.max_tar == 1000 + 5 * 2048
    message = refused(gz(tar_of() + bytes(100_000)), limits)
    assert message.startswith(f"the archive is over {limits.max_tar} bytes as a tar (its files' 1000 bytes")
    assert refused(gz(tar_of() + b"\0\0junk")) == "the archive has data after its end-of-archive marker"


TRUNCATED = tar_of(Entry("bot.py", noise(5000)), Entry("after", b"x"))
BOT_DATA = TRUNCATED.index(b"bot.py\0") + 512  # where bot.py's data starts: a short name needs no pax header
CUTS = {
    "gzip": (gz(TRUNCATED)[:-100], True, "the upload is truncated: its gzip stream ends early"),
    "member": (TRUNCATED[:BOT_DATA + 1024], False, "the archive is truncated: it ends inside 'bot.py'"),
    "marker": (tar_of(Entry("bot.py", b"x"), end=False), False, "the archive is truncated: it ends after 'bot.py' with no end-of-archive marker"),
    "header": (TRUNCATED[:BOT_DATA - 100], False, "the archive is truncated: it ends inside a tar header after 'mizerka-bot.toml'"),
}


@pytest.mark.parametrize("cut", CUTS)
def test_a_truncated_upload_is_refused(cut: str) -> None:
    data, gzip, message = CUTS[cut]
    assert refused(data, gzip=gzip) == message


def test_what_is_not_a_tar_gz_is_refused() -> None:
    assert refused(b"").startswith("the upload is empty")
    assert refused(b"PK\x03\x04" + bytes(100)).startswith("the upload is not a tar.gz: its gzip stream is broken")
    assert refused(gz(b"just some text\n" * 100)).startswith("the upload is not a tar archive")
    corrupt = bytearray(tar_of(Entry("bot.py", b"x")))
    corrupt[1024 + 10] ^= 1  # the second header's name: its checksum no longer matches
    assert refused(gz(bytes(corrupt))) == "the archive has a corrupt tar header after 'mizerka-bot.toml': its checksum does not match"


def test_a_manifest_is_not_asked_for_when_the_tree_is_a_build() -> None:
    checked = check_archive(tar_of(Entry("bot", b"\x7fELF", mode=0o755), manifest=False), gzip=False, manifest=False)
    assert checked.manifest is None and checked.files == 1


def open_files() -> int:
    gc.collect()
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("ending", ["close", "finish", "refusal"])
def test_nothing_is_left_behind(ending: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File data spills to a temporary file past a few bytes here; whichever way the upload ends,
    that file is closed and no file is left in the temporary folder."""
    monkeypatch.setattr(archive, "_SPOOL_BYTES", 1024)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = open_files()
    checker = ArchiveChecker()
    data = gz(tar_of(Entry("weights", noise(20_000)), Entry("tty", type=tarfile.CHRTYPE) if ending == "refusal" else Entry("x")))
    checker.feed(data[:len(data) // 2])
    assert open_files() == before + 1  # the spill file
    if ending == "close":
        checker.close()
        checker.close()
    elif ending == "finish":
        checker.feed(data[len(data) // 2:])
        checker.finish()
    else:
        with pytest.raises(ArchiveError, match="'tty'"):
            checker.feed(data[len(data) // 2:])
    assert open_files() == before
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ArchiveError):
        checker.feed(b"x")


def bot_folder(root: Path) -> Path:
    folder = root / "bot"
    (folder / "lib" / "__pycache__").mkdir(parents=True)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "lib" / "__pycache__" / "util.cpython-311.pyc").write_bytes(b"\0" * 16)
    (folder / MANIFEST).write_bytes(GOOD)
    (folder / "bot.py").write_text("print('pass')\n")
    (folder / "bot.py").chmod(0o755)
    (folder / "lib" / "util.py").write_text("X = 1\n")
    (folder / "empty").mkdir()
    (folder / "run").symlink_to("bot.py")
    (folder / "lib" / "up").symlink_to("../bot.py")
    return folder


def test_pack_check_unpack_gives_back_the_bot(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    packed = pack(folder)
    assert pack(folder) == packed
    os.utime(folder / "bot.py", (1, 1))  # another time, the same bytes
    assert pack(folder) == packed
    checked = check_archive(packed)
    assert checked.manifest is not None and checked.manifest.name == "gobot"
    unpack(checked.canonical, tmp_path / "out")
    got = {str(path.relative_to(tmp_path / "out")): path for path in (tmp_path / "out").rglob("*")}
    assert sorted(got) == ["bot.py", "empty", "lib", "lib/up", "lib/util.py", MANIFEST, "run"]
    assert os.readlink(got["lib/up"]) == "../bot.py" and got["lib/up"].read_text() == "print('pass')\n"
    assert os.access(got["bot.py"], os.X_OK) and not os.access(got["lib/util.py"], os.X_OK)
    assert got[MANIFEST].read_bytes() == GOOD
    with pytest.raises(FileExistsError, match="must not exist or be an empty folder"):
        unpack(checked.canonical, tmp_path / "out")


def test_pack_carries_what_the_checker_then_refuses(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    (folder / "bot.py").chmod(0o4755)
    assert "member 'bot.py' has the set-uid bit set" in refused(pack(folder))
    (folder / "bot.py").chmod(0o755)
    (folder / "lib" / "out").symlink_to("../../elsewhere")
    assert "symlink 'lib/out' -> '../../elsewhere' leads outside" in refused(pack(folder))
    os.mkfifo(folder / "pipe")
    with pytest.raises(ArchiveError, match="'pipe' in .* is neither a file, a folder nor a symlink"):
        pack(folder)


@pytest.mark.parametrize(("text", "manifest"), [
    (GOOD, Manifest("gobot", ("python3", "bot.py", "--fast"))),
    ('name = "c-bot_2"\nrun = ["./bot", "--name", "two words"]\nbuild = "make -j4"\n', Manifest("c-bot_2", ("./bot", "--name", "two words"), "make -j4")),
    ('\ufeffname = "x"\nrun = "\'./my bot\'"\n', Manifest("x", ("./my bot",))),
])
def test_a_manifest_says_name_run_and_build(text: str | bytes, manifest: Manifest) -> None:
    assert parse_manifest(text) == manifest
    assert manifest.to_json() == {"name": manifest.name, "run": list(manifest.run), "build": manifest.build}


@pytest.mark.parametrize(("text", "message"), [
    (b"name = \"x\"\nrun = \"x\"\n\xff", r"mizerka-bot.toml is not UTF-8 text \(byte 21 is 0xff\)"),
    ("name = 'x'\nrun = 'x'\n#" + "x" * 70_000, r"mizerka-bot.toml is 70022 bytes, over the 64 KiB"),
    ("name = 'x'\n\nrun = python3\n", r"mizerka-bot.toml is not valid TOML: Invalid value \(at line 3, column 7\)"),
    ("Name = 'x'\nrun = 'x'\n", r"unknown key 'Name' \(did you mean 'name'\?\); the keys are name, run, build"),
    ("name = 'x'\nrun = 'x'\n[bot]\n", r"unknown key 'bot'; the keys are"),
    ("run = 'x'\n", r"mizerka-bot.toml: name is missing"),
    ("name = 7\nrun = 'x'\n", r"mizerka-bot.toml: name must be 1 to 40 .* got 7"),
    ("name = '" + "x" * 41 + "'\nrun = 'x'\n", r"mizerka-bot.toml: name must be"),
    ("name = 'x'\nrun = 3\n", r"mizerka-bot.toml: run must be a string or an array of strings, got an integer"),
    ("name = 'x'\nrun = ['a', 1]\n", r"run must be a string or an array of strings, got an array holding an integer"),
    ("name = 'x'\nrun = ''\n", r"run must name the program"),
    ("name = 'x'\nrun = []\n", r"run must name the program"),
    ("name = 'x'\nrun = 'python3 \"bot.py'\n", r"run cannot be split into words as a shell would: No closing quotation"),
    ("name = 'x'\nrun = \"a\\u0000b\"\n", r"run must not contain NUL"),
    ("name = 'x'\nrun = 'x'\nbuild = ' '\n", r"build must not be empty: leave the key out"),
    ("name = 'x'\nrun = 'x'\nbuild = ['make']\n", r"build must be a string \(a shell command\), got an array"),
])
def test_a_bad_manifest_is_refused_naming_the_key(text: str | bytes, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        parse_manifest(text)

