# Two commands do all the set-up on a fresh machine:
#   make demo   creates .venv, installs memkit, shows it at work on a scratch clone of this repo
#   make test   creates .venv with the dev extra, runs ruff, mypy and pytest
# and one more for the oldest releases pyproject.toml allows:
#   make test-lowest   creates .venv-lowest pinned by constraints/lowest.txt, runs pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
LOWEST := .venv-lowest
LOWEST_STAMP := $(LOWEST)/.installed-lowest

# The tests start memkit in hundreds of processes: with PYTHONDONTWRITEBYTECODE set (as in
# many container images) each one compiles every module it imports from source again
# (0.12 s of CPU each), and pytest collects twice as slowly. Bytecode is written here.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo test test-lowest fast lint typecheck pytest selfcheck browser shellcheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# A scratch clone of this repository (commit first: the clone has what is committed):
# its memories, the compiled AGENTS.md, a code change making a memory stale, check, the
# git hook, the CI gate, search, verify. The working tree here is never touched.
# memkit alone is enough: the dev extra (ruff, mypy, pytest...) is left to `make test`.
demo: | $(BIN)/python
	@[ -x $(BIN)/memkit ] || $(BIN)/python -m pip install --quiet -e .
	@sh scripts/demo.sh "$(abspath $(BIN)/memkit)"

lint: $(STAMP)
	$(BIN)/ruff check memkit tests benchmarks
	$(BIN)/ruff format --check memkit tests benchmarks

# The code for Windows and macOS too (sys.platform checks decide what mypy reads), each
# with its own cache: a platform change would otherwise throw the others' away.
typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --platform darwin --cache-dir .mypy_cache/darwin
	$(BIN)/mypy --platform win32 --cache-dir .mypy_cache/win32

# Every test, slow ones too, on every core (pytest-xdist); worksteal hands the tests of a
# worker stuck on a long one (a wheel, a racing process) to the idle worker. The tests'
# files go to memory, as for `make fast` (`make pytest FAST_TMPDIR=` keeps them on disk).
pytest: $(STAMP)
	$(if $(FAST_TMPDIR),TMPDIR=$(FAST_TMPDIR)) $(BIN)/pytest -n auto --dist worksteal \
		-o tmp_path_retention_policy=failed

# The edit loop: everything but the slow tests (killed or racing processes, waits on
# locks, the pre-commit framework, MCP servers, wheels), on every core (pytest-xdist),
# stopping at the first failure. The property tests run a quarter of their examples
# (the `quick` profile in tests/conftest.py; `make test` runs them all). The tests' files
# go to memory (/dev/shm, where there is one): memkit syncs each write to disk, and on a
# busy disk those waits took longer than the tests' own work (`make fast FAST_TMPDIR=`
# keeps them on disk; a /dev/shm with under 4 GB free, as in a container, is not used).
# Only a failed test's folder is kept.
FAST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] \
	&& [ "$$(df -Pk /dev/shm | awk 'NR==2 {print $$4}')" -ge 4194304 ] 2>/dev/null && echo /dev/shm)
fast: $(STAMP)
	$(if $(FAST_TMPDIR),TMPDIR=$(FAST_TMPDIR)) $(BIN)/pytest -m "not slow" -x -n auto \
		--dist worksteal --hypothesis-profile quick -o tmp_path_retention_policy=failed

# memkit checks its own store: valid memories, compiled files current.
selfcheck: $(STAMP)
	$(BIN)/memkit validate
	$(BIN)/memkit compile --check
	$(BIN)/memkit check

# $(call debian,COMMANDS,PACKAGE,TEST): Debian's PACKAGE for TEST when none of COMMANDS is
# found, installed where apt-get can run as root (CI does); elsewhere TEST skips and says why.
define debian
	@if $(foreach c,$(1),command -v $(c) >/dev/null 2>&1 ||) false; then \
		:; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's $(2) for $(3)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq $(2) >/dev/null; } \
		|| echo "could not install $(2): $(3) will skip"; \
	else \
		echo "no $(2), and not root to install it: $(3) will skip"; \
	fi
endef

# Chromium for the report's browser test (tests/report/test_report_browser.py).
browser:
	$(call debian,chromium chromium-browser,chromium,the browser test)

# shellcheck for the git hook's script test (tests/githooks/test_precheck.py).
shellcheck:
	$(call debian,shellcheck,shellcheck,the hook script's shellcheck test)

test: lint typecheck browser shellcheck pytest selfcheck

# The lower bounds in pyproject.toml, tested: every dependency at the oldest release
# they allow (constraints/lowest.txt pins each), in a venv of its own. Rebuilt from
# scratch when either file changes, so nothing newer lingers from an earlier install.
$(LOWEST_STAMP): pyproject.toml constraints/lowest.txt
	rm -rf $(LOWEST)
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install --quiet --upgrade pip
	$(LOWEST)/bin/python -m pip install --quiet -c constraints/lowest.txt -e '.[dev]'
	touch $@

test-lowest: browser shellcheck $(LOWEST_STAMP)
	$(LOWEST)/bin/pytest -n auto --dist worksteal

# The real coding-agent CLIs, pinned in e2e/agents.py, run offline against a recording
# model endpoint (docs/e2e.md): needs root for a loopback-only network namespace, and
# npm and PyPI once, to install the agents into E2E_CACHE. Not part of `make test`.
E2E_CACHE ?= $(HOME)/.cache/memkit-e2e
.PHONY: e2e e2e-ci
e2e: $(STAMP)
	$(BIN)/python e2e/run.py "$(E2E_CACHE)" $(E2E_ARGS)

# CI: every agent, each scenario on each store; fails when a run disagrees with
# `memkit compile --explain`. Where the runs cannot be isolated (not root, no unshare)
# it says so in one SKIP line and passes; an agent whose registry is unreachable is
# skipped with its own line. The agents stay installed in E2E_CACHE between runs.
e2e-ci: $(STAMP)
	$(BIN)/python e2e/run.py "$(E2E_CACHE)" --scenarios every --or-skip $(E2E_ARGS)

clean:
	rm -rf $(VENV) $(LOWEST) build dist .pytest_cache .mypy_cache .ruff_cache
