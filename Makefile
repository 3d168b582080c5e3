# Every target makes the virtual environment when needed and installs the project into it,
# so `make run` and `make test` work on a fresh clone with nothing done before them.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

# Debian packages: headless Chromium and its driver for the browser tests (tests/server/web), the
# DejaVu fonts the board's PNG is drawn with, a Japanese font (IPA Gothic) for the Japanese pages
# in Chromium, and mutt, the mail client that replies over STARTTLS in
# tests/server/inbound/test_mutt.py. Installed with apt-get when one is missing.
DEBIAN_PACKAGES := chromium chromium-driver fonts-dejavu-core fonts-ipafont-gothic mutt

.PHONY: help venv run test lint bench openapi clean system-packages node-packages translations

help:
	@echo "make run      migrate var/iridescia.db and serve http://127.0.0.1:5000 (scheduler in-process, mail to var/outbox/, mail in on 127.0.0.1:2525)"
	@echo "make test     ruff and lint-imports, then the whole test suite on SQLite and PostgreSQL (127.0.0.1:5432, database test)"
	@echo "make bench    every benchmark under bench/ (figures in docs/performance.md)"
	@echo "make openapi  regenerate openapi.yaml from the app"
	@echo "make translations  extract the messages into the Japanese catalogs and compile them"
	@echo "make clean    remove .venv, var/ and caches"

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

system-packages:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages: $$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

run: $(STAMP)
	$(BIN)/iridescia-server serve --host 127.0.0.1 --port 5000

# ruff, then the architecture's contracts (pyproject.toml, docs/architecture.md): the layers,
# what the core may not know, and no import cycle at any depth.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache --no-logo

# The browser tests' npm packages (package.json: axe-core, loaded into Chromium to check the
# pages' accessibility), from the npm registry at the versions package-lock.json pins.
node-packages: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# pytest exits 5 when it collected no tests: say so, and fail like any other non-zero code.
test: lint system-packages node-packages
	@$(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; failing" >&2; fi; \
	exit $$rc

bench: $(STAMP)
	$(BIN)/python -m bench

# The Japanese catalogs (docs/i18n.md): extract each domain's messages, merge them into its ja .po
# (translate the new empty msgstr there), compile the .mo beside it. The .mo files are committed:
# a fresh clone, an installed wheel and CI run without a build step, and a test checks each .mo is
# its .po compiled. The engine's refusals are extracted by the keywords babel-engine.cfg gives
# its section (the error classes and Refusal, engine/errors.py), beside the -k here.
BABEL := $(BIN)/pybabel
define catalog
	mkdir -p $(2)
	$(BABEL) -q extract -F $(1) -k _ -k _h -k lazy_gettext --no-location --sort-output -w 100 \
		--project=Iridescia -o $(2)/$(3).pot .
	test -f $(2)/ja/LC_MESSAGES/$(3).po \
		|| $(BABEL) -q init -i $(2)/$(3).pot -d $(2) -D $(3) -l ja -w 100
	$(BABEL) -q update -i $(2)/$(3).pot -d $(2) -D $(3) -l ja --no-fuzzy-matching -w 100
	$(BABEL) -q compile -d $(2) -D $(3) -l ja --use-fuzzy
	rm $(2)/$(3).pot
endef

translations: $(STAMP)
	$(call catalog,babel.cfg,server/translations,messages)
	$(call catalog,babel-engine.cfg,engine/translations,engine)
	$(call catalog,babel-client.cfg,client/translations,client)

openapi: $(STAMP)
	$(BIN)/iridescia-server openapi > openapi.yaml.tmp && mv openapi.yaml.tmp openapi.yaml

clean:
	rm -rf $(VENV) var node_modules .pytest_cache .ruff_cache .hypothesis *.egg-info build dist
