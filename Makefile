# The two commands a newcomer needs: `make run` and `make test`. Both set everything up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
STAMP := $(VENV)/.installed

.PHONY: run test lint db system-deps bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

db: $(STAMP)
	$(BIN)/flask --app scorekeeper db upgrade

run: db
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/mypy --strict scorekeeper/rules

# Programs from outside Python that some tests need (installed when root on Debian, as in CI).
system-deps:
	bash tests/system-deps.sh

test: lint system-deps
	$(BIN)/python -m pytest -q

# Load benchmark (a few minutes): gunicorn with 2 sync workers measured with wrk; see bench/README.md.
# BENCH_ARGS="--database postgresql" runs it on a throw-away PostgreSQL.
bench: $(STAMP)
	bash bench/system-deps.sh
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
