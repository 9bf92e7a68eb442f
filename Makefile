# Two commands on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export FLASK_APP := app

.PHONY: run test install install-dev migrate worker clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: $(BIN)/python requirements.txt
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/python -m app.resumes.documents.fonts
	$(BIN)/python -m app.i18n
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

## Serve the embedded default (SQLite, in-process jobs, mail in the log) on http://localhost:5000
# The host and port are BASE_URL's default (app/config.py): signed in at another host, a browser
# would be redirected to BASE_URL's host and have no cookie there (tests/test_config.py checks).
run: install
	$(BIN)/flask db upgrade
	$(BIN)/flask run --host localhost --port 5000

## Every test (set TEST_DATABASE_URL / TEST_REDIS_URL to use PostgreSQL and Redis)
test: install-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

migrate: install
	$(BIN)/flask db upgrade

## An RQ worker with its scheduler (needs REDIS_URL)
worker: install
	$(BIN)/flask worker

clean:
	rm -rf $(VENV) instance .pytest_cache
