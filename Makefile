# Everything goes through a project-local virtual env built from pinned versions (constraints.txt).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench-engine bench-referee bench-league venv proto clean

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e clients/python -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/mizerka league run tournaments/demo.toml --fresh

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench-engine: $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[bench]'
	$(BIN)/python tests/bench/bench_engine.py

bench-referee: $(STAMP)
	$(BIN)/python tests/bench/bench_referee.py

bench-league: $(STAMP)
	$(BIN)/python tests/bench/bench_league.py

# Regenerate the Python stubs the SDK ships from proto/ (tests check they are current).
proto: $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -Iproto --python_out=clients/python --pyi_out=clients/python \
		--grpc_python_out=clients/python proto/mizerka/v1/*.proto

clean:
	rm -rf $(VENV) build *.egg-info
