"""The Mini App's API over the real services on a temporary SQLite storage, through aiohttp's test client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.games.bura.buttons import HandOp, pack_cards
from bot.i18n import Translations
from bot.services import Actor
from bot.storage import TableStatus
from bot.telegram.callbacks import HandCb
from bot.webapp import server
from bot.webapp.api import WebAppApi
from bot.webapp.tokens import table_key, table_token
from tests.bot.test_render_leaks import hidden_from_group, leaked
from tests.bot.test_services import (
    ANNA,
    BORIS,
    GROUP,
    VIKA,
    World,
    a_legal_play,
    a_world,
    playing_table,
    started,
    state_of,
)
from tests.bot.test_webapp_initdata import OTHER_TOKEN
from tests.matches import bura_match
from tests.webapp_auth import signed

TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnn"
DIMA = Actor(4, "Дима", "ru")  # in another group only
GLEB = Actor(5, "Глеб", "ru")  # Telegram cannot say whether he is in the group
MEMBERS = {(GROUP, ANNA.user_id), (GROUP, BORIS.user_id), (GROUP, VIKA.user_id)}


@dataclass
class MiniApp:
    world: World
    client: TestClient[web.Request, web.Application]
    api: WebAppApi
    asked: list[tuple[int, int]] = field(default_factory=list)
    last_token: str = ""

    def init_data(self, actor: Actor, *, token: str = TOKEN, age: float = 60.0) -> str:
        user = {"id": actor.user_id, "first_name": actor.name, "language_code": actor.language_code}
        return signed(token, user, time.time() - age)

    def auth(self, actor: Actor, **how: Any) -> dict[str, str]:
        return {"Authorization": f"tma {self.init_data(actor, **how)}"}

    async def token(self) -> str:
        """The token of the chat's open table; of the last one asked about, once it is closed."""
        open_table = await self.world.storage.get_open_table(GROUP)
        if open_table is not None:
            self.last_token = table_token(table_key(TOKEN), open_table.table_id)
        return self.last_token

    async def get(self, actor: Actor, **how: Any) -> tuple[int, dict[str, Any]]:
        response = await self.client.get(
            "/webapp/api/table", params={"t": await self.token()}, headers=self.auth(actor, **how)
        )
        return response.status, await response.json()

    async def post(self, actor: Actor, data: str, **how: Any) -> tuple[int, dict[str, Any]]:
        body = {"t": await self.token(), "data": data}
        response = await self.client.post("/webapp/api/tap", json=body, headers=self.auth(actor, **how))
        return response.status, await response.json()


@contextlib.asynccontextmanager
async def a_mini_app(tmp_path: Path) -> AsyncIterator[MiniApp]:
    """The services of `a_world`, with the Mini App's API on a test server before them."""
    asked: list[tuple[int, int]] = []

    async def is_member(chat_id: int, user_id: int) -> bool | None:
        asked.append((chat_id, user_id))
        return None if user_id == GLEB.user_id else (chat_id, user_id) in MEMBERS

    async with a_world(tmp_path) as world:
        api = WebAppApi(world.tables, bot_token=TOKEN, is_member=is_member, max_age=3600, poll=0.02, heartbeat=0.1)
        app = web.Application()
        server.add_routes(app, api)
        async with TestClient(TestServer(app)) as client:
            yield MiniApp(world, client, api, asked)


@pytest.fixture
async def mini(tmp_path: Path) -> AsyncIterator[MiniApp]:
    async with a_mini_app(tmp_path) as made:
        yield made


# -- who asks ------------------------------------------------------------------------------------------------


async def test_forged_expired_or_missing_init_data_is_refused(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    token = await mini.token()
    for headers, reason in (
        ({}, "missing"),
        ({"Authorization": "Bearer x"}, "missing"),
        (mini.auth(ANNA, token=OTHER_TOKEN), "forged"),
        (mini.auth(ANNA, age=3601), "expired"),
    ):
        response = await mini.client.get("/webapp/api/table", params={"t": token}, headers=headers)
        assert (response.status, await response.json()) == (401, {"error": reason})
        _, button = a_legal_play(table)
        response = await mini.client.post("/webapp/api/tap", json={"t": token, "data": button.pack()}, headers=headers)
        assert (response.status, await response.json()) == (401, {"error": reason})
    assert (await mini.world.table()).version == table.version


async def test_no_log_line_carries_the_init_data_or_the_token(mini: MiniApp, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    table = await playing_table(mini.world)
    actor, button = a_legal_play(table)
    given = [mini.init_data(actor), mini.init_data(actor, token=OTHER_TOKEN), mini.init_data(actor, age=7200)]
    for init_data in given:
        headers = {"Authorization": f"tma {init_data}"}
        body = {"t": await mini.token(), "data": button.pack()}
        await mini.client.post("/webapp/api/tap", json=body, headers=headers)
        await mini.client.get("/webapp/api/table", params={"t": await mini.token()}, headers=headers)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    secret = TOKEN.partition(":")[2]
    assert secret not in logged
    assert not any(init_data.partition("&hash=")[2] in logged for init_data in given)


async def test_init_data_of_another_user_does_not_play_his_hand(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    actor, button = a_legal_play(table)
    other = BORIS if actor is ANNA else ANNA
    expected = await mini.world.tables.game.tap(button, other)  # refused, changes nothing
    status, body = await mini.post(other, button.pack())
    assert status == 200 and body["alert"] and body["text"] == expected.text
    status, body = await mini.post(VIKA, button.pack())  # in the group, not at the table
    assert body == {"text": "You are not at this table.", "alert": True, "version": table.version, "hand": None}
    assert (await mini.world.table()).version == table.version


async def test_another_chats_table_is_refused(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    assert await mini.get(DIMA) == (403, {"error": "not_allowed"})
    assert mini.asked[-1] == (GROUP, DIMA.user_id)
    bad = [
        ("t999_AAAAAAAAAAAAAAAA", None),
        (table_token(table_key(OTHER_TOKEN), table.table_id), None),  # another bot's token for the same id
        (str(table.table_id), None),
    ]
    for token, _ in bad:
        response = await mini.client.get("/webapp/api/table", params={"t": token}, headers=mini.auth(ANNA))
        assert (response.status, await response.json()) == (404, {"error": "no_table"})
    # A button of this table sent with another table's token is forged.
    _, button = a_legal_play(table)
    other = table_token(table_key(TOKEN), table.table_id + 1)
    response = await mini.client.post(
        "/webapp/api/tap", json={"t": other, "data": button.pack()}, headers=mini.auth(ANNA)
    )
    assert (response.status, await response.json()) == (400, {"error": "bad_button"})
    for data in ("h:1:x", "not a button", "e:1"):
        assert await mini.post(ANNA, data) == (400, {"error": "bad_button"})
    assert (await mini.world.table()).version == table.version


# -- what each sees ------------------------------------------------------------------------------------------


async def test_a_seated_player_sees_his_hand_as_his_private_chat_shows_it(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    for actor in (ANNA, BORIS):
        status, view = await mini.get(actor)
        sent = [call for call in mini.world.api.to(actor.user_id) if call.payload.get("reply_markup")][-1].payload
        assert status == 200 and view["role"] == "player" and view["version"] == table.version
        assert view["text"] == sent["text"]
        drawn = [[(b["text"], b["callback_data"]) for b in row] for row in sent["reply_markup"]["inline_keyboard"]]
        assert [[(b["text"], b["data"]) for b in row] for row in view["buttons"]] == drawn
        assert all(HandCb.unpack(b["data"]).move == view["move"] for row in view["buttons"] for b in row)
    assert mini.asked == []  # a seated player is not asked about


async def test_a_member_who_is_not_seated_sees_the_groups_table(mini: MiniApp) -> None:
    await playing_table(mini.world)
    status, view = await mini.get(VIKA)
    group = [call for call in mini.world.api.to(GROUP) if "🃏" in str(call.payload.get("reply_markup"))][-1]
    assert status == 200 and (view["role"], view["seat"], view["buttons"]) == ("spectator", None, [])
    assert view["text"] == group.payload["text"]


def card_codes(value: Any) -> list[str]:
    """Every card code a board names, wherever it is in it."""
    if isinstance(value, dict):
        own = [value["code"]] if isinstance(value.get("code"), str) and "suit" in value else []
        return own + [code for each in value.values() for code in card_codes(each)]
    if isinstance(value, list):
        return [code for each in value for code in card_codes(each)]
    return []


def datas(hand: dict[str, Any]) -> list[str]:
    return [b["data"] for row in hand["buttons"] for b in row]


@pytest.mark.parametrize("seed", ["spectator-1", "spectator-2", "spectator-3"])
async def test_a_spectator_never_receives_a_hidden_card(tmp_path: Path, seed: str) -> None:
    """Random games played through the Mini App's own buttons (marks included); after every tap the spectator's
    view is checked against the engine's hidden cards."""
    rng = random.Random(seed)
    async with a_mini_app(tmp_path) as mini:
        mini.world.tables.core.test_seed = seed  # another deck for each game
        start = await playing_table(mini.world)
        tr = Translations().get("en")  # Vika reads English
        hands: dict[int, list[str]] = {}
        for _ in range(400):
            table = await mini.world.table()
            if table.status is not TableStatus.PLAYING:
                break
            match = bura_match(state_of(table).match)
            status, view = await mini.get(VIKA)
            assert status == 200 and view["role"] == "spectator" and view["buttons"] == []
            hidden = hidden_from_group(match.deal)
            assert leaked(view["text"], hidden, tr) == []
            assert not {card.code for card in hidden} & set(card_codes(view["board"]))  # the drawn table too
            seat = match.to_act()
            actor = next(a for a in (ANNA, BORIS) for s in table.seats if s.seat == seat and s.user_id == a.user_id)
            if actor.user_id not in hands:
                hands[actor.user_id] = datas((await mini.get(actor))[1])
            _, body = await mini.post(actor, rng.choice(hands[actor.user_id]))
            if body["hand"] is not None:
                hands[actor.user_id] = datas(body["hand"])
            else:
                hands.clear()
        assert (await mini.world.table()).version > start.version + 10


async def test_a_lobby_shows_no_text_and_an_unknown_member_is_asked_again_later(mini: MiniApp) -> None:
    await mini.world.tables.lobby.open(GROUP, ANNA, update_id=1)
    status, view = await mini.get(VIKA)
    assert status == 200 and (view["status"], view["text"], view["buttons"]) == ("lobby", None, [])
    assert await mini.get(GLEB) == (503, {"error": "try_again"})  # Telegram did not answer: ask again later


async def test_a_stopped_table_shows_its_last_picture_and_ends_the_stream(mini: MiniApp) -> None:
    await playing_table(mini.world)
    stream = await events(mini, ANNA)
    await next_event(stream)  # retry
    await next_event(stream)  # the version now

    async def yes() -> bool:
        return True

    await mini.world.tables.game.stop(GROUP, ANNA, is_admin=yes)
    for status_and_view in (await mini.get(ANNA), await mini.get(VIKA)):
        status, view = status_and_view
        assert status == 200 and view["status"] == "finished" and view["buttons"] == []
        assert view["text"]
    seen = [await next_event(stream) for _ in range(2)]
    assert [event.get("event") for event in seen if "comment" not in event][-1] == "end"
    stream.close()


async def test_a_game_against_the_computer_is_its_players_alone(mini: MiniApp) -> None:
    await started(mini.world, ANNA)
    await mini.world.tables.lobby.play_alone(ANNA, None, update_id=1)
    table = await mini.world.storage.get_open_table(ANNA.user_id)
    assert table is not None
    await mini.world.deliver()
    token = table_token(table_key(TOKEN), table.table_id)
    response = await mini.client.get("/webapp/api/table", params={"t": token}, headers=mini.auth(ANNA))
    view = await response.json()
    hand = [call for call in mini.world.api.to(ANNA.user_id) if call.payload.get("reply_markup")][-1].payload
    assert response.status == 200 and view["role"] == "player"
    # The table and the hand in one, as his chat shows it; without the deal's news, which the chat tells once.
    assert set(view["text"].splitlines()) <= set(hand["text"].splitlines()) and "Против" in view["text"]
    for other in (BORIS, VIKA):
        response = await mini.client.get("/webapp/api/table", params={"t": token}, headers=mini.auth(other))
        assert (response.status, await response.json()) == (403, {"error": "not_allowed"})
    assert mini.asked == []  # his private chat is nobody's group: nobody is asked about


# -- moves ---------------------------------------------------------------------------------------------------


async def test_a_tap_from_the_mini_app_plays_as_a_button_tap_does(tmp_path: Path) -> None:
    async with a_mini_app(tmp_path / "a") as by_button, a_mini_app(tmp_path / "b") as by_app:
        first = await playing_table(by_button.world)
        assert first.state == (await playing_table(by_app.world)).state
        for _ in range(6):
            table = await by_button.world.table()
            actor, button = a_legal_play(table)
            reply = await by_button.world.tables.game.tap(button, actor)
            status, body = await by_app.post(actor, button.pack())
            assert status == 200 and (body["text"], body["alert"]) == (reply.text, reply.alert)
            a, b = await by_button.world.table(), await by_app.world.table()
            assert (a.version, a.state) == (b.version, b.state) == (body["version"], b.state)
            assert await by_button.world.pending() == await by_app.world.pending()
            await by_button.world.deliver()
            await by_app.world.deliver()
            assert [c.payload for c in by_button.world.api.calls] == [c.payload for c in by_app.world.api.calls]


async def test_a_card_marked_in_the_mini_app_is_drawn_there_and_queues_nothing(tmp_path: Path) -> None:
    async with a_mini_app(tmp_path / "a") as by_button, a_mini_app(tmp_path / "b") as by_app:
        table = await playing_table(by_button.world)
        await playing_table(by_app.world)
        seat = next(s.seat for s in table.seats if s.user_id == ANNA.user_id)
        card = bura_match(state_of(table).match).deal.hands[seat][0]
        toggle = HandCb(table=table.table_id, move=table.version, op=HandOp.TOGGLE, cards=pack_cards([card]))
        await by_button.world.tables.game.tap(toggle, ANNA)
        await by_button.world.deliver()
        redrawn = by_button.world.api.to(ANNA.user_id)[-1].payload
        pending = await by_app.world.pending()
        status, body = await by_app.post(ANNA, toggle.pack())
        assert (status, body["alert"], body["version"]) == (200, False, table.version)
        assert body["hand"]["text"] == redrawn["text"]
        drawn = [[b["callback_data"] for b in row] for row in redrawn["reply_markup"]["inline_keyboard"]]
        assert [[b["data"] for b in row] for row in body["hand"]["buttons"]] == drawn
        assert await by_app.world.pending() == pending
        assert (await by_app.world.table()).state == table.state


async def test_a_stale_or_replayed_tap_is_refused_with_the_reason_and_changes_nothing(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    actor, button = a_legal_play(table)
    status, body = await mini.post(actor, button.pack())
    assert (status, body["alert"], body["version"]) == (200, False, table.version + 1)
    await mini.world.deliver()
    pending, after = await mini.world.pending(), await mini.world.table()
    status, body = await mini.post(actor, button.pack())  # the same tap again
    assert status == 200 and body["alert"] and body["text"] == "Эта кнопка устарела: стол уже изменился."
    stale = button.model_copy(update={"move": table.version - 1})
    expected = await mini.world.tables.game.tap(stale, actor)
    status, body = await mini.post(actor, stale.pack())
    assert (body["text"], body["alert"]) == (expected.text, True)
    now = await mini.world.table()
    assert (now.version, now.state) == (after.version, after.state)
    assert await mini.world.pending() == pending


# -- the event stream ----------------------------------------------------------------------------------------


async def events(mini: MiniApp, actor: Actor, last: int | None = None) -> Any:
    headers = mini.auth(actor)
    if last is not None:
        headers["Last-Event-ID"] = str(last)
    return await mini.client.get("/webapp/api/events", params={"t": await mini.token()}, headers=headers)


async def next_event(response: Any, timeout: float = 1.0) -> dict[str, str]:
    """The next event's fields (a comment line is an event named "comment")."""
    fields: dict[str, str] = {}
    while True:
        line = (await asyncio.wait_for(response.content.readline(), timeout)).decode().rstrip("\n")
        if not line:
            if fields:
                return fields
            continue
        if line.startswith(":"):
            return {"comment": line[1:].strip()}
        name, _, value = line.partition(":")
        fields[name] = value.strip()


async def test_the_stream_tells_every_commit_within_a_second(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    stream = await events(mini, VIKA)
    assert stream.status == 200 and stream.headers["Content-Type"] == "text/event-stream"
    assert await next_event(stream) == {"retry": "1000"}
    assert await next_event(stream) == {
        "id": str(table.version),
        "event": "version",
        "data": json.dumps({"version": table.version, "status": "playing"}),
    }
    actor, button = a_legal_play(table)
    await mini.world.tables.game.tap(button, actor)
    seen = await next_event(stream)
    while "comment" in seen:
        seen = await next_event(stream)
    assert (seen["id"], seen["event"]) == (str(table.version + 1), "version")
    stream.close()


async def test_the_stream_resumes_after_the_last_event_and_beats_while_quiet(mini: MiniApp) -> None:
    table = await playing_table(mini.world)
    stream = await events(mini, ANNA, last=table.version)
    assert await next_event(stream) == {"retry": "1000"}
    assert await next_event(stream) == {"comment": "heartbeat"}  # nothing new since his last event
    stream.close()
    assert (await events(mini, DIMA)).status == 403
    assert (await events(mini, ANNA, last=None)).status == 200


async def test_the_stream_ends_when_the_client_goes_away(mini: MiniApp) -> None:
    await playing_table(mini.world)
    stream = await events(mini, VIKA)
    await next_event(stream)
    stream.close()
    for _ in range(100):
        if not mini.api._watching:
            break
        await asyncio.sleep(0.02)
    assert mini.api._watching == {} and mini.api._read == {}


# -- on only with WEBAPP_URL ---------------------------------------------------------------------------------


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.chdir("/")  # away from any .env of the checkout
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    for name in ("WEBAPP_URL", "WEBHOOK_URL", "WEBHOOK_SECRET", "HTTP_PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()


async def test_without_webapp_url_nothing_of_the_mini_app_exists(
    mini: MiniApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(chat_id: int, user_id: int) -> bool | None:
        raise AssertionError("not asked")

    app = web.Application()
    assert await server.start(settings(monkeypatch), mini.world.tables, never, app) is None
    assert [resource.canonical for resource in app.router.resources()] == []
    with_url = settings(monkeypatch, WEBAPP_URL="https://bura.example.org/webapp/")
    assert await server.start(with_url, mini.world.tables, never, app) is None  # on the webhook's app
    assert "/webapp/api/table" in [resource.canonical for resource in app.router.resources()]


def test_webapp_url_must_be_https(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="https"):
        settings(monkeypatch, WEBAPP_URL="http://bura.example.org/webapp/")
    assert settings(monkeypatch, WEBAPP_URL="http://127.0.0.1:8081/webapp/").webapp_url is not None
    with pytest.raises(ValueError, match="HTTP_PORT"):
        settings(monkeypatch, WEBAPP_URL="https://bura.example.org/webapp/", HTTP_PORT="8081")


async def test_the_page_is_served(mini: MiniApp) -> None:
    response = await mini.client.get("/webapp/")
    assert response.status == 200 and 'src="static/app.js"' in await response.text()
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    script = await mini.client.get("/webapp/static/app.js")
    assert script.status == 200 and script.headers["X-Content-Type-Options"] == "nosniff"
    assert "telegram.org" not in await script.text()  # the page speaks to Telegram itself (static/telegram.js)


async def test_without_a_webhook_the_mini_app_has_a_server_of_its_own(
    mini: MiniApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(chat_id: int, user_id: int) -> bool | None:
        raise AssertionError("not asked")

    with_url = settings(monkeypatch, WEBAPP_URL="https://bura.example.org/webapp/", WEBAPP_HOST="127.0.0.1")
    runner = await server.serve(
        server.webapp_api(with_url, mini.world.tables, never) or pytest.fail("no api"), "127.0.0.1", 0
    )
    try:
        host, port = runner.addresses[0][:2]
        async with ClientSession() as session, session.get(f"http://{host}:{port}/webapp/api/table") as response:
            assert (response.status, await response.json()) == (401, {"error": "missing"})
    finally:
        await runner.cleanup()
