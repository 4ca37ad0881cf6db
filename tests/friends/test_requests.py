"""Friend requests: the lifecycle by POST, every refusal a 4xx sentence, the rate limit,
and malformed requests (GET, unknown names, huge bodies) never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import friends
from accounts.models import FriendRequest, Friendship
from tests.conftest import logged_in_client

pytestmark = pytest.mark.django_db


def post(client, name, username, **extra):
    return client.post(reverse(name), {"username": username, **extra})


def test_request_accept_then_remove(alice, bob):
    a, b = logged_in_client(alice), logged_in_client(bob)
    response = post(a, "friend-request", "bob", next="/players/bob/")
    assert response.status_code == 302 and response["Location"] == "/players/bob/"
    assert friends.relation(alice, bob) == "sent"
    assert friends.relation(bob, alice) == "received"
    assert "Bob" in a.get(reverse("lobby")).content.decode()  # "Waiting for an answer"
    assert post(b, "friend-accept", "alice").status_code == 302
    assert friends.are_friends(alice.pk, bob.pk)
    assert not FriendRequest.objects.exists()
    assert friends.friend_ids(alice.pk) == {bob.pk}
    assert post(a, "friend-remove", "bob").status_code == 302
    assert not Friendship.objects.exists()


def test_decline_and_cancel(alice, bob, carol):
    a, b = logged_in_client(alice), logged_in_client(bob)
    post(a, "friend-request", "bob")
    assert post(b, "friend-decline", "alice").status_code == 302
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()
    post(a, "friend-request", "carol")
    assert post(a, "friend-cancel", "carol").status_code == 302
    assert not FriendRequest.objects.exists()


def test_asking_someone_who_asked_you_makes_friends(alice, bob):
    post(logged_in_client(alice), "friend-request", "bob")
    assert post(logged_in_client(bob), "friend-request", "alice").status_code == 302
    assert friends.are_friends(alice.pk, bob.pk)


@pytest.mark.parametrize(
    ("setup", "name", "username", "status", "sentence"),
    [
        (None, "friend-request", "alice", 400, "to yourself"),
        (None, "friend-request", "nobody", 404, "There is nobody called “nobody”."),
        ("asked", "friend-request", "bob", 409, "You already asked Bob"),
        ("friends", "friend-request", "bob", 409, "are friends already"),
        (None, "friend-accept", "bob", 409, "Bob has not sent you a friend request."),
        (None, "friend-decline", "bob", 409, "Bob has not sent you a friend request."),
        (None, "friend-cancel", "bob", 409, "You have no friend request waiting with Bob."),
        (None, "friend-remove", "bob", 409, "You and Bob are not friends."),
        (None, "unblock", "bob", 409, "You have not blocked Bob."),
        (None, "block", "alice", 400, "You cannot block yourself."),
        (None, "block", "nobody", 404, "There is nobody called"),
    ],
)
def test_refusals_are_sentences_with_4xx(alice, bob, setup, name, username, status, sentence):
    client = logged_in_client(alice)
    if setup == "asked":
        friends.send_request(by=alice, username="bob")
    elif setup == "friends":
        friends.send_request(by=alice, username="bob")
        friends.accept_request(by=bob, username="alice")
    response = post(client, name, username)
    assert response.status_code == status
    assert sentence in response.content.decode()


def test_malformed_requests_are_4xx(alice, bob):
    client = logged_in_client(alice)
    for name in ("friend-request", "friend-accept", "block", "unblock", "friend-remove"):
        assert client.get(reverse(name)).status_code == 405
        assert client.post(reverse(name), {}).status_code == 400
        assert client.post(reverse(name), {"username": "x" * 151}).status_code == 400
        assert client.post(reverse(name), {"username": "nul\x00name"}).status_code in (400, 404)
    huge = {"username": "bob", "padding": "x" * (3 * 1024 * 1024)}
    assert client.post(reverse("friend-request"), huge).status_code == 400
    # An unsafe `next` is not followed.
    response = client.post(reverse("block"), {"username": "bob", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/players/bob/"


def test_signed_out_and_without_csrf(alice, bob):
    from django.test import Client

    assert Client().post(reverse("friend-request"), {"username": "bob"}).status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("friend-request"), {"username": "bob"}).status_code == 403
    assert not FriendRequest.objects.exists()


def test_friend_requests_are_rate_limited(settings, alice, django_user_model):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "friend_request": "3/h/user"}
    others = [django_user_model.objects.create_user(f"p{n}") for n in range(4)]
    client = logged_in_client(alice)
    for other in others[:3]:
        assert post(client, "friend-request", other.username).status_code == 302
    response = post(client, "friend-request", others[3].username)
    assert response.status_code == 429
    assert "many friend requests" in response.content.decode()
    assert FriendRequest.objects.count() == 3


def test_account_deletion_removes_friendships_requests_and_blocks(alice, bob, carol):
    from accounts import blocking

    friends.send_request(by=alice, username="bob")
    friends.accept_request(by=bob, username="alice")
    friends.send_request(by=carol, username="alice")
    blocking.block(by=alice, other=carol)
    friends.send_request(by=bob, username="carol")
    alice.delete()
    assert not Friendship.objects.exists()
    assert list(FriendRequest.objects.values_list("sender__username", flat=True)) == ["bob"]
    assert blocking.blocked_either_way(carol.pk) == set()


def test_export_holds_only_the_users_own_choices(alice, bob, carol, dave):
    from accounts import blocking

    friends.send_request(by=alice, username="bob")
    friends.accept_request(by=bob, username="alice")
    friends.send_request(by=alice, username="carol")
    blocking.block(by=dave, other=alice)  # dave's choice: not alice's data
    assert friends.export(alice) == {
        "friends": ["bob"],
        "friend_requests_sent": ["carol"],
        "friend_requests_received": [],
        "blocked": [],
    }
    assert friends.export(dave)["blocked"] == ["alice"]
