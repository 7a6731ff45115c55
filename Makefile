# Everything goes through a project-local virtual env built from pinned versions (constraints.txt).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench-cli bench-engine bench-referee bench-league bench-flood bench-expert bench-load bench-workers bench-spectators bench-submit venv proto clean

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt clients/python/pyproject.toml proto/python/pyproject.toml server/engine/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e proto/python -e server/engine -e clients/python -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/mizerka league run tournaments/demo.toml --fresh --http-port 0

# The suite in parallel (pytest-xdist): TEST_JOBS workers (auto: one per core; TEST_JOBS=0 runs it in
# this one process). Tests that must not overlap share an xdist_group and run on one worker (loadgroup).
TEST_JOBS ?= auto
test: $(STAMP) clients
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadgroup

# How long `mizerka` and `mizerka-bot` take to start, against a bare `import typer` (BENCHMARKS.md,
# "Command-line start-up"); options go in ARGS, e.g. make bench-cli ARGS="--rounds 30".
bench-cli: $(STAMP)
	$(BIN)/python tests/bench/bench_cli.py $(ARGS)

bench-engine: $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[bench]'
	$(BIN)/python tests/bench/bench_engine.py

# Options go in ARGS, e.g. make bench-referee ARGS="--spectators 10" (BENCHMARKS.md).
bench-referee: $(STAMP)
	$(BIN)/python tests/bench/bench_referee.py $(ARGS)

bench-league: $(STAMP)
	$(BIN)/python tests/bench/bench_league.py

bench-flood: $(STAMP)
	$(BIN)/python tests/bench/bench_flood.py

# The expert bot against the built-in bots in duplicate sets (BENCHMARKS.md, "Expert bot"); options
# go in ARGS, e.g. make bench-expert ARGS="--sets 8 --processes 2 --deals 6".
bench-expert: $(STAMP)
	$(BIN)/python tests/bench/bench_expert.py $(ARGS)

# One referee holding 16 to 1,000 matches whose bots connect all at once (BENCHMARKS.md, "Load");
# options go in ARGS, e.g. make bench-load ARGS="--matches 16,100 --think-matches 100 --seconds 5".
bench-load: $(STAMP)
	$(BIN)/python tests/bench/bench_load.py $(ARGS)

# Uploads against a raw gRPC stream of the same bytes (BENCHMARKS.md, "Submissions"); options go in ARGS, e.g. make bench-submit ARGS="--mib 20 --rounds 5".
bench-submit: $(STAMP)
	$(BIN)/python tests/bench/bench_submit.py $(ARGS)

# options go in ARGS, e.g. make bench-workers ARGS="--workers 1,2,3 --slots 2 --think-ms 50".
bench-workers: $(STAMP)
	$(BIN)/python tests/bench/bench_workers.py $(ARGS)

# What one host's spectators (no token) take from a running match: each attack in alternating windows
# (BENCHMARKS.md, "Spectator attacks"); options go in ARGS, e.g. make bench-spectators ARGS="--quick"
# (a 2.5-minute smoke run) or ARGS="--attacks feed,hog --seconds 5 --rounds 3".
bench-spectators: $(STAMP)
	$(BIN)/python tests/bench/bench_spectators.py $(ARGS)

# Regenerate the Python stubs (package mizerka_proto in proto/python) from proto/ (tests check they are current).
proto: $(STAMP)
	$(BIN)/python proto/python/generate.py

clean:
	rm -rf $(VENV) build *.egg-info

# ---- clients: the example bots in other languages (tests/test_node_bot.py, tests/test_cpp_bot.py).
# clients/node: `npm ci` from the committed lockfile. clients/cpp: built with cmake into
# clients/cpp/build when Debian's gRPC/protobuf packages are installed (.ci/run installs them);
# without them this says so and the C++ tests skip, with the reason printed.
NODE_STAMP := clients/node/node_modules/.package-lock.json
.PHONY: clients clients-node clients-cpp

clients: clients-node clients-cpp

clients-node: $(NODE_STAMP)

$(NODE_STAMP): clients/node/package.json clients/node/package-lock.json
	@if command -v npm >/dev/null 2>&1; then cd clients/node && npm ci --no-audit --no-fund; \
	else echo "clients: npm not found, clients/node not installed (its tests will skip)"; fi

clients-cpp:
	@if $(MAKE) -s -C clients/cpp check >/dev/null 2>&1; then $(MAKE) -s -C clients/cpp; \
	else echo "clients: clients/cpp not built: it needs the Debian packages libgrpc++-dev protobuf-compiler-grpc" \
	"libprotobuf-dev protobuf-compiler cmake pkg-config (tests/test_cpp_bot.py will skip, saying so)"; fi
