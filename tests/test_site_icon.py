from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import Client


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("img/favicon.svg")
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert icon["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(icon.streaming_content)  # type: ignore[attr-defined]
