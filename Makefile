# Newcomer entry points: `make play` and `make test` (README). Everything runs from .venv.
# Override the interpreter used to create the venv with `make PYTHON=python3.12 ...`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The mypyc-compiled engine (issue 13): out of tree, loaded only while its manifest
# matches the sources (engine/_native.py); BURACO_NATIVE=0 forces pure Python.

.PHONY: venv native play test test-pure lint bench

# The venv, then the engine's hot modules compiled into .native/ (tools/build_native.py): at once
# "up to date" while the build matches the sources, Python, mypy and its own files;
# otherwise rebuilt (about a minute). Never fails: without a C compiler or when the build
# fails it prints one line and the engine runs as pure Python; a failed build is not
# retried until the sources, Python or mypy change (`make native` forces it).
venv: $(STAMP)
	@$(BIN)/python tools/build_native.py || true

# Create the venv only when it is missing.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# (Re)install the project and its test extras when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check --quiet -e '.[test]'
	touch $(STAMP)

# Rebuild the compiled engine even when its manifest matches (fails when the build does).
native: $(STAMP)
	$(BIN)/python tools/build_native.py --force

play: venv
	$(BIN)/python -m bot play $(ARGS)

# The Telegram end-to-end tests play against the npm Bot API emulator (package.json).
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the Telegram end-to-end tests will be skipped" >&2; fi

test: venv node_modules/.package-lock.json
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
# reads REDIS_URL.
bench: venv
	@set -e; found=0; for f in bench/*.py; do \
		case "$$(basename "$$f")" in _*|fit_eval.py|tune_weights.py) continue;; esac; \
		[ -e "$$f" ] || continue; found=1; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done; \
	if [ $$found -eq 0 ]; then echo "no benchmarks in bench/" >&2; exit 1; fi
