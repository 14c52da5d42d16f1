"""The Mini App's drawn table over the API: the board a player and a spectator get, a player's replays, and the
per-user limit on taps (bot/webapp/api.py; the boards themselves: tests/bot/games/test_*_board.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.games.bura.buttons import HandOp, pack_cards
from bot.handlers.throttle import Buckets, Rate
from bot.i18n import Translations
from bot.render.common import plain
from bot.services.replays import replay_texts
from bot.services.state import seat_names
from bot.storage import TableStatus
from bot.telegram.callbacks import HandCb
from bot.webapp import server
from bot.webapp.api import WebAppApi
from tests.bot.test_services import ANNA, BORIS, VIKA, a_legal_play, a_world, playing_table, state_of
from tests.bot.test_webapp import TOKEN, MiniApp, card_codes, mini
from tests.matches import bura_match

__all__ = ["mini"]


async def test_a_player_gets_his_hand_drawn_with_the_keyboards_own_buttons(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    seat = next(s.seat for s in table.seats if s.user_id == ANNA.user_id)
    status, view = await mini.get(ANNA)
    assert status == 200 and view["role"] == "player"
    board = view["board"]
    hand = bura_match(state_of(table).match).deal.hands[seat]
    assert sorted(card["face"]["code"] for card in board["hand"]) == sorted(card.code for card in hand)
    toggles = [b["data"] for row in view["buttons"] for b in row if HandCb.unpack(b["data"]).op == HandOp.TOGGLE]
    assert [card["data"] for card in board["hand"]] == toggles  # a card on the page sends its button's data
    others = [b["data"] for row in view["buttons"] for b in row if HandCb.unpack(b["data"]).op != HandOp.TOGGLE]
    assert {a["data"] for a in board["actions"]} <= set(others)
    assert board["deals_over"] == 0 and json.dumps(board)


async def test_a_mark_made_on_the_page_comes_back_drawn_marked(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    seat = next(s.seat for s in table.seats if s.user_id == ANNA.user_id)
    card = bura_match(state_of(table).match).deal.hands[seat][0]
    _, view = await mini.get(ANNA)
    data = next(c["data"] for c in view["board"]["hand"] if c["face"]["code"] == card.code)
    status, body = await mini.post(ANNA, data)
    assert status == 200 and body["hand"] is not None
    marked = [c["face"]["code"] for c in body["hand"]["board"]["hand"] if c["marked"]]
    assert marked == [card.code]
    assert (await mini.world.table()).state == table.state  # a mark changes nothing stored


async def test_a_spectator_gets_the_public_table_and_no_hand(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    status, view = await mini.get(VIKA)
    assert status == 200 and view["role"] == "spectator"
    board = view["board"]
    assert board["hand"] == [] and board["actions"] == []
    match = bura_match(state_of(table).match)
    hidden = {card.code for hand in match.deal.hands.values() for card in hand} - {match.deal.trump_card.code}
    assert not hidden & set(card_codes(board))
    assert {seat["name"] for seat in board["seats"]} == {ANNA.name, BORIS.name}  # as typed: the page sets text


async def test_a_player_replays_a_deal_that_is_over_and_nobody_else_does(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    for _ in range(200):
        table = await mini.world.table()
        if state_of(table).game.deal_number(state_of(table).match) > 1 or table.status is not TableStatus.PLAYING:
            break
        actor, button = a_legal_play(table)
        await mini.world.tables.game.tap(button, actor)
    table = await mini.world.table()
    token = await mini.token()
    response = await mini.client.get("/webapp/api/replay", params={"t": token, "deal": "1"}, headers=mini.auth(ANNA))
    body = await response.json()
    assert response.status == 200 and body["deal"] == 1
    seat = next(s.seat for s in table.seats if s.user_id == ANNA.user_id)
    assert table.state is not None
    texts = replay_texts(table.state, 1, seat, seat_names(table.seats), Translations().get("ru"))
    assert texts is not None
    assert body["lines"] == [line for text in texts for line in plain(text).split("\n")]
    assert not any("<b>" in line for line in body["lines"])
    for deal in ("2", "0", "x", ""):  # not over, none, not a number
        response = await mini.client.get(
            "/webapp/api/replay", params={"t": token, "deal": deal}, headers=mini.auth(ANNA)
        )
        assert (response.status, await response.json()) == (400, {"error": "no_deal"})
    response = await mini.client.get("/webapp/api/replay", params={"t": token, "deal": "1"}, headers=mini.auth(VIKA))
    assert (response.status, await response.json()) == (403, {"error": "not_allowed"})


async def test_taps_past_a_players_rate_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with a_world(tmp_path) as world:

        async def is_member(chat_id: int, user_id: int) -> bool | None:
            return True

        api = WebAppApi(
            world.tables, bot_token=TOKEN, is_member=is_member, max_age=3600, taps=Buckets(Rate(burst=2, every=60.0))
        )
        app = web.Application()
        server.add_routes(app, api)
        async with TestClient(TestServer(app)) as client:
            made = MiniApp(world, client, api)
            table = await playing_table(world)
            actor, button = a_legal_play(table)
            other = BORIS if actor == ANNA else ANNA
            seat = next(s.seat for s in table.seats if s.user_id == actor.user_id)
            hand = list(bura_match(state_of(table).match).deal.hands[seat])
            rng = random.Random(7)

            def a_mark() -> str:
                card = rng.choice(hand)
                return HandCb(
                    table=table.table_id, move=table.version, op=HandOp.TOGGLE, cards=pack_cards([card])
                ).pack()

            for _ in range(2):
                assert (await made.post(actor, a_mark()))[0] == 200
            pending = await world.pending()
            assert await made.post(actor, button.pack()) == (429, {"error": "slow_down"})
            after = await world.table()
            assert (after.version, after.state) == (table.version, table.state) and await world.pending() == pending
            assert (await made.post(other, a_mark()))[0] == 200  # his own bucket
            assert (await made.post(actor, button.pack()))[0] == 429  # hers refills one a minute
