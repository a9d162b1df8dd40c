# SRDH conformance kit: the two commands of the README's quick start are `make verify` and `make test`.
# Both bootstrap everything they need (a virtual environment and the Node referees) on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export OPENSPEC_TELEMETRY := 0
# The kit's commands write bytecode caches (into .venv and the checkout's __pycache__/, both
# ignored by git) even where the environment says not to: `make setup` installs without compiling,
# and without caches every `srdh` process would compile what it imports again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup verify test pytest checks lint typecheck typescript openspec-validate codegen bench clean java-example

setup: $(VENV)/.installed node_modules/.installed

## --no-compile: pip would compile every module of every dependency to bytecode (about 60 % of the
## install's CPU); Python compiles the ones the kit imports on first use instead (tests/conftest.py
## lets the test run write those caches). docs/decisions/test-speed.md, "Session 9".
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## The main job: spec lint, schemas, freeze lock, codegen drift, traceability, suite, selftest, gate.
verify: setup
	$(BIN)/srdh verify .

## The tests: lint, types, the TypeScript types, the official OpenSpec CLI and pytest (warnings are
## errors). The set-up runs first (pip beside npm); then the static checks and pytest run two at a
## time: the quick checks first, so that pytest starts beside mypy rather than after it (mypy uses
## one core for ~20 s on a fresh clone). Any failing step fails `make test`; each step's lines are
## printed as they come (`--output-sync=line`).
test:
	$(MAKE) --jobs=2 --output-sync=target setup
	$(MAKE) --jobs=2 --output-sync=line lint typescript openspec-validate typecheck pytest

## pytest alone, on every core (tests/conftest.py: two workers per core).
pytest: setup
	$(BIN)/python -m pytest -n auto --dist worksteal

## The static checks of `make test` (and the set-up they need).
checks: lint typecheck typescript openspec-validate

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

## The generated TypeScript types (types/typescript) compile with tsc --strict; drift and the
## example documents are checked by tests/contracts/test_contracts_typescript.py.
typescript: setup
	node_modules/.bin/tsc -p types/typescript/tsconfig.json

openspec-validate: setup
	node_modules/.bin/openspec validate --all --strict --no-interactive

## Regenerate the Pydantic models and the TypeScript types from schemas/ (CI fails on drift).
codegen: setup
	$(BIN)/python -m contracts.codegen
	$(BIN)/python -m contracts.codegen_typescript

## The Java example harness (examples/java): javac alone, into examples/java/build/.
## Run the suite against it: .venv/bin/srdh run --iut "java -cp examples/java/build dev.srdh.harness.StdioMain"
java-example:
	rm -rf examples/java/build
	javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d examples/java/build $$(find examples/java/src -name '*.java')

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis reports
