"""The container files (docker/), checked without a Docker daemon: hadolint finds nothing in the
Dockerfile, the compose file follows the Compose Specification (check-jsonschema's vendored schema,
no download), every COPY source is in the build context, and the image's commands (entrypoint,
default command, health check, the compose services' commands) work here against a real
`mizerka serve`, whose standard gRPC health service says SERVING, then NOT_SERVING while it stops."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc
from typer.testing import CliRunner

from tournaments.cli import app

from harness import BIN, referee

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "docker" / "Dockerfile"
COMPOSE = ROOT / "docker" / "compose.yaml"
ENV_EXAMPLE = ROOT / "docker" / ".env.example"
IMAGE = "mizerka-arena:dev"  # the compose file's name for the image docker/Dockerfile builds
# Compose services whose `mizerka` command is still to come; they must stay out of a plain `up`.
TO_COME = {"worker"}


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN))
    assert found, f"{name} is not installed in this environment (pip install -c constraints.txt -e '.[test]')"
    return found


def _instructions(path: Path) -> list[tuple[str, str]]:
    """A Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("#") or (not line.strip() and not pending):
            continue
        pending += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            keyword, _, rest = pending.strip().partition(" ")
            out.append((keyword.upper(), " ".join(rest.split()) if not rest.lstrip().startswith("[") else rest.strip()))
            pending = ""
    return out


def _one(instructions: list[tuple[str, str]], keyword: str) -> str:
    found = [args for kw, args in instructions if kw == keyword]
    assert len(found) == 1, f"expected one {keyword}, found {found}"
    return found[0]


def _option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def _glob(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go's filepath.Match with ``**``) as a regular expression."""
    regex = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            regex, i = regex + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            regex, i = regex + ".*", i + 2
        elif pattern[i] == "*":
            regex, i = regex + "[^/]*", i + 1
        elif pattern[i] == "?":
            regex, i = regex + "[^/]", i + 1
        else:
            regex, i = regex + re.escape(pattern[i]), i + 1
    return re.compile(regex)


def _ignored(path: str, patterns: list[str]) -> bool:
    """Whether the build context leaves ``path`` out: a pattern matching it or a folder above it; the last match wins."""
    parts = path.strip("/").split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    excluded = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if any(_glob(pattern.removeprefix("!").strip("/")).fullmatch(p) for p in prefixes):
            excluded = not negated
    return excluded


def _dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def _cli(*args: str) -> str:
    """Run the `mizerka` command line in-process; its output (it must succeed)."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, f"mizerka {' '.join(args)}: {result.output}"
    return result.output


# ------------------------------------------------------------------------------------ the files
def test_hadolint_finds_nothing_in_the_dockerfile(tmp_path: Path) -> None:
    # Run from an empty folder with an empty home: no hadolint config can silence a rule.
    done = subprocess.run([_tool("hadolint"), "--no-color", "--format", "json", str(DOCKERFILE)], cwd=tmp_path,
                          capture_output=True, text=True, env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout) == [], done.stdout + done.stderr
    lines = DOCKERFILE.read_text().splitlines()
    for number, line in enumerate(lines[1:], 2):  # an ignored rule says why, in a comment just above
        before = lines[number - 2]
        assert "hadolint ignore" not in line or (before.startswith("#") and "hadolint" not in before), \
            f"line {number}: say why the rule is ignored"


def test_the_compose_file_follows_the_compose_specification() -> None:
    done = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(COMPOSE)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dockerfile_copies_only_what_the_build_context_has() -> None:
    patterns = _dockerignore()
    copied = []
    for keyword, args in _instructions(DOCKERFILE):
        if keyword not in ("COPY", "ADD"):
            continue
        words = json.loads(args) if args.startswith("[") else args.split()
        words = [w for w in words if not w.startswith("--")]
        if any(w.startswith("--from") for w in args.split()):
            continue  # from another stage
        for source in words[:-1]:
            copied.append(source)
            assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
            assert not _ignored(source, patterns), f"COPY {source}: .dockerignore leaves it out of the build context"
    assert {"pyproject.toml", "constraints.txt", "proto/python/", "clients/python/", "server/"} <= set(copied)
    # ... and the context leaves out environments, data, history, caches and secrets.
    for path in (".venv/bin/python", ".git/HEAD", "data/demo/league.sqlite", "clients/node/node_modules/x",
                 "docker/.env", "server/__pycache__/cli.cpython-311.pyc", ".pytest_cache/v"):
        assert _ignored(path, patterns), f"{path} would be in the build context"
    assert ".env" in (ROOT / ".gitignore").read_text().split(), "docker/.env (the secrets) must not be committed"


def test_the_image_is_multi_stage_slim_and_unprivileged() -> None:
    instructions = _instructions(DOCKERFILE)
    stages = [args.split() for kw, args in instructions if kw == "FROM"]
    assert len(stages) >= 2 and stages[0][-2:] == ["AS", "builder"]
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", stages[-1][0]), stages[-1]
    users = [args for kw, args in instructions if kw == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0"), "the runtime stage must run as a non-root user"
    assert not any(kw == "ENV" and re.search(r"TOKEN|PASSWORD|SECRET", args) for kw, args in instructions), \
        "secrets come at run time, never baked into the image"


# ------------------------------------------------------------------------------------ the commands
def test_the_images_commands_work_here(tmp_path: Path) -> None:
    """Entrypoint and default command parse; the health check says SERVING of a real referee, then
    NOT_SERVING while it shuts down (Watch), then fails once it has gone."""
    instructions = _instructions(DOCKERFILE)
    entrypoint = json.loads(_one(instructions, "ENTRYPOINT"))
    command = json.loads(_one(instructions, "CMD"))
    keyword, _, health_json = _one(instructions, "HEALTHCHECK").partition(" CMD ")
    healthcheck = json.loads(health_json)
    assert entrypoint == ["mizerka"] and command[0] == "serve"
    port = _one(instructions, "EXPOSE").split("/")[0]
    assert _option(command, "--port") == port and _option(healthcheck, "--server") == f"127.0.0.1:{port}"

    done = subprocess.run([str(BIN / entrypoint[0]), "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and all(c in done.stdout for c in ("serve", "league", "health")), done.stdout + done.stderr
    _cli(*command, "--help")  # the default command's options exist

    assert healthcheck[0] == "python", "the image's python runs the check"
    with referee(tmp_path) as ref:
        check = [sys.executable, *healthcheck[1:]]
        check[check.index("--server") + 1] = ref.address
        done = subprocess.run(check, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0 and done.stdout.strip() == "SERVING", done.stdout + done.stderr
        for service in ("mizerka.v1.Referee", "mizerka.v1.Arena"):
            assert _cli("health", "--server", ref.address, "--service", service).strip() == "SERVING"

        with grpc.insecure_channel(ref.address) as channel:
            watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=60)
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
            ref.process.send_signal(signal.SIGTERM)
            seen = []
            try:
                for response in watch:
                    seen.append(response.status)
                    if response.status == health_pb2.HealthCheckResponse.NOT_SERVING:
                        watch.cancel()  # else the referee waits out its grace period for this stream
            except grpc.RpcError:
                pass  # cancelled, or ended by the server as it stops
        assert seen == [health_pb2.HealthCheckResponse.NOT_SERVING], seen
        assert ref.process.wait(timeout=30) == 0
        gone = subprocess.run(check, capture_output=True, text=True, timeout=30)
        assert gone.returncode == 1 and "UNAVAILABLE" in gone.stderr


def test_the_compose_services_commands(tmp_path: Path) -> None:
    compose = _compose()
    services = compose["services"]
    assert {"postgres", "referee", "worker", "demo"} <= set(services)
    assert services["postgres"]["image"] == "postgres:15" and "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["worker"]["deploy"]["replicas"] == 2
    commands = _cli("--help")
    for name, service in services.items():
        if service.get("image") != IMAGE:
            continue
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE
        command = service["command"]
        if name in TO_COME:
            assert service.get("profiles"), f"{name}: its command is still to come, keep it out of a plain `up`"
            continue
        assert f" {command[0]} " in commands
        _cli(*command, "--help")
        if name != "referee":  # only the referee's container runs a referee to check
            assert service["healthcheck"] == {"disable": True}, name
    referee_ports = services["referee"]["ports"]
    assert referee_ports == ["127.0.0.1:50051:50051"], "without TLS, publish on the docker host's loopback only"

    # Secrets: every variable the file uses is in the example .env, with no value there; no URL holds a password.
    used = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    example = dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text().splitlines() if line and not line.startswith("#"))
    assert used and used <= set(example) and not any(example.values()), example
    for url in re.findall(r"postgresql[+\w]*://[^\"'\s]+", COMPOSE.read_text()):
        assert not re.match(r"[^:]+://[^/@]*:[^/@]*@", url), f"{url}: the password goes in PGPASSWORD, not the URL"


@pytest.mark.parametrize("broken", ["deploy:\n      replicaz: 2", "restarts: always"])
def test_the_schema_check_catches_mistakes(tmp_path: Path, broken: str) -> None:
    """The check is real: a misspelt key fails it."""
    text = COMPOSE.read_text()
    bad = tmp_path / "compose.yaml"
    bad.write_text(text.replace("    deploy:\n      replicas: 2", f"    {broken}", 1))
    assert bad.read_text() != text
    done = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(bad)],
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr
