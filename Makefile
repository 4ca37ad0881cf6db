# Two commands for a newcomer: `make run` (the site) and `make test` (everything CI checks).
HOST ?= 127.0.0.1
PORT ?= 8000
UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
RUN := $(UV) run --locked

.PHONY: run serve test check pytest browser-deps proxy-deps server-deps i18n-deps messages \
	serve-cluster stop-cluster bench bench-bots bench-ratings clean

# uv is not on a fresh machine: bootstrap it into .tools/ with pip.
.tools/bin/uv:
	python3 -m venv .tools && .tools/bin/pip install -q uv

run: $(UV)  ## the site on SQLite + in-memory channel layer, served by daphne (autoreload)
	DEBUG=1 $(RUN) python manage.py migrate --noinput -v0
	DEBUG=1 $(RUN) python manage.py runserver $(HOST):$(PORT)

# Behind a proxy (BEHIND_PROXY=1, as the settings read it), daphne takes the client's
# address and scheme from the proxy's X-Forwarded-For and X-Forwarded-Proto.
PROXY_HEADERS := $(if $(filter 1 true yes on,$(shell echo '$(BEHIND_PROXY)' | tr A-Z a-z)),--proxy-headers)

serve: $(UV)  ## production-like: DEBUG off, collected static, plain daphne (set SECRET_KEY etc.)
	$(RUN) python manage.py migrate --noinput -v0
	$(RUN) python manage.py collectstatic --noinput -v0
	$(RUN) daphne -b $(HOST) -p $(PORT) $(PROXY_HEADERS) hundredten.asgi:application

browser-deps:  ## Debian's Chromium for the browser tests (Playwright cannot download one here)
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# nginx lives in /usr/sbin, which is not on every user's PATH.
proxy-deps:  ## Debian's nginx, for serve-cluster and the proxy test (tests/scaleout/test_proxy.py)
	@test -x /usr/sbin/nginx || { \
	  echo "Installing Debian's nginx for the cluster recipe and its test..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }

server-deps:  ## Debian's PostgreSQL and Redis, when missing
	@ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v redis-server >/dev/null || { \
	  echo "Installing Debian's PostgreSQL and Redis..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null; }

# nginx on HOST:PORT in front of PROCESSES daphne processes (ports PORT+1...) on PostgreSQL
# and Redis (DATABASE_URL, REDIS_URL; local ones by default): docs/deployment.md.
PROCESSES ?= 2
serve-cluster: $(UV) proxy-deps server-deps  ## nginx + PROCESSES daphne processes in the background
	$(RUN) python deploy/cluster.py start --processes $(PROCESSES) --host $(HOST) --port $(PORT)

stop-cluster:  ## stop what serve-cluster started (its pid files in .cluster/)
	python3 deploy/cluster.py stop

check: $(UV) i18n-deps  ## lint, format, type check, the import contracts (pyproject.toml), the catalogues
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	DEBUG=1 $(RUN) mypy .
	$(RUN) lint-imports
	bash locale/check.sh

# GNU gettext: msgfmt checks the catalogues, xgettext (make messages) reads the code.
i18n-deps:  ## Debian's gettext, for the catalogues' check and `make messages`
	@command -v msgfmt >/dev/null || { \
	  echo "Installing Debian's gettext for the translation catalogues..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# The catalogues (locale/<language>/LC_MESSAGES) follow the code's marked strings; the
# compiled .mo files are committed, so a checkout runs without gettext (docs/languages.md).
LANGS := -l de -l es -l ml
NOT_OURS := -i ".venv/*" -i ".tools/*" -i "tests/*" -i "bench/*" -i "node_modules/*" -i "staticfiles/*"
messages: $(UV) i18n-deps  ## refresh the catalogues from the code, then compile them
	DEBUG=1 $(RUN) python manage.py makemessages $(LANGS) --no-obsolete --add-location=file $(NOT_OURS)
	DEBUG=1 $(RUN) python manage.py makemessages -d djangojs $(LANGS) --no-obsolete --add-location=file $(NOT_OURS)
	DEBUG=1 $(RUN) python manage.py compilemessages -v0 --ignore=".venv/*" --ignore=".tools/*"

# Every test: all but the browser tests in two processes (pytest-xdist, a test file each at a
# time), then the browser tests, also in two (each worker its own daphne, database and
# Chromium; bench/results/suite.md: a browser test leaves a core idle a third of the time).
# pytest exits 5, failing make, if none ran.
# SKIP=any_topology leaves out the tests that cannot depend on the database or the channel
# layer (.ci/run's second pass, which has run them on the embedded default already).
# Each part ends with its slowest tests (--durations), so a CI log shows where the time goes.
ONLY = $(if $(SKIP), and not $(SKIP))
pytest: $(UV) browser-deps proxy-deps  ## every test
	$(RUN) pytest -n 2 --dist loadfile --durations=15 -m "not browser$(ONLY)"
	$(RUN) pytest -n 2 --dist loadfile --durations=15 -m "browser$(ONLY)"

test: check pytest

bench: $(UV)  ## engine benchmark (the others: README, docs/benchmarks.md)
	$(RUN) python manage.py simulate --games 200 --players 4 --seed bench --bots naive,naive,naive,naive
	$(RUN) python bench/engine.py

# The hard bots against medium ones in every game (about 45 minutes on 2 cores): docs/benchmarks.md.
bench-bots: $(UV)  ## bot strength and decision times; GAMES="hearts fifty-six" for some
	GAMES="$(GAMES)" $(RUN) bash bench/bots.sh

# The bot levels' ratings, 400 games a game (about 35 min on 2 cores; never in CI): bench/results/ratings_bots.md.
bench-ratings: $(UV)  ## hard > medium > easy by rating; KINDS=hearts for one game
	KINDS="$(KINDS)" $(RUN) bash bench/ratings_bots.sh

clean:
	rm -rf .venv .tools staticfiles test-artifacts
