"""Generate the ``mizerka_proto`` package (Python stubs) from ``proto/mizerka/v1/*.proto``.

protoc names a generated module after its .proto path (``mizerka.v1.game_pb2``); this package is
flat and imports its siblings relatively, so it can be installed by itself next to any other
``mizerka`` package. Run by ``make proto``; tests/test_protocol.py checks the committed files are
what this makes.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc_tools

HERE = Path(__file__).resolve().parent
PROTO_ROOT = HERE.parent  # proto/
PACKAGE = HERE / "mizerka_proto"
SOURCES = "mizerka/v1"
_ABSOLUTE = re.compile(r"^from mizerka\.v1 import (\w+)", re.MULTILINE)


def proto_files() -> list[Path]:
    return sorted((PROTO_ROOT / SOURCES).glob("*.proto"))


def protoc(*args: str) -> None:
    """Run grpc_tools' protoc on every .proto with the well-known types on the include path."""
    include = Path(grpc_tools.__file__).parent / "_proto"
    cmd = [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}", f"-I{include}", *args,
           *(str(p) for p in proto_files())]
    subprocess.run(cmd, check=True)


def generate(out: Path) -> list[Path]:
    """Write the generated modules into ``out`` (flat, relative imports); returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        protoc(f"--python_out={tmp}", f"--pyi_out={tmp}", f"--grpc_python_out={tmp}")
        for path in sorted((Path(tmp) / SOURCES).iterdir()):
            text = _ABSOLUTE.sub(r"from . import \1", path.read_text())
            target = out / path.name
            target.write_text(text)
            written.append(target)
    return written


if __name__ == "__main__":
    for path in generate(PACKAGE):
        print(path.relative_to(PROTO_ROOT.parent))
