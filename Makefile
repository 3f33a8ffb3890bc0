# Two commands for users (the README names only these):
#   make lab    create .venv if needed, install, open the Peaucellier notebook in JupyterLab
#   make test   same install, plus Debian chromium, then ruff and the whole pytest suite
# Helpers: make install | lint | chromium | help
#
# Variables you may override:  make test PYTEST_ARGS='-k smoke -x'
#   PYTHON      interpreter that creates .venv (default python3, needs >= 3.11)
#   CHROMIUM    browser for the browser tests (default /usr/bin/chromium)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
VPY := $(VENV)/bin/python
# pip runs only when this stamp is older than pyproject.toml (or missing)
STAMP := $(VENV)/.linkage-widget-installed
NOTEBOOK ?= notebooks/01_peaucellier.ipynb
CHROMIUM ?= /usr/bin/chromium
PYTEST_ARGS ?=
# jupyter lab refuses to start as root without --allow-root
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: help lab test install lint chromium

help:
	@echo "make lab    install into $(VENV) (first time only) and open $(NOTEBOOK) in JupyterLab"
	@echo "make test   install, then ruff (lint, format) and the whole pytest suite (needs chromium)"
	@echo "helpers:    make install | lint | chromium"

lab: install
	$(VENV)/bin/jupyter lab $(ALLOW_ROOT) $(NOTEBOOK)

test: install chromium lint
	CHROMIUM=$(CHROMIUM) $(VPY) -m pytest --durations=10 $(PYTEST_ARGS)

install: $(STAMP)

$(VPY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install -e '.[lab,test]'
	touch $@

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check linkage_widget tests benchmarks

# The browser tests drive Debian's chromium through Playwright (no Playwright browser
# download, which needs internet access that CI does not have).
chromium:
	@if [ -x "$(CHROMIUM)" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "$(CHROMIUM) missing: installing Debian's chromium"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get -o DPkg::Lock::Timeout=300 update; \
		apt-get -o DPkg::Lock::Timeout=300 install -y chromium; \
	else \
		echo "error: the browser tests need Chromium at $(CHROMIUM)." >&2; \
		echo "  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium" >&2; \
		echo "  or point CHROMIUM at another Chromium/Chrome: make test CHROMIUM=/path/to/chrome" >&2; \
		exit 1; \
	fi; \
	test -x "$(CHROMIUM)" || { echo "error: $(CHROMIUM) still missing after apt-get" >&2; exit 1; }
