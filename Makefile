# The README's commands. Everything runs inside .venv, made from requirements/lock.txt.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]*-*.ipynb))
LINTED := gamelib tests bench examples docs/conf.py
CROSSCHECK_GAMES ?= 100000

DOCS_HTML := docs/_build/html

.PHONY: help install warm analysis test lint docs docs-check lab bench crosscheck results lock clean

help:
	@echo "make analysis  - set up .venv and execute every notebook in place"
	@echo "make test      - set up .venv, lint, type-check, run unit, property and notebook tests"
	@echo "make docs      - build the documentation site into $(DOCS_HTML) (open index.html)"
	@echo "make lab       - open JupyterLab on notebooks/"
	@echo "make bench     - side-by-side throughput benchmarks (not part of the tests)"
	@echo "make crosscheck - replay 10^5 compiled games of each game through the reference engines"
	@echo "make results   - play every notebook against an empty study cache; store the slow runs and the searches in data/results"
	@echo "make lock      - re-resolve requirements/lock.txt from pyproject.toml"
	@echo "make warm      - compile every game's engines into numba's cache (make install does)"

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "gamelib needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python requirements/lock.txt pyproject.toml examples/leduc/pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/lock.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	# the bring-your-own-game example, registered by its entry point (examples/leduc/README.md)
	$(BIN)/python -m pip install --quiet --no-deps -e examples/leduc
	@echo "compiling the game engines into numba's on-disk cache (a few minutes once; seconds when cached)"
	$(BIN)/python -m gamelib.warm
	touch $(STAMP)

install: $(STAMP)

# again after editing a kernel or pointing NUMBA_CACHE_DIR elsewhere (seconds when all is cached)
warm: $(STAMP)
	$(BIN)/python -m gamelib.warm

analysis: $(STAMP)
	@for nb in $(NOTEBOOKS); do \
		echo "executing $$nb"; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.timeout=1200 "$$nb" || exit 1; \
	done

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy gamelib

test: lint docs-check
	$(BIN)/pytest --nbval --nbval-current-env --durations=25 tests notebooks

# the site (Sphinx + MyST): guide pages, rules, notebooks from their committed outputs, API
docs: $(STAMP)
	$(BIN)/sphinx-build -b html -q docs $(DOCS_HTML)
	@echo "the site is in $(DOCS_HTML)/index.html"

# what make test checks: every page read afresh (-E, so no warning hides in a cached page),
# warnings as errors (-W; every warning listed first with --keep-going)
docs-check: $(STAMP)
	$(BIN)/sphinx-build -b html -E -W --keep-going -q docs $(DOCS_HTML)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench

# every notebook at its committed parameters against an empty study cache, the stored tier off
# (docs/guide/rerun.md), so each study is played afresh, 05's tuning searches too; then the search
# players' runs (the slow ones) are packed into data/results/studies and each remade search
# replaces its stored folder (data/results/tune-*). Hours on 2 cores: the search studies of 02,
# 03 and 05.
RESULTS_CACHE := .results-cache
RESULTS_MINUTES ?= 100000
results: $(STAMP)
	rm -rf $(RESULTS_CACHE)
	mkdir -p $(RESULTS_CACHE)/notebooks
	@for nb in $(NOTEBOOKS); do \
		echo "playing $$nb against an empty cache"; \
		GAMELIB_CACHE=$(abspath $(RESULTS_CACHE)) GAMELIB_STORED=none $(BIN)/papermill --engine gamelib -k python3 \
			--cwd notebooks "$$nb" $(RESULTS_CACHE)/$$nb -p MINUTES $(RESULTS_MINUTES) || exit 1; \
	done
	GAMELIB_CACHE=$(abspath $(RESULTS_CACHE)) $(BIN)/gamelib cache --pack data/results/studies

# the same check as `make test` runs on a small sample; CROSSCHECK_GAMES=10000 for a shorter run
crosscheck: $(STAMP)
	GARNER_CROSSCHECK_GAMES=$(CROSSCHECK_GAMES) $(BIN)/pytest -q tests/test_garner_kernel.py
	GARGON_CROSSCHECK_GAMES=$(CROSSCHECK_GAMES) $(BIN)/pytest -q tests/test_gargon_kernel.py
	GARGON_GREEDY_CROSSCHECK_GAMES=$(CROSSCHECK_GAMES) $(BIN)/pytest -q tests/test_gargon_kernel_players.py
	DTY_CROSSCHECK_GAMES=$(CROSSCHECK_GAMES) $(BIN)/pytest -q tests/test_deck_the_yard_kernel.py
	GARNER_PLAYERS_CROSSCHECK_GAMES=$(CROSSCHECK_GAMES) $(BIN)/pytest -q tests/test_garner_kernel_players.py

lock: $(BIN)/python
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
		--extra dev --extra dask --extra openspiel --extra docs -o requirements/lock.txt pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build docs/api/generated docs/notebooks
