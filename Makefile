# Newcomer entry points: `make play` and `make test` (README). Everything runs from .venv.
# Override the interpreter used to create the venv with `make PYTHON=python3.12 ...`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play
# The mypyc-compiled engine (issue 13): out of tree, loaded only while its manifest
# matches the sources (engine/_native.py); BURACO_NATIVE=0 forces pure Python.

.PHONY: venv play-venv native play test test-pure lint bench

# The venv, then the engine's hot modules compiled into .native/ (tools/build_native.py): at once
# "up to date" while the build matches the sources, Python, mypy and its own files;
# otherwise rebuilt (about a minute). Never fails: without a C compiler or when the build
# fails it prints one line and the engine runs as pure Python; a failed build is not
# retried until the sources, Python or mypy change (`make native` forces it).
venv: $(STAMP)
	@$(BIN)/python tools/build_native.py || true

# Create the venv only when it is missing, without pip of its own: `make play` installs
# with the host's pip (`pip --python`, pip >= 22.3; a few seconds less before the first
# table), and whatever needs pip inside the venv adds it first ($(VENV_PIP)).
$(BIN)/python:
	$(PYTHON) -m venv --without-pip $(VENV)

VENV_PIP = $(BIN)/python -m pip --version >/dev/null 2>&1 || \
	$(BIN)/python -m ensurepip --default-pip >/dev/null; $(BIN)/python -m pip

# (Re)install the project with its test and browser extras when pyproject.toml changes
# (a superset of what playing needs, so it stands for the play install too). The browser
# tests also need Debian's chromium (apt-get install chromium; tools/test_needs.py says).
$(STAMP): pyproject.toml | $(BIN)/python
	$(VENV_PIP) install --disable-pip-version-check --quiet -e '.[test,browser]'
	touch $(STAMP) $(PLAY_STAMP)

# What `python -m bot play` imports and nothing else (issue 30: the first table in
# seconds): the project's dependencies without the chat platforms' libraries
# (tools/play_requirements.py), no test tools, no compiled engine, no npm. The game runs
# from the source tree (`python -m bot` in this directory), so the project itself is not
# installed; bytecode is written as modules are first imported. A host Python without a
# pip that takes --python: the venv gets its own pip and installs with it.
PLAY_PIP_ARGS = install --disable-pip-version-check --quiet --no-compile \
	-r $(VENV)/play-requirements.txt
$(PLAY_STAMP): pyproject.toml tools/play_requirements.py | $(BIN)/python
	$(BIN)/python tools/play_requirements.py > $(VENV)/play-requirements.txt
	@if [ -x $(BIN)/pip ]; then $(BIN)/python -m pip $(PLAY_PIP_ARGS); \
	else echo "$(PYTHON) -m pip --python $(BIN)/python $(PLAY_PIP_ARGS)"; \
		$(PYTHON) -m pip --python $(BIN)/python $(PLAY_PIP_ARGS) 2>$(VENV)/pip-host.log \
		|| { $(VENV_PIP) $(PLAY_PIP_ARGS); }; fi
	touch $(PLAY_STAMP)

play-venv: $(PLAY_STAMP)

# Rebuild the compiled engine even when its manifest matches (fails when the build does).
# `make play` never builds it: it plays on the compiled engine once this (or `make venv`,
# `make test`) has built it, on the pure-Python engine until then (the same rules).
native: $(STAMP)
	$(BIN)/python tools/build_native.py --force

play: play-venv
	$(BIN)/python -m bot play $(ARGS)

# The Telegram end-to-end tests play against the npm Bot API emulator (package.json).
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the Telegram end-to-end tests will be skipped" >&2; fi

# First one line per suite this machine will skip and what it needs (tools/test_needs.py).
test: venv node_modules/.package-lock.json
	@$(BIN)/python tools/test_needs.py
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The pure-Python engine is the reference: its rules, property, record/replay and AI
# tests run again with the compiled build switched off (CI runs both; `make test` runs
# the compiled engine when it is built).
PURE_TESTS := tests/test_engine*.py tests/test_rules*.py tests/test_properties.py \
	tests/test_ai*.py tests/test_state_codec.py tests/test_match_archive.py
test-pure: venv
	BURACO_NATIVE=0 $(BIN)/python -m pytest -q $(PURE_TESTS) $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy --strict engine/ bot/ adapters/

# Every bench/*.py except helpers named _*.py, fit_eval.py and tune_weights.py (they fit
# the dificil evaluation and weights: tools rather than benchmarks); the service bench
# reads REDIS_URL; the concurrency bench also makes a git worktree of the code before issue 36.
bench: venv
	@set -e; found=0; for f in bench/*.py; do \
		case "$$(basename "$$f")" in _*|fit_eval.py|tune_weights.py) continue;; esac; \
		[ -e "$$f" ] || continue; found=1; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done; \
	if [ $$found -eq 0 ]; then echo "no benchmarks in bench/" >&2; exit 1; fi
