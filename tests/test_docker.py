"""The container files (docker/), checked without a Docker daemon: hadolint finds nothing in the
Dockerfile, the compose file follows the Compose Specification (check-jsonschema's vendored schema,
no download), every COPY source is in the build context, and the image's commands (entrypoint,
default command, health check) work here against a real `mizerka serve`, whose standard gRPC health
service says SERVING, then NOT_SERVING while it stops. The Compose project runs here too: each
service's command, read from docker/compose.yaml, as a local process with the service's environment,
against a real PostgreSQL server (tests/pg.py): the referee, two workers, and the demo league they play."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
import sqlalchemy as sa
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc
from psycopg import sql
from typer.testing import CliRunner

from server.storage.database import database_url
from tournaments.cli import app
from tournaments.config import load_league
from tournaments.schedule import schedule

from harness import BIN, logged_port, referee, scrape
from pg import pg_server, pg_url  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "docker" / "Dockerfile"
COMPOSE = ROOT / "docker" / "compose.yaml"
ENV_EXAMPLE = ROOT / "docker" / ".env.example"
IMAGE = "mizerka-arena:dev"  # the compose file's name for the image docker/Dockerfile builds
DEMO_LEAGUE = ROOT / "docker" / "demo-league.toml"  # the compose project's demo, submitted to its workers


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


def test_the_compose_services_settings() -> None:
    compose = _compose()
    services = compose["services"]
    assert {"postgres", "referee", "worker", "demo"} <= set(services)
    assert services["postgres"]["image"] == "postgres:15" and "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    worker, demo = services["worker"], services["demo"]
    assert worker["deploy"]["replicas"] == 2 and not worker.get("profiles"), "a plain `up` starts the workers"
    assert demo.get("profiles") and demo["restart"] == "no", "the demo is a one-shot, run on demand"
    assert demo["depends_on"]["worker"]["condition"] == "service_started", "`run demo` starts the workers it needs"
    commands = _cli("--help")
    for name, service in services.items():
        if service.get("image") != IMAGE:
            continue
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE
        command = service["command"]
        assert f" {command[0]} " in commands
        if name != "referee":  # only the referee's container runs a referee the image's check can ask
            assert service["healthcheck"] == {"disable": True}, name
        if any(_is_compose_db(word) for word in command) or name == "demo":
            assert service["environment"]["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:?"), name
    referee_ports = services["referee"]["ports"]
    assert referee_ports == ["127.0.0.1:50051:50051"], "without TLS, publish on the docker host's loopback only"
    assert not any(service.get("ports") for name, service in services.items() if name != "referee"), \
        "metrics and workers stay on the Compose network"

    # Secrets: every variable the file uses is in the example .env, with no value there; no URL holds a password.
    used = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    example = _env_example()
    assert used and used <= set(example) and not any(example.values()), example
    with pytest.raises(ValueError, match="set POSTGRES_PASSWORD"):  # Compose refuses to start without them too
        _service_env(services["worker"], example)
    for url in re.findall(r"postgresql[+\w]*://[^\"'\s]+", COMPOSE.read_text() + DEMO_LEAGUE.read_text()):
        assert not re.match(r"[^:]+://[^/@]*:[^/@]*@", url), f"{url}: the password goes in PGPASSWORD, not the URL"


def test_the_compose_demo_league_is_the_bundled_demo_on_the_projects_database() -> None:
    """docker/demo-league.toml is tournaments/demo.toml but for `db`, the database of the services."""
    compose_league = load_league(DEMO_LEAGUE)
    bundled = load_league(ROOT / "tournaments" / "demo.toml")
    assert dataclasses.replace(compose_league, path=bundled.path, db=None) == bundled
    assert compose_league.db is not None
    urls = {word for service in _compose()["services"].values() for word in service.get("command", []) if _is_compose_db(word)}
    assert urls == {compose_league.db}, "the demo league, the referee and the workers share one database"
    postgres = _compose()["services"]["postgres"]["environment"]
    url = sa.make_url(compose_league.db)
    assert (url.host, url.port, url.username, url.database, url.password) == \
        ("postgres", 5432, postgres["POSTGRES_USER"], postgres["POSTGRES_DB"], None)


# ------------------------------------------------------------------ the Compose project, run here
# There is no Docker daemon where the tests run: each service's command runs as a local process,
# in a folder of its own laid out as the image's /app (the files the Dockerfile's runtime stage
# copies), with the image's environment and the service's (its ${...} filled in from
# docker/.env.example, the empty secrets given values as that file asks). What a container network
# would change is mapped: the database host `postgres:5432/mizerka` becomes this session's
# PostgreSQL server and a database of the test's own (owned by the same user, given the service's
# password, though the test server trusts loopback connections and does not check it), listening
# port options become 0 (any free loopback port; the service logs which).
_VARIABLE = re.compile(r"\$\{(\w+)(?:(:[?-])([^}]*))?\}")


def _runtime_stage() -> list[tuple[str, str]]:
    """The Dockerfile's instructions after its last FROM: the image the services run."""
    instructions = _instructions(DOCKERFILE)
    return instructions[max(i for i, (kw, _) in enumerate(instructions) if kw == "FROM") + 1:]


def _env_example() -> dict[str, str]:
    lines = ENV_EXAMPLE.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def _interpolate(text: str, values: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` (an unset or empty VAR: the error)."""
    def one(m: re.Match[str]) -> str:
        name, op, arg = m.groups()
        value = values.get(name, "")
        if op == ":?" and not value:
            raise ValueError(f"{name}: {arg}")
        return arg if op == ":-" and not value else value
    assert "$" not in _VARIABLE.sub("", text), f"{text}: interpolation this test does not know"
    return _VARIABLE.sub(one, text)


def _service_env(service: dict[str, Any], values: dict[str, str]) -> dict[str, str]:
    environment = service.get("environment", {})
    assert isinstance(environment, dict), "environment as a mapping"
    return {k: _interpolate(str(v), values) for k, v in environment.items()}


def _is_compose_db(word: str) -> bool:
    return bool(re.match(r"postgres(ql)?(\+\w+)?://", word))


# The port options of the services' commands, and the JSON log line that names the port each got.
PORT_EVENTS = {"--port": "referee listening", "--metrics-port": "metrics listening"}


@dataclass
class _Project:
    """The Compose project's services as local processes."""

    root: Path
    pg: sa.URL  # this test's database: server address and database name
    values: dict[str, str]  # docker/.env
    procs: list[subprocess.Popen[str]] = field(default_factory=list)

    def url(self, compose_url: str) -> str:
        """A database URL of the compose file, on this test's server."""
        url = sa.make_url(compose_url)
        assert url.host == "postgres" and url.port == 5432, f"{compose_url}: not the postgres service"
        return url.set(host=self.pg.host, port=self.pg.port, database=self.pg.database).render_as_string(hide_password=False)

    def container(self, name: str) -> Path:
        """A folder laid out as the image's /app: what the runtime stage copies, its database URLs mapped."""
        app = self.root / name / "app"
        app.mkdir(parents=True)
        runtime = _runtime_stage()
        assert ("WORKDIR", "/app") in runtime
        for keyword, args in runtime:
            if keyword == "COPY" and "--from" not in args:
                *sources, dest = [w for w in args.split() if not w.startswith("--")]
                assert not dest.startswith("/"), f"COPY {args}: relative to WORKDIR /app"
                for source in sources:
                    target = app / dest / Path(source).name if dest.endswith("/") else app / dest
                    target.parent.mkdir(parents=True, exist_ok=True)
                    text = (ROOT / source).read_text()
                    for url in set(re.findall(r"postgres(?:ql)?(?:\+\w+)?://[^\"'\s]+", text)):
                        text = text.replace(url, self.url(url))
                    target.write_text(text)
        return app

    def environment(self, service: dict[str, Any], app: Path) -> dict[str, str]:
        runtime_env: dict[str, str] = {}
        for keyword, args in _runtime_stage():
            if keyword == "ENV":
                runtime_env.update(word.split("=", 1) for word in shlex.split(args))
        # The image's PATH has `mizerka` and `mizerka-bot` (here: this environment's bin); HOME is the user's /app.
        return {"PATH": f"{BIN}{os.pathsep}{os.defpath}", "HOME": str(app), **runtime_env,
                **_service_env(service, self.values)}

    def command(self, name: str, service: dict[str, Any]) -> list[str]:
        """The service's command line as this host runs it: the image's entrypoint, addresses mapped."""
        entrypoint = json.loads(_one(_instructions(DOCKERFILE), "ENTRYPOINT"))
        words = [_interpolate(str(w), self.values) for w in service["command"]]
        out = []
        for before, word in zip(["", *words], words, strict=False):
            if before in PORT_EVENTS:
                word = "0"  # any free port: the service's log says which (self.port)
            elif before in ("--host", "--metrics-host") and word == "0.0.0.0":
                word = "127.0.0.1"  # a container's every interface; here, loopback is enough
            elif _is_compose_db(word):
                word = self.url(word)
            out.append(word)
        return [str(BIN / entrypoint[0]), *entrypoint[1:], *out]

    def port(self, name: str, option: str) -> int:
        """The port the service ``name`` got for ``option``."""
        return logged_port(self.root / f"{name}.log", PORT_EVENTS[option])

    def start(self, name: str, service: dict[str, Any]) -> subprocess.Popen[str]:
        app = self.container(name)
        log = open(self.root / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen(self.command(name, service), cwd=app, env=self.environment(service, app), stdout=log,
                                stderr=subprocess.STDOUT, text=True)
        self.procs.append(proc)
        return proc

    def run(self, name: str, service: dict[str, Any], timeout: float) -> subprocess.CompletedProcess[str]:
        app = self.container(name)
        return subprocess.run(self.command(name, service), cwd=app, env=self.environment(service, app),
                              capture_output=True, text=True, timeout=timeout)

    def log(self, name: str) -> str:
        path = self.root / f"{name}.log"
        return path.read_text()[-3000:] if path.exists() else ""


def _health(address: str) -> str:
    done = subprocess.run([str(BIN / "mizerka"), "health", "--server", address, "--timeout", "2"], capture_output=True,
                          text=True, timeout=30)
    return done.stdout.strip()


@pytest.mark.timeout(600)
def test_the_compose_project_plays_the_demo_league(tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """postgres -> referee (healthy) -> 2 workers -> `run demo`: the demo exits 0 with the standings,
    every game of the league is FINISHED in the database, played by both workers, once each."""
    services = _compose()["services"]
    values = {k: v or secrets.token_urlsafe(18) for k, v in _env_example().items()}  # docker/.env, filled in
    postgres = _service_env(services["postgres"], values)
    pg = sa.make_url(pg_url)
    # The postgres service's user and password, owning the test's database (as POSTGRES_USER owns POSTGRES_DB).
    with psycopg.connect(pg_url, autocommit=True) as conn:
        user, password = postgres["POSTGRES_USER"], postgres["POSTGRES_PASSWORD"]
        verb = "ALTER" if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (user,)).fetchone() else "CREATE"
        conn.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(user), sql.Literal(password)))
        conn.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(sql.Identifier(pg.database), sql.Identifier(user)))
    project = _Project(tmp_path, pg, values)
    league = load_league(DEMO_LEAGUE)
    games = len(schedule(league, "any secret"))
    engine = sa.create_engine(database_url(project.url(services["referee"]["command"][
        services["referee"]["command"].index("--db") + 1])), poolclass=sa.pool.NullPool)
    try:
        referee = project.start("referee", services["referee"])
        address = f"127.0.0.1:{project.port('referee', '--port')}"
        deadline = time.monotonic() + 60
        while _health(address) != "SERVING":
            assert referee.poll() is None, project.log("referee")
            assert time.monotonic() < deadline, project.log("referee")
            time.sleep(0.2)
        workers = [project.start(f"worker-{n}", services["worker"]) for n in range(1, services["worker"]["deploy"]["replicas"] + 1)]
        demo = project.run("demo", services["demo"], timeout=480)
        assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:] + project.log("worker-1")
        assert f"standings after {games} games" in demo.stdout, demo.stdout[-3000:]
        for n, proc in enumerate(workers, 1):
            assert proc.poll() is None, project.log(f"worker-{n}")  # workers stay, for the next league
        finished = sum(scrape(project.port(f"worker-{n}", "--metrics-port"))["mizerka_worker_games_finished_total"]
                       for n in range(1, len(workers) + 1))
        assert finished == games
        assert scrape(project.port("referee", "--metrics-port"))["mizerka_live_matches"] == 0
        assert _health(address) == "SERVING"

        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT key, status, match_id, lease_owner FROM league_games WHERE league = :l"),
                                {"l": league.name}).all()
            state = conn.execute(sa.text("SELECT state FROM leagues WHERE name = :l"), {"l": league.name}).scalar_one()
            matches = dict(conn.execute(sa.text("SELECT id, status FROM matches")).all())
            pids = {r.pid for r in conn.execute(sa.text("SELECT pid FROM workers"))}
        assert len(rows) == games and {r.status for r in rows} == {"FINISHED"} and state == "DONE"
        assert len({r.match_id for r in rows}) == games and all(matches[r.match_id] == "FINISHED" for r in rows)
        assert len({r.lease_owner for r in rows}) == len(workers) and pids == {p.pid for p in workers}

        for n, proc in enumerate(workers, 1):  # `docker compose stop`: SIGTERM, then they leave
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=60) == 128 + signal.SIGTERM, project.log(f"worker-{n}")
        referee.send_signal(signal.SIGTERM)
        assert referee.wait(timeout=60) == 0, project.log("referee")
    finally:
        for proc in project.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        engine.dispose()


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
