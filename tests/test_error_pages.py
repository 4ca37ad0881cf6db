from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_a_missing_page_is_a_friendly_404_in_our_layout(client: Client) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Not found" in page
    assert 'class="site-header"' in page


@pytest.mark.django_db
def test_the_500_page_needs_no_database_or_context(client: Client, settings) -> None:
    from django.template.loader import get_template

    html = get_template("500.html").render({})
    assert "Something went wrong" in html
