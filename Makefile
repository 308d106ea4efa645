# The two commands a newcomer needs: `make run` and `make test`. Both set everything up.
# `make quick` is the loop while changing code; tests/README.md tells the tiers.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000
# LOG=1: make run prints one line per request (time, method, path without tokens, status, ms).
LOG ?=
# What running needs, and that plus the developer tools (tests, linters, browsers' driver).
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test quick lint db system-deps bench clean

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "Instalando o Tento em $(VENV) (só na primeira vez)..."
	@$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(RUN_STAMP)

# Quiet (alembic.ini logs warnings only): make run's first line is the phones' address.
db: $(RUN_STAMP)
	@$(BIN)/flask --app scorekeeper db upgrade

# Waitress on the local network (HOST=127.0.0.1 keeps it private); prints the phones' address.
run: db
	@$(BIN)/python -m scorekeeper.serve --host $(HOST) --port $(PORT) $(if $(filter 1,$(LOG)),--log)

# ruff, mypy --strict on the rules, the architecture's contracts (import-linter, in pyproject)
# and every import declared (deptry).
lint: $(DEV_STAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/mypy --strict scorekeeper/rules scorekeeper/domain/torneio/bracket.py
	$(BIN)/lint-imports
	$(BIN)/deptry scorekeeper

# Programs from outside Python that some tests need (installed when root on Debian, as in CI).
system-deps:
	bash tests/system-deps.sh

# The whole suite (CI's): on 2 xdist workers (XDIST= runs it in one process), slowest 25 shown.
XDIST ?= -n 2 --dist loadgroup
test: lint system-deps
	$(BIN)/python -m pytest -q --durations=25 $(XDIST)

# Rules, domain and web tests on SQLite in about a minute: no browser, PostgreSQL or real server.
quick: $(DEV_STAMP)
	HYPOTHESIS_PROFILE=quick $(BIN)/python -m pytest -q -m "not slow and not browser and not postgresql" $(XDIST)

# Load benchmark (a few minutes): gunicorn with 2 sync workers measured with wrk; see bench/README.md.
# BENCH_ARGS="--database postgresql" runs it on a throw-away PostgreSQL.
bench: $(DEV_STAMP)
	bash bench/system-deps.sh
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
