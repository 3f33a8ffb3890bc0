# Two commands for users (the README names only these):
#   make lab    create .venv if needed, install '.[lab]', open the Peaucellier notebook in JupyterLab
#   make test   install '.[lab,test]', plus Debian chromium, then ruff and the whole pytest suite
# Helpers: make install | install-test | lint | chromium | typecheck | help
# Not part of make test:  make lite   build a JupyterLite site into _site/ (docs/frontends.md)
#
# Variables you may override:  make test PYTEST_ARGS='-k smoke -x'
#   PYTHON      interpreter that creates .venv (default python3, needs >= 3.11)
#   CHROMIUM    browser for the browser tests (default /usr/bin/chromium)
#   PYTEST_WORKERS  pytest processes (default 2, pytest-xdist; 0 = one process). A test file
#               runs whole on one worker (--dist loadfile): its module fixtures and order hold

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
VPY := $(VENV)/bin/python
# pip runs only when a stamp is older than pyproject.toml (or missing); one stamp per set of
# extras, so `make lab` never installs the test tools and `make test` adds them on top
STAMP_LAB := $(VENV)/.linkage-widget-lab
STAMP_TEST := $(VENV)/.linkage-widget-lab-test
NOTEBOOK ?= notebooks/01_peaucellier.ipynb
CHROMIUM ?= /usr/bin/chromium
PYTEST_ARGS ?=
PYTEST_WORKERS ?= 2
# jupyter lab refuses to start as root without --allow-root
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: help lab test install install-test lint chromium typecheck lite

help:
	@echo "make lab    install '.[lab]' into $(VENV) (first time only) and open $(NOTEBOOK) in JupyterLab"
	@echo "make test   install '.[lab,test]', then ruff (lint, format) and the whole pytest suite (needs chromium)"
	@echo "helpers:    make install | install-test | lint | chromium | typecheck"

lab: install
	$(VENV)/bin/jupyter lab $(ALLOW_ROOT) $(NOTEBOOK)

test: install-test chromium lint
	@# numba compiles the small-linkage motion lane once (tens of seconds), into its disk
	@# cache; each pytest process then loads it in about a second (tests/conftest.py)
	$(VPY) -c "from linkage_widget.motion._small import compiled_available; compiled_available()"
	CHROMIUM=$(CHROMIUM) $(VPY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=10 \
		$(PYTEST_ARGS)

install: $(STAMP_LAB)

install-test: $(STAMP_TEST)

$(VPY):
	$(PYTHON) -m venv $(VENV)

# JupyterLab's defaults for this environment, as on Binder (binder/overrides.json)
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

$(STAMP_LAB): pyproject.toml binder/overrides.json | $(VPY)
	$(VPY) -m pip install -e '.[lab]'
	install -D -m 644 binder/overrides.json $(LAB_OVERRIDES)
	touch $@

# the test install includes the lab extra, so it also satisfies `make lab`
$(STAMP_TEST): pyproject.toml binder/overrides.json | $(VPY)
	$(VPY) -m pip install -e '.[lab,test]'
	install -D -m 644 binder/overrides.json $(LAB_OVERRIDES)
	touch $@ $(STAMP_LAB)

lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check linkage_widget tests benchmarks

# mypy over the package with --warn-unused-ignores ([tool.mypy] in pyproject.toml). Not part
# of `make test` yet: the session mixins give it ~500 errors until issue 23's redesign lands.
typecheck: install-test
	$(VPY) -m mypy

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

# JupyterLite: a static site (JupyterLab + the Pyodide kernel in the browser) with the
# linkage_widget wheel and the notebooks inside. Its own venv, so the project's .venv never
# gets the lite build tools; the widget libraries there supply the site's labextensions.
LITE_VENV ?= .venv-lite
LITE_STAMP := $(LITE_VENV)/.linkage-widget-lite
LITE_TOOLS := jupyterlite-core jupyterlite-pyodide-kernel jupyter-server \
	ipywidgets ipycanvas ipyevents jupyterlab_widgets threadpoolctl

$(LITE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install $(LITE_TOOLS)
	touch $@

lite: $(LITE_STAMP)
	$(LITE_VENV)/bin/python tools/build_lite.py --output _site
