# Two commands do all the set-up on a fresh machine:
#   make demo   creates .venv, installs memkit, shows it at work on a scratch clone of this repo
#   make test   creates .venv with the dev extra, runs ruff, mypy and pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: demo test fast lint typecheck pytest selfcheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# A scratch clone of this repository (commit first: the clone has what is committed):
# its memories, the compiled AGENTS.md, a code change making a memory stale, check, the
# git hook, the CI gate, search, verify. The working tree here is never touched.
demo: $(STAMP)
	@sh scripts/demo.sh "$(abspath $(BIN)/memkit)"

lint: $(STAMP)
	$(BIN)/ruff check memkit tests benchmarks
	$(BIN)/ruff format --check memkit tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

# The edit loop: everything but the slow tests (killed processes, the pre-commit
# framework, MCP servers, wheels), stopping at the first failure.
fast: $(STAMP)
	$(BIN)/pytest -m "not slow" -x

# memkit checks its own store: valid memories, compiled files current.
selfcheck: $(STAMP)
	$(BIN)/memkit validate
	$(BIN)/memkit compile --check
	$(BIN)/memkit check

test: lint typecheck pytest selfcheck

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
