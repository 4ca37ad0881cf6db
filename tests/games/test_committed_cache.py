"""games.live.committed.CommittedCache: only committed values get in; the least recently used go."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.live.committed import CommittedCache

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_value_put_in_a_transaction_that_rolls_back_never_gets_in():
    cache: CommittedCache[str, int] = CommittedCache(size=4)
    with pytest.raises(RuntimeError), transaction.atomic():
        cache.put("move", 1)
        assert cache.get("move") is None  # not before the commit either
        raise RuntimeError("the move is refused")
    assert cache.get("move") is None
    with transaction.atomic():
        cache.put("move", 2)
    assert cache.get("move") == 2


def test_the_least_recently_used_value_goes_first_and_forget_drops_one():
    cache: CommittedCache[str, int] = CommittedCache(size=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    cache.forget("a")
    assert cache.get("a") is None
