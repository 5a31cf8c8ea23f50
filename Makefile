# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test check-wheel lint bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[test,planners]'
	touch $(VENV)/.installed $@

demo: $(VENV)/.installed
	$(BIN)/heurist solve klotski data/hrd/w23_s24_char/testhrd_hard1.txt --algo astar --heuristic pdb

test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m pytest -q

check-wheel: $(VENV)/.installed-test
	.ci/check-wheel

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/klotski_hrd.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
