"""Typed request classes for views (django-stubs cannot know about middleware)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    user: User
