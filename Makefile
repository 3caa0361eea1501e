# Two commands for a newcomer: `make demo` checks the bundled example, `make test` runs the tests.
# Both create .venv and install the package with its dev tools the first time.
# `make docs` builds the documentation site (mkdocs.yml, docs/) into site/, strictly: a warning fails it.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

WHEEL_DIR ?= build/wheel
WHEEL_VENV ?= build/wheel-venv

.PHONY: install demo test test-wheel docs check-generated lint constraints

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml constraints.txt
	@# a .venv left by a Python older than 3.11 (or a broken one) is replaced, not reused
	@$(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]" -c constraints.txt
	touch $@

demo: install
	$(BIN)/replayable check examples/conversation.json --tools examples/conversation.tools.json --target openai --provider openai

test: install
	$(BIN)/python -m pytest

# The built wheel (no src/ on the path), installed with the test extra into a fresh virtual environment,
# running the same tests from outside the checkout; tests that need schemas/, scripts/ or examples/
# still find them beside tests/. REPLAYABLE_TEST_WHEEL makes test_packaging check the wheel itself.
test-wheel: install
	rm -rf $(WHEEL_DIR) $(WHEEL_VENV) build/wheel-run
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet --upgrade pip
	whl="$$(ls $(CURDIR)/$(WHEEL_DIR)/replayable-*.whl)" && \
	$(WHEEL_VENV)/bin/python -m pip install --quiet "$$whl[test]" -c constraints.txt && \
	mkdir -p build/wheel-run && cd build/wheel-run && \
	REPLAYABLE_TEST_WHEEL="$$whl" $(CURDIR)/$(WHEEL_VENV)/bin/python -m pytest -p no:cacheprovider \
		-c $(CURDIR)/pyproject.toml --rootdir $(CURDIR) $(CURDIR)/tests

docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

check-generated: install
	$(BIN)/python scripts/generate.py --check

lint: install
	$(BIN)/ruff check src tests scripts
	$(BIN)/mypy src
	$(BIN)/lint-imports --no-cache

# Re-pin the whole environment after a pin in pyproject.toml changed: a fresh venv, then its pip freeze.
constraints:
	rm -rf build/constraints-venv
	$(PYTHON) -m venv build/constraints-venv
	build/constraints-venv/bin/python -m pip install --quiet --upgrade pip
	build/constraints-venv/bin/python -m pip install --quiet -e ".[dev]"
	{ head -3 constraints.txt; build/constraints-venv/bin/python -m pip freeze --exclude-editable | grep -v '^replayable'; } > constraints.new
	mv constraints.new constraints.txt
