"""Shared helpers for browser tests: signing up, gathering a table, and driving it.

Everything goes through the page like a person would, except `set_seed`, which fixes the
deal of a game that has not started (a `manage.py shell` subprocess with the daphne
server's environment, so it works on SQLite and PostgreSQL alike).

A `Mirror` follows the game with the pure engine in the test process: the tests know the
seed and every move (humans click what the mirror says; bots play the same naive
`suggestion`), so they know which version, phase, hand and legal cards each page must show.

By topic: `people` (signing up, pages, gathering and starting a table), `table_page` (the
table on a page and the control for each move), `keyboard` (reaching a control with Tab),
`mirror` (the game followed with the engine), `pictures` (the documentation's screenshots
and the looks they are taken in), `traffic` (what a page receives) and `console` (a page
watched for console errors and policy violations). Every helper can be imported from here
too.
"""

from __future__ import annotations

from tests.browser.helpers.console import REPORT_VIOLATIONS, Watched
from tests.browser.helpers.keyboard import RING, WHERE, focus_with_keys
from tests.browser.helpers.mirror import (
    Mirror,
    Recorded,
    expect_hand,
    legal_split,
    play_out,
    solo_game,
    wait_for_version,
)
from tests.browser.helpers.people import (
    DESKTOP,
    PASSWORD,
    PHONE,
    ROOM_URL,
    SOLO_SEED,
    TABLE_URL,
    add_bots,
    click_posting,
    create_game,
    invite,
    invite_and_accept,
    leave,
    live,
    no_sideways_scroll,
    not_reloaded,
    set_seed,
    settled,
    sign_up,
    sign_up_agreeing,
    sign_up_all,
    sign_up_on,
    solo_table,
    start,
    start_with_bots,
)
from tests.browser.helpers.pictures import DOCS_SHOTS, FITS, looks, picture
from tests.browser.helpers.table_page import (
    bid_label,
    choose_discards,
    click_move,
    click_sends_nothing,
    codes,
    first_turn,
    hand_codes,
    move_control,
    my_seat,
    reload_when_chosen,
    start_together,
    table,
    version,
)
from tests.browser.helpers.traffic import TABLE_URLS, PageTraffic, listen

__all__ = [
    "DOCS_SHOTS",
    "FITS",
    "looks",
    "picture",
    "DESKTOP",
    "PASSWORD",
    "PHONE",
    "REPORT_VIOLATIONS",
    "RING",
    "ROOM_URL",
    "SOLO_SEED",
    "TABLE_URL",
    "TABLE_URLS",
    "WHERE",
    "add_bots",
    "click_posting",
    "click_sends_nothing",
    "bid_label",
    "choose_discards",
    "click_move",
    "codes",
    "create_game",
    "expect_hand",
    "first_turn",
    "focus_with_keys",
    "hand_codes",
    "invite",
    "invite_and_accept",
    "leave",
    "legal_split",
    "listen",
    "live",
    "Mirror",
    "move_control",
    "my_seat",
    "no_sideways_scroll",
    "not_reloaded",
    "PageTraffic",
    "Recorded",
    "play_out",
    "reload_when_chosen",
    "set_seed",
    "settled",
    "sign_up",
    "sign_up_on",
    "solo_game",
    "solo_table",
    "sign_up_agreeing",
    "sign_up_all",
    "start",
    "start_together",
    "start_with_bots",
    "table",
    "version",
    "Watched",
    "wait_for_version",
]
