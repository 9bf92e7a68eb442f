# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export FLASK_APP := app

.PHONY: run test test-quick install install-dev migrate worker clean messages
# pytest-xdist processes for `make test` (each a whole test session of its own; 1: no xdist). Three on two
# cores: the browser's and the documents' tests wait on child processes (README: 15 min 10 s against 17 min 51 s
# with two, on a quiet machine)
PYTEST_WORKERS ?= 3

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: $(BIN)/python requirements.txt
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/python -m app.i18n
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

## Extract every message of the code into app/translations/messages.pot and update each language's messages.po
## (new messages untranslated, changed ones marked fuzzy); `make install` compiles them
messages: install
	$(BIN)/python -m app.i18n extract

## Serve the embedded default (SQLite, in-process jobs, mail in the log) on http://localhost:5000, the MCP
## server for agents at http://localhost:5000/mcp beside the app (app/mcp/asgi.py: one process)
# The host and port are BASE_URL's default (app/config.py): signed in at another host, a browser
# would be redirected to BASE_URL's host and have no cookie there (tests/test_config.py checks).
run: install
	$(BIN)/flask db upgrade
	$(BIN)/uvicorn app.mcp.asgi:embedded --host localhost --port 5000

## Every test, on three workers, after the import contracts (set TEST_DATABASE_URL / TEST_REDIS_URL to use
## PostgreSQL and Redis; each worker gets a database of its own)
test: install-dev
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=25 $(PYTEST_ARGS)

## The inner loop: the same, less the slow kinds (real browser, generated contract requests, document matrices)
test-quick: install-dev
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile -m "not browser and not contract and not documents" $(PYTEST_ARGS)

migrate: install
	$(BIN)/flask db upgrade

## An RQ worker with its scheduler (needs REDIS_URL)
worker: install
	$(BIN)/flask worker

clean:
	rm -rf $(VENV) instance .pytest_cache
