PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install test lint bench demo clean

$(BIN)/brain: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,semantic]'
	@touch $(BIN)/brain

install: $(BIN)/brain  ## create .venv and install brain with its dev tools

test: install  ## run the test suite
	$(BIN)/python -m pytest -n 2 -q

lint: install  ## ruff check, ruff format --check, mypy
	$(BIN)/ruff check brain tests benchmarks
	$(BIN)/ruff format --check brain tests benchmarks
	$(BIN)/mypy brain

bench: install  ## print the benchmarks' figures
	$(BIN)/python benchmarks/write_latency.py

demo: install  ## run brain's main job on the bundled sample transcripts, offline
	@bash scripts/demo.sh

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .mypy_cache
