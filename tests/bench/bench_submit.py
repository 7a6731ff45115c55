"""Benchmark: uploads (`make bench-submit`, BENCHMARKS.md "Submissions").

An author's upload of an incompressible bot folder (--mib MiB) to a real `mizerka serve` (Submit:
checked as it arrives, stored in its SQLite file), against a raw gRPC stream of the same bytes in
the same chunks to a bare grpc.aio server in a process of its own, which only counts them;
alternating, --rounds each, every upload with other contents (a new version).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import grpc
from sysinfo import machine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from mizerka_proto import submissions_pb2, submissions_pb2_grpc  # noqa: E402
from server.transport.uploads import MAX_CHUNK  # noqa: E402

from harness import ADMIN, referee  # noqa: E402 (tests/ is not a package)

RAW_METHOD = "/bench.Raw/Upload"


async def _raw_server(port_file: Path) -> None:
    """A bare stream-unary server that counts what it receives (the floor of any upload)."""
    async def upload(requests: object, context: grpc.aio.ServicerContext) -> bytes:
        total = 0
        async for chunk in requests:  # type: ignore[attr-defined]
            total += len(chunk)
        return total.to_bytes(8, "big")

    handler = grpc.method_handlers_generic_handler("bench.Raw", {"Upload": grpc.stream_unary_rpc_method_handler(upload)})
    server = grpc.aio.server(options=[("grpc.max_receive_message_length", 64 * 1024)])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    port_file.write_text(str(port))
    await server.wait_for_termination()


def _archive(mib: int) -> bytes:
    """A bot folder of ``mib`` MiB of random bytes (no compression helps), as `mizerka submit` sends it."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", compresslevel=1) as tar:
        for name, data in (("mizerka-bot.toml", b'name = "bulk"\nrun = "python3 bot.py"\n'), ("blob.bin", os.urandom(mib * 2**20))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _chunks(data: bytes) -> list[submissions_pb2.SubmitRequest]:
    return [submissions_pb2.SubmitRequest(data=data[i:i + MAX_CHUNK]) for i in range(0, len(data), MAX_CHUNK)]


def throughput(mib: int, rounds: int) -> tuple[list[float], list[float]]:
    """MiB/s of Submit and of the raw stream, per round."""
    with tempfile.TemporaryDirectory(prefix="bench-submit-") as tmp:
        port_file = Path(tmp) / "raw-port"
        raw = subprocess.Popen([sys.executable, __file__, "--raw-server", str(port_file)])
        try:
            while not port_file.exists() or not port_file.read_text():
                time.sleep(0.05)
            raw_channel = grpc.insecure_channel(f"127.0.0.1:{port_file.read_text()}")
            raw_call = raw_channel.stream_unary(RAW_METHOD, request_serializer=submissions_pb2.SubmitRequest.SerializeToString,
                                                response_deserializer=lambda b: b)
            with referee(Path(tmp), "--max-upload-mib", str(mib + 8), "--max-unpacked-mib", str(mib + 8)) as ref:
                stub = submissions_pb2_grpc.SubmissionsStub(grpc.insecure_channel(ref.address))
                token = stub.AddAuthor(submissions_pb2.AddAuthorRequest(name="bench"),
                                       metadata=(("authorization", f"Bearer {ADMIN}"),)).token
                ours, floor = [], []
                for _ in range(rounds):
                    data = _archive(mib)
                    chunks = _chunks(data)
                    start = time.perf_counter()
                    raw_call(iter(chunks), timeout=600)
                    floor.append(len(data) / 2**20 / (time.perf_counter() - start))
                    start = time.perf_counter()
                    done = stub.Submit(iter(chunks), metadata=(("authorization", f"Bearer {token}"),), timeout=600)
                    ours.append(len(data) / 2**20 / (time.perf_counter() - start))
                    assert not done.existing
        finally:
            raw.kill()
            raw.wait()
    return ours, floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=20, help="MiB per upload")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--raw-server", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.raw_server is not None:
        asyncio.run(_raw_server(args.raw_server))
        return
    print(f"machine: {machine()}")
    ours, floor = throughput(args.mib, args.rounds)
    mine, bare = statistics.median(ours), statistics.median(floor)
    print(f"upload of {args.mib} MiB, median of {args.rounds}: Submit {mine:.0f} MiB/s, raw gRPC stream {bare:.0f} MiB/s: "
          f"{mine / bare:.2f}x (goal >= 0.8x)")


if __name__ == "__main__":
    main()
