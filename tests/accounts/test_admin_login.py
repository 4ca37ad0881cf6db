"""The admin signs in through the site's sign-in page (allauth's `secure_admin_login`), so
its failed sign-ins are throttled like everybody's; its own form signs nobody in."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

ADMIN = "/admin/"
ADMIN_LOGIN = "/admin/login/"


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(db: None):
    user = make_user("sam")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def sign_in(client: Client, login: str, password: str = PASSWORD, next_url: str = ""):
    data = {"login": login, "password": password}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("account_login"), data)


def signed_in_to_admin(client: Client) -> bool:
    return client.get(ADMIN).status_code == 200


def test_the_admin_sends_visitors_to_the_sites_sign_in(client: Client) -> None:
    response = client.get(ADMIN, follow=True)
    path, query = urlsplit(response.redirect_chain[-1][0])[2:4]
    assert path == reverse("account_login")
    assert parse_qs(query)["next"] == [ADMIN]
    assert response.status_code == 200


def test_the_admins_own_form_signs_nobody_in(client: Client, staff) -> None:
    response = client.post(ADMIN_LOGIN, {"username": "sam", "password": PASSWORD, "next": ADMIN})
    assert response.status_code == 302
    assert urlsplit(response["Location"]).path == reverse("account_login")
    assert not signed_in_to_admin(client)


def test_staff_reach_the_admin_after_signing_in_on_the_site(client: Client, staff) -> None:
    response = sign_in(client, "sam", next_url=ADMIN)
    assert response.status_code == 302
    assert response["Location"] == ADMIN
    assert signed_in_to_admin(client)
    # The admin's sign-in page, once signed in, leads to the admin.
    assert client.get(ADMIN_LOGIN)["Location"] == ADMIN


def test_guessing_the_admins_password_is_throttled(client: Client, staff) -> None:
    for _ in range(30):
        client.post(ADMIN_LOGIN, {"username": "sam", "password": "wrong"})
        sign_in(client, "sam", "wrong", next_url=ADMIN)
    # Then the right password, on either form: no way in while the account is throttled.
    client.post(ADMIN_LOGIN, {"username": "sam", "password": PASSWORD, "next": ADMIN})
    assert not signed_in_to_admin(client)
    response = sign_in(client, "sam", next_url=ADMIN)
    assert "Too many failed login attempts" in response.content.decode()
    assert not signed_in_to_admin(client)


def test_a_signed_in_player_is_refused_the_admin(client: Client, alice) -> None:
    sign_in(client, "alice")
    assert client.get(ADMIN_LOGIN).status_code == 403
