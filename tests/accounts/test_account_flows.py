"""Every account flow: sign up, sign in (username or email), sign out, change and reset
the password, profile, failed-login throttling."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD, logged_in_client, make_user

pytestmark = pytest.mark.django_db


def sign_up(client: Client, username: str, email: str = "", password: str = PASSWORD):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def sign_in(client: Client, login: str, password: str = PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def test_signup_page_renders_our_layout(client: Client) -> None:
    page = client.get(reverse("account_signup")).content.decode()
    assert "Create your account" in page
    assert 'class="site-header"' in page
    assert "htmx-2" in page  # htmx served from local static, no CDN
    # Every script, style sheet, image and link is ours: nothing is fetched from elsewhere.
    # (A search for "cdn" in the page once failed on a random CSRF token that held it.)
    addresses = re.findall(r'(?:src|href|action)="([^"]*)"', page)
    assert addresses
    assert [a for a in addresses if not a.startswith(("/", "#"))] == []


def test_new_visitor_signs_up_without_email_and_lands_in_the_lobby(client: Client) -> None:
    response = sign_up(client, "erin")
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    user = User.objects.get(username="erin")
    assert user.email == ""
    assert client.get(reverse("lobby")).context["user"] == user


def test_a_taken_username_is_refused_with_a_message(client: Client, alice: User) -> None:
    response = sign_up(client, "alice")
    assert response.status_code == 200
    assert "already" in response.content.decode().lower()
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_a_taken_username_in_other_case_is_refused(client: Client, alice: User) -> None:
    sign_up(client, "ALICE")
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_mismatched_passwords_are_refused(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {"username": "erin", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="erin").exists()


def test_sign_in_by_username(client: Client, alice: User) -> None:
    response = sign_in(client, "alice")
    assert response.status_code == 302
    assert client.get(reverse("lobby")).context["user"] == alice


def test_sign_in_by_email(client: Client, alice: User) -> None:
    response = sign_in(client, "alice@example.com")
    assert response.status_code == 302
    assert client.get(reverse("lobby")).context["user"] == alice


def test_a_wrong_password_is_refused_with_a_message(client: Client, alice: User) -> None:
    response = sign_in(client, "alice", "not-her-password")
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert client.get(reverse("lobby")).context["user"].is_anonymous  # still signed out


def test_repeated_failed_logins_are_throttled(client: Client, alice: User) -> None:
    for _ in range(5):
        assert "not correct" in sign_in(client, "alice", "wrong").content.decode()
    # Even the right password is refused while the account is throttled.
    response = sign_in(client, "alice")
    assert response.status_code in {200, 429}
    assert "Too many failed login attempts" in response.content.decode()
    assert client.get(reverse("lobby")).context["user"].is_anonymous


def test_throttling_one_account_leaves_another_alone(
    client: Client, alice: User, bob: User
) -> None:
    for _ in range(5):
        sign_in(client, "alice", "wrong")
    assert sign_in(Client(), "bob").status_code == 302


def test_sign_out_needs_a_post_and_ends_the_session(alice: User) -> None:
    client = logged_in_client(alice)
    client.get(reverse("account_logout"))  # a GET only shows the confirmation
    assert client.get(reverse("lobby")).context["user"] == alice
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert client.get(reverse("lobby")).context["user"].is_anonymous


def test_the_lobby_requires_sign_in(client: Client) -> None:
    # Signed out, "/" is the landing page (games/views/pages.py); the lobby's parts want a user.
    assert "games/landing.html" in [t.name for t in client.get(reverse("lobby")).templates]
    for name in ("lobby-lists", "new-game"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))


def test_password_change(alice: User) -> None:
    client = logged_in_client(alice)
    new = "another-long-secret-77"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_password_change_with_a_wrong_current_password_changes_nothing(alice: User) -> None:
    client = logged_in_client(alice)
    new = "another-long-secret-77"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "wrong", "password1": new, "password2": new},
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_password_reset_link_from_the_console_backend(
    client: Client, alice: User, settings, capsys
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    printed = capsys.readouterr().out
    assert "alice@example.com" in printed
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", printed)
    assert link, printed
    # The key URL redirects once to a URL without the token (allauth hides it from referers).
    page = client.get(link.group(1), follow=True)
    assert page.status_code == 200
    new = "brand-new-secret-55"
    response = client.post(page.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)
    assert sign_in(Client(), "alice", new).status_code == 302


def test_password_reset_for_an_unknown_email_sends_nothing(client: Client, alice: User) -> None:
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert not any("nobody@example.com" in m.to for m in mail.outbox if "reset" in m.body)


def test_profile_sets_the_display_name(alice: User) -> None:
    client = logged_in_client(alice)
    response = client.post(reverse("profile"), {"display_name": "Alice A."})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."
    assert "Alice A." in client.get(reverse("profile")).content.decode()


def test_profile_display_name_falls_back_to_the_username(db: None) -> None:
    user = make_user("erin")
    user.display_name = ""
    assert user.shown_name == "erin"


def test_profile_requires_sign_in(client: Client) -> None:
    assert client.get(reverse("profile")).status_code == 302
