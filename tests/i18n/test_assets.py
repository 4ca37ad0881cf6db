"""What the browser loads for languages: Django's JavaScript catalogue, per language and
before the site's scripts, and the Malayalam font, served from here for Malayalam only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

FONTS = tuple(f"fonts/noto-sans-malayalam-malayalam-{weight}-normal.woff2" for weight in (400, 700))


@pytest.mark.parametrize("language", ["en", "de", "es", "ml"])
def test_the_javascript_catalogue_answers_in_each_language(language):
    answer = Client().get(reverse("javascript-catalog", args=[language]))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    body = answer.content.decode()
    assert "django.gettext" in body and "interpolate" in body
    assert "max-age=3600" in answer["Cache-Control"]


def test_a_language_not_offered_has_no_catalogue():
    assert Client().get("/jsi18n/fr/").status_code == 404


def test_each_page_loads_its_language_s_catalogue_before_the_site_s_scripts():
    page = Client().get(reverse("rules-index"), headers={"accept-language": "es"})
    html = page.content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    catalogue = reverse("javascript-catalog", args=["es"])
    assert catalogue in scripts
    site = [i for i, src in enumerate(scripts) if "/static/js/" in src]
    assert site and scripts.index(catalogue) < min(site)


def test_the_malayalam_font_and_its_licence_are_served_from_here():
    for path in (*FONTS, "fonts/OFL.txt"):
        assert finders.find(path), path
    answer = Client().get(f"/static/{FONTS[0]}")
    assert answer.status_code == 200
    assert answer.getvalue()[:4] == b"wOF2"


def test_the_site_css_loads_the_font_for_malayalam_text_only():
    css = Path(str(finders.find("css/site.css"))).read_text(encoding="utf-8")
    faces = re.findall(r"@font-face \{(.*?)\}", css, re.DOTALL)
    assert len(faces) == 2
    for face, path in zip(faces, FONTS, strict=True):
        assert '"Noto Sans Malayalam"' in face
        assert f'url("../{path}")' in face
        assert "unicode-range: U+0D00-0D7F, U+200C-200D, U+25CC;" in face
    body = re.search(r"body \{(.*?)\}", css, re.DOTALL)
    assert body and '"Noto Sans Malayalam", sans-serif' in body.group(1)
