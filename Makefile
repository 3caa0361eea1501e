# Two commands for a newcomer: `make demo` checks the bundled example, `make test` runs the tests.
# Both create .venv and install the package with its dev tools the first time.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install demo test check-generated lint

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

demo: install
	$(BIN)/replayable check examples/conversation.json --tools examples/conversation.tools.json --target openai

test: install
	$(BIN)/python -m pytest

check-generated: install
	$(BIN)/python scripts/generate.py --check

lint: install
	$(BIN)/ruff check src tests scripts
	$(BIN)/mypy src
