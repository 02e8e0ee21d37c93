PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install test test-without-posix lint bench demo clean e2e-deps e2e browser-deps browser

$(BIN)/brain: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,semantic]'
	@touch $(BIN)/brain

install: $(BIN)/brain  ## create .venv and install brain with its dev tools

test: install  ## run the test suite (the real agent programs are 'make e2e')
	$(BIN)/python -m pytest -n 2 -q --ignore=tests/e2e --ignore=tests/browser

# The tests of what meets the operating system (the lock, files, git, hooks, agent CLIs,
# transcripts, the index, sync), run by a Python without fcntl nor the os calls Windows
# lacks (tests/without_posix/sitecustomize.py): brain must not need them to start or write.
WITHOUT_POSIX_TESTS := tests/test_lock.py tests/test_contention.py tests/test_durability.py \
	tests/test_crash.py tests/test_crash_git.py tests/test_hooks.py tests/test_home.py \
	tests/test_journal.py tests/test_fsutil.py tests/test_agent_cli.py tests/test_harvest.py \
	tests/test_recall.py tests/test_sync.py tests/test_undo.py tests/test_startup.py \
	tests/test_bad_input.py tests/test_cli_edges.py tests/test_packing.py tests/test_sources_common.py \
	tests/test_startmemo.py

test-without-posix: install  ## run the tests of what meets the OS without fcntl (as on Windows)
	PYTHONPATH=tests/without_posix $(BIN)/python -m pytest -n 2 -q $(WITHOUT_POSIX_TESTS)

lint: install  ## ruff check, ruff format --check, mypy
	$(BIN)/ruff check brain tests benchmarks
	$(BIN)/ruff format --check brain tests benchmarks
	$(BIN)/mypy brain

LOCOMO ?= ../shared/bench/locomo/locomo-dev3.json

bench: install  ## print the benchmarks' figures (see benchmarks/README.md)
	$(BIN)/python benchmarks/write_latency.py
	$(BIN)/python benchmarks/recall_latency.py
	$(BIN)/python benchmarks/index_speed.py
	$(BIN)/python benchmarks/harvest.py
	$(BIN)/python benchmarks/parse_memory.py
	$(BIN)/python benchmarks/redact.py
	$(BIN)/python benchmarks/hook_latency.py
	@if [ -f "$(LOCOMO)" ]; then $(BIN)/python benchmarks/locomo.py --data "$(LOCOMO)"; \
	else echo "LoCoMo data not found at $(LOCOMO); pass LOCOMO=path"; fi

# The real agent programs, pinned, for tests/e2e/ (installed into .e2e/, git-ignored),
# and the newest each registry has where it is not the pinned one (into .e2e/latest/;
# the newest Codex CLI and Gemini CLI are the pinned ones).
E2E := .e2e
E2E_PACKAGES := @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0 @github/copilot@1.0.102 @qwen-code/qwen-code@0.24.4 opencode-ai@1.18.33
E2E_NEWEST := @anthropic-ai/claude-code@2.1.332

e2e-deps:  ## install the pinned and the newest Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code and OpenCode with npm, and tmux
	command -v tmux >/dev/null || (apt-get update -qq && apt-get install -y -qq tmux >/dev/null)
	mkdir -p $(E2E) $(E2E)/latest
	npm install --prefix $(E2E) --no-audit --no-fund --save-exact --loglevel=error $(E2E_PACKAGES)
	npm install --prefix $(E2E)/latest --no-audit --no-fund --save-exact --loglevel=error $(E2E_NEWEST)

# A rule learned in one tool reaching every other is tested once per source tool, each run
# driving all seven; CI picks two (BRAIN_E2E_CROSS_SOURCES in .ci/run), 'make e2e' all.
# The newest Claude Code runs the Claude Code tests, not the seven-tool one again.
e2e: install  ## drive the real agent programs against scripted model servers (run e2e-deps first)
	$(BIN)/python -m pytest -n 2 -q tests/e2e
	BRAIN_E2E_NEWEST=1 $(BIN)/python -m pytest -n 2 -q tests/e2e -k "claude and not cross_tool"

# Debian's Chromium for tests/browser, driven by Playwright for Python (the dev extra);
# Playwright never downloads a browser of its own here.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

browser-deps: install  ## install Debian's chromium and Playwright for the browser tests of 'brain ui'
	@if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version; else \
	$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; fi
	$(BIN)/pip install --quiet -e '.[dev,semantic,browser]'
	@touch $(BIN)/brain

browser: install  ## drive 'brain ui' in a real Chromium (run browser-deps first)
	$(BIN)/python -m pytest -q tests/browser

demo: install  ## run brain's main job on the bundled sample transcripts, offline
	@bash scripts/demo.sh

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .mypy_cache
