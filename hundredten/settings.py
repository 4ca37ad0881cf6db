"""Settings for Hundred and Ten, read from the environment.

Embedded default (no variables set, DEBUG=1): SQLite and the in-memory channel layer.
Scale-out: DATABASE_URL (PostgreSQL via psycopg 3) and REDIS_URL (channels-redis, cache).
Production: DEBUG=0 with SECRET_KEY and ALLOWED_HOSTS set; `manage.py check --deploy` is clean.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import django_stubs_ext
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from hundredten.env import database_from_url, env_bool, env_int, env_list, env_str

# Lets `forms.ModelForm[User]` and friends be subscripted at run time (typing only).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# Off unless asked for; under pytest it defaults to on so tests need no secrets
# (pytest-django still runs each test with settings.DEBUG = False).
DEBUG = env_bool("DEBUG", default="PYTEST_VERSION" in os.environ)

# A server process tunes Python's garbage collector (hundredten/asgi.py); the test process
# does not.
GC_TUNING = env_bool("GC_TUNING", default="PYTEST_VERSION" not in os.environ)

# The development fallbacks below apply only when DEBUG is on; a production process
# without SECRET_KEY refuses to start rather than run with a key from the source code.
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "dev-only-insecure-key-never-used-when-debug-is-off-0123456789abcdef"

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A page whose token belongs to a session that is gone (signed out and in again in another
# tab): htmx reloads the page with a message, anything else gets a translated 403 page.
CSRF_FAILURE_VIEW = "accounts.signed_out.csrf_failure"

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves ASGI and websockets
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "csp",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the cookie the chooser sets, else the browser's Accept-Language; a
    # signed-in person's profile beats both (accounts.languages, after authentication).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.languages.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Signed out under an open page: an htmx request's redirect to the sign-in page becomes
    # an HX-Redirect there (next: the page), not a page swapped into a fragment; a GET on a
    # post-only URL gets a page, not an empty 405 (accounts/signed_out.py).
    "accounts.signed_out.HtmxSignInMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "hundredten.busy.BusyDatabaseMiddleware",
    "games.middleware.PresenceMiddleware",
]

ROOT_URLCONF = "hundredten.urls"
ASGI_APPLICATION = "hundredten.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game kind keeps its templates in its own folder (games/kinds/<game>/templates).
        "DIRS": [
            BASE_DIR / "templates",
            *sorted((BASE_DIR / "games" / "kinds").glob("*/templates")),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.comforts.comforts",
            ],
        },
    },
]

DATABASES: dict[str, dict[str, Any]]
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH") or BASE_DIR / "db.sqlite3",
            # A writer takes SQLite's lock as its transaction begins and one that finds it
            # taken waits (SQLite's busy handler, up to `timeout` seconds) instead of failing
            # at once; longer, the user is told to try again (hundredten/busy.py). WAL: pages
            # keep reading while a move is written.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL;",
            },
            # Request threads are kept between requests (hundredten.handlers), and so is
            # each one's connection: opening one cost a request about 0.85 ms of CPU.
            "CONN_MAX_AGE": 600,
            # Tests use a file, not the in-memory shared cache (where a second writer fails
            # at once with "table is locked"), so concurrency tests see real locking. One
            # per process, so test runs side by side do not collide.
            "TEST": {
                "NAME": env_str("SQLITE_TEST_PATH")
                or str(Path(tempfile.gettempdir()) / f"hundredten-test-{os.getpid()}.sqlite3")
            },
        }
    }

REDIS_URL = env_str("REDIS_URL")
CHANNEL_LAYERS: dict[str, dict[str, Any]]
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis's Redis Pub/Sub layer, as documented: a group message is one
            # PUBLISH, which each process subscribed to the group receives once and hands
            # to its own sockets there. The other layer (channels_redis.core) stores a copy
            # per socket in Redis and each socket pops its own: about a hundred Redis
            # commands per move instead of a handful (bench/results/scaleout.md). What
            # the Pub/Sub layer does not offer, we do not use: a message for a socket that
            # is gone is simply not delivered (every (re)connect draws the table afresh).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    # Shared by every daphne process, so login throttling counts across them; one
    # connection pool per process (hundredten/redis_pool.py), not one per request.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"pool_class": "hundredten.redis_pool.SharedConnectionPool"},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "hundredten.layers.SweepingInMemoryChannelLayer"}}
    # Presence counts and sessions live here: room for every one of them (the default
    # 300 entries would drop some once a few dozen games are open).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 200_000},
        }
    }
# Sessions are read from the cache (the database stays the record): one query fewer per
# request and per socket. The cache is shared by every process (Redis) or there is one.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-allauth: username sign-up with an optional email; sign in by username or email.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
# Sign-up sends a link to verify the address; signing in works without it. Game emails
# (games/mail/) go to verified addresses only.
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
# Refuses addresses at an IP literal or a local name (accounts/adapter.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = None
ACCOUNT_RATE_LIMITS = {
    # Failed sign-ins count per account name first (5 in 5 minutes, then even the right
    # password waits), then per address (30 a minute: one password tried on many
    # accounts). allauth stops at the first limit reached, so failures at an account
    # already throttled do not count against the address: an attack on one account
    # leaves the others at that address (a school, an office, a proxy) free to sign in.
    "login_failed": env_str("LOGIN_FAILED_LIMIT", "5/5m/key,30/m/ip"),
    # Every sign-in post, right or wrong, per address: a flood guard. allauth's default
    # (30 a minute) would stop a whole class signing in at once behind one address.
    "login": "60/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "signup": "20/m/ip",
    # Invite links emailed to an address, per client address (games/views/lobby/actions.py):
    # allauth's limiter, already counting sign-ins in the shared cache, with the client's
    # address behind a proxy as for sign-ins (BEHIND_PROXY).
    "invite_mail": env_str("INVITE_MAIL_CLIENT_LIMIT", "30/h/ip"),
    # Table talk, messages and reactions together, per person (games/talk/views.py): a
    # burst of 8 in 10 seconds, 40 a minute at most.
    "talk": env_str("TALK_LIMIT", "8/10s/user,40/m/user"),
    # Friend requests sent, per user (accounts/friend_views.py; docs/friends.md).
    "friend_request": env_str("FRIEND_REQUEST_LIMIT", "20/h/user"),
}
# Invite links emailed to an address, a day (24 hours) per sender and per address across
# all senders (games/services/lobby/letter_limits.py; counted in the database).
INVITE_MAIL_PER_SENDER = env_int("INVITE_MAIL_PER_SENDER", 20)
INVITE_MAIL_PER_ADDRESS = env_int("INVITE_MAIL_PER_ADDRESS", 3)
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby"
ACCOUNT_LOGOUT_REDIRECT_URL = "account_login"

EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Card tables <noreply@localhost>")
# The site's address as people reach it, for the links in emails (sent by the sweep thread,
# with no request to take the host from).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# English is the source language; the others come from the catalogues in locale/
# (docs/languages.md). No language prefix in URLs: a cookie and the profile choose.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
    ("es", _("Spanish")),
    ("ml", _("Malayalam")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The chooser's cookie (accounts/views.py language_choice), kept like the session's.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
TIME_ZONE = "UTC"
USE_I18N = True
# Our English date format (the rest are Django's, per language): hundredten/formats/.
FORMAT_MODULE_PATH = ["hundredten.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env_str("STATIC_ROOT") or BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static", *sorted((BASE_DIR / "games" / "kinds").glob("*/static"))]
# Serve app static without collectstatic in development and tests.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# HTTPS hardening: on by default in production, off for local plain-HTTP runs (HTTPS=0).
HTTPS = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if env_bool("BEHIND_PROXY", default=False):
    # One proxy of ours in front (run daphne with --proxy-headers, as `make serve` does):
    # trust its X-Forwarded-Proto, and count sign-in failures by the client address it
    # appends to X-Forwarded-For (the last one; those before it are the client's to write).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    ALLAUTH_TRUSTED_PROXY_COUNT = 1
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp) on every page: scripts, styles, images, sounds and
# connections from this site only, and no inline script, style or event handler anywhere
# (templates keep them in static/; tests/test_content_security_policy.py looks). htmx is
# told not to inject its indicator <style> and never to evaluate code from attributes
# (htmx-config in templates/base.html and the pages that override it). connect-src 'self'
# covers the htmx requests and, in CSP Level 3 browsers, ws:/wss: to the same host and port.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF],
        "media-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.NONE],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}

# The pause between two bot moves, so people can follow the play (0 in tests).
BOT_DELAY_SECONDS = float(env_str("BOT_DELAY_SECONDS", "0.8"))
# Undo by consent (games/services/undo.py): how long the other players have to answer when
# somebody asks to take back their last move; the clocks and bots wait as long.
UNDO_SECONDS = env_int("UNDO_SECONDS", 30)
# Worker processes for the hard bots' searches (games/bots/thinking.py): one per server process by
# default, none under pytest (the search then runs in the caller's thread). A search that
# takes longer than BOT_SEARCH_SECONDS is replaced by the medium bot's move.
BOT_SEARCH_PROCESSES = env_int("BOT_SEARCH_PROCESSES", 0 if "PYTEST_VERSION" in os.environ else 1)
BOT_SEARCH_SECONDS = float(env_str("BOT_SEARCH_SECONDS", "2"))
# Analysis of finished games (games/services/analysis.py, docs/analysis.md): the samples per
# decision (0: each game's own budget; tests and the browser tests use a tiny one), how many
# a person may ask for per hour, how many may wait at once, and how long a process's claim on
# one lasts without progress before another process starts it again.
ANALYSIS_BUDGET = env_int("ANALYSIS_BUDGET", 0)
ANALYSIS_PER_HOUR = env_int("ANALYSIS_PER_HOUR", 5)
ANALYSIS_QUEUE = env_int("ANALYSIS_QUEUE", 20)
ANALYSIS_CLAIM_SECONDS = env_int("ANALYSIS_CLAIM_SECONDS", 300)

# Getting past an absent player (games/services/absence.py): how long a player must have
# been away from the table before another may ask a bot to cover their seat (or the
# organizer give it to a stand-in), and before the organizer may abandon a game that every
# other human player has left. A request on a game's pages keeps its player present for
# COVER_GRACE_SECONDS too (games/live/presence.py: the away threshold).
COVER_GRACE_SECONDS = env_int("COVER_GRACE_SECONDS", 120)
ABANDON_AFTER_SECONDS = env_int("ABANDON_AFTER_SECONDS", 15 * 60)

# How long after a player's absence begins their turn email goes (games/mail/): one per
# absence; a player back at the table by then, or whose turn has passed, gets none.
TURN_MAIL_DELAY_SECONDS = float(env_str("TURN_MAIL_DELAY_SECONDS", "60"))

# The pause between two steps of a resolution played out on a table (One Hundred and
# Four's placements, games/steps.py), so people can follow it.
TABLE_STEP_SECONDS = float(env_str("TABLE_STEP_SECONDS", "0.9"))

# One handler, on the root logger. Django's default configuration gives its "django" logger a
# console handler of its own (on under DEBUG, from INFO), and that logger also propagates to the
# root: under `make run` every request line of daphne's runserver ("django.channels.server")
# and every 404 warning came out twice. Here "django" keeps no handler and propagates, at INFO
# under DEBUG (runserver's request lines) and at the root's level otherwise.
LOG_LEVEL = env_str("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django": {"handlers": [], "level": "INFO" if DEBUG else LOG_LEVEL}},
}

# The deadline sweep (games/clocks/deadlines.py): each server process looks for what is due this
# often, and at once when its own commit leaves a bot to move. It makes every bot move and
# applies every clock. Off in the test process (tests call `deadlines.tick`); on in servers.
DEADLINE_SWEEP = env_bool("DEADLINE_SWEEP", default="PYTEST_VERSION" not in os.environ)
DEADLINE_SWEEP_SECONDS = float(env_str("DEADLINE_SWEEP_SECONDS", "1"))
