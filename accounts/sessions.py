"""Whether a session still signs its user in, for connections that outlive the request that
checked it (websockets: games/consumers/)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.core.exceptions import ValidationError
from django.utils.crypto import constant_time_compare, salted_hmac


def signed_in_user_pk(session_key: str | None) -> Any:
    """The pk of the user whom the session `session_key` signs in now, or None: the session
    is gone (signed out, expired, its key rotated), its backend is no longer configured,
    the user is gone or inactive, or their password changed since they signed in (the
    session's auth hash no longer matches).

    The checks of `django.contrib.auth.get_user` (Django 5.2.19; tests/fences/
    fails when an upgrade changes it), without its side effects: it flushes an
    invalid session and cycles the key of one verified by a fallback secret, which from
    outside a request would sign the browser out. This only reads.
    """
    if not session_key:
        return None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        user_pk = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(user_pk)
    if user is None:
        return None
    stored = session.get(HASH_SESSION_KEY)
    if not isinstance(stored, str) or not stored:
        return None
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    if not any(constant_time_compare(stored, expected) for expected in hashes):
        return None
    return user.pk


def session_digest(session_key: str) -> str:
    """A name for the session that can travel on the channel layer: the key itself is a
    bearer credential."""
    return salted_hmac("accounts.sessions.digest", session_key).hexdigest()
