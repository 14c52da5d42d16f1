"""Where the Mini App opens (issue 40): «🎴 Стол» under the group's table, a t.me/<bot>/<WEBAPP_NAME>?startapp= link
(a group takes no web_app button), and «🎴 Открыть стол», a web_app button to WEBAPP_URL?t=<token>, under every
private hand while the table is played. Nothing of it without WEBAPP_URL; the link needs WEBAPP_NAME too."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import ValidationError

from bot.config import Settings, describe_settings_error
from bot.i18n import Translations
from bot.services import Reply, TableService
from bot.storage import JsonObject, SqliteStorage
from bot.telegram.callbacks import MyCardsCb
from bot.telegram.calls import ApiRequest
from bot.telegram.pacer import Pacer
from bot.telegram.sender import Sender
from bot.webapp.links import MiniAppLinks
from bot.webapp.tokens import table_key, token_table
from tests.bot.test_play_alone import _first_deal_played
from tests.bot.test_services import (
    ANNA,
    BORIS,
    BOT,
    GROUP,
    FakeTime,
    RecordingApi,
    World,
    a_legal_play,
    admin,
    playing_table,
    state_of,
)
from tests.bot.test_webapp import TOKEN
from tests.bot.test_webapp import settings as webapp_settings

PAGE = "https://bura.example.org/webapp/"
APP = "table"


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.delenv("WEBAPP_NAME", raising=False)
    return webapp_settings(monkeypatch, **env)


def links(monkeypatch: pytest.MonkeyPatch, **env: str) -> MiniAppLinks | None:
    return MiniAppLinks.from_settings(settings(monkeypatch, **env), BOT)


@contextlib.asynccontextmanager
async def a_world(tmp_path: Path, mini_app: MiniAppLinks | None) -> AsyncIterator[World]:
    """tests/bot/test_services.py's world, its services composed with the Mini App's links."""
    time = FakeTime()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=time.clock)
    api = RecordingApi()
    pacer = Pacer(time.clock, time.sleep, per_chat_interval=0, global_per_second=None, group_limit=10_000)
    sender = Sender(storage, api, clock=time.clock, sleep=time.sleep, pacer=pacer)
    tables = TableService(storage, Translations(), sender, clock=time.clock, test_seed="services", mini_app=mini_app)
    yield World(storage, api, sender, tables, time)
    await sender.close()
    await storage.close()


class Drawn(Protocol):
    """A Bot API call, or an outbox message before it is one."""

    @property
    def payload(self) -> JsonObject: ...


def rows(call: Drawn) -> list[list[dict[str, Any]]]:
    markup = call.payload.get("reply_markup") or {"inline_keyboard": []}
    return list(markup["inline_keyboard"])


def every(call: Drawn) -> list[dict[str, Any]]:
    return [button for row in rows(call) for button in row]


def web_apps(call: Drawn) -> list[str]:
    return [button["web_app"]["url"] for button in every(call) if "web_app" in button]


def table_links(call: Drawn) -> list[str]:
    return [button["url"] for button in every(call) if "url" in button]


def table_pictures(world: World) -> list[ApiRequest]:
    """The group's table message as sent and edited (the ones with «🃏 Мои карты», or the last, buttonless)."""
    return [call for call in world.api.to(GROUP) if "🃏 Мои карты" in str(call.payload.get("reply_markup"))]


def private(world: World, user_id: int) -> list[ApiRequest]:
    return [call for call in world.api.to(user_id) if "ephemeral" not in call.payload and "text" in call.payload]


def in_group(world: World, user_id: int) -> list[ApiRequest]:
    return [call for call in world.api.to(user_id) if "ephemeral" in call.payload]


# -- the settings ------------------------------------------------------------------------------------------------


def test_webapp_name_is_a_botfather_short_name_and_needs_webapp_url(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=" bura_table ").webapp_name == "bura_table"
    assert settings(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME="").webapp_name is None
    assert settings(monkeypatch, WEBAPP_URL=PAGE).webapp_name is None
    for name in ("ab", "x" * 31, "bura-table", "bura table", "стол"):
        with pytest.raises(ValidationError) as caught:
            settings(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=name)
        assert describe_settings_error(caught.value).startswith("WEBAPP_NAME must be the Mini App's short name")
    with pytest.raises(ValidationError) as caught:
        settings(monkeypatch, WEBAPP_NAME="table")
    assert describe_settings_error(caught.value) == (
        "WEBAPP_NAME must not be set without WEBAPP_URL (the Mini App's page, which the link opens)"
    )


def test_the_links_name_the_table_by_its_token(monkeypatch: pytest.MonkeyPatch) -> None:
    assert links(monkeypatch) is None
    made = links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)
    assert made is not None
    key = table_key(TOKEN)
    link = made.startapp(7)
    assert link is not None and link.startswith(f"https://t.me/{BOT}/{APP}?startapp=t7_")
    assert token_table(key, link.split("startapp=", 1)[1]) == 7
    page = urlsplit(made.page(7))
    assert page._replace(query="").geturl() == PAGE
    assert token_table(key, parse_qs(page.query)["t"][0]) == 7
    assert made.page(7) == made.page(7), "the same every time"
    # A query of WEBAPP_URL's own is kept (its own t replaced), and so is a fragment.
    kept = links(monkeypatch, WEBAPP_URL="https://bura.example.org/webapp/?v=2&t=old#top")
    assert kept is not None and kept.startapp(7) is None, "no link without WEBAPP_NAME"
    parts = urlsplit(kept.page(7))
    assert (parse_qs(parts.query)["v"], len(parse_qs(parts.query)["t"]), parts.fragment) == (["2"], 1, "top")
    assert token_table(key, parse_qs(parts.query)["t"][0]) == 7
    # The bot's username unknown (a dispatcher made without one): the page, never a link naming nobody.
    nameless = MiniAppLinks.from_settings(settings(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP), None)
    assert nameless is not None and nameless.startapp(7) is None


# -- the group's table -------------------------------------------------------------------------------------------


async def test_the_group_s_table_opens_the_mini_app_at_that_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        table = await playing_table(world)
        picture = table_pictures(world)[-1]
        [[mine, opens]] = rows(picture)
        assert MyCardsCb.unpack(mine["callback_data"]).table == table.table_id
        assert opens["text"] == "🎴 Стол" and set(opens) == {"text", "url"}, "a link: a group takes no web_app"
        assert opens["url"].startswith(f"https://t.me/{BOT}/{APP}?startapp=")
        assert token_table(table_key(TOKEN), opens["url"].split("startapp=", 1)[1]) == table.table_id
        assert not any(web_apps(call) for call in world.api.to(GROUP))


async def test_without_webapp_name_the_group_s_table_has_no_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE)) as world:
        await playing_table(world)
        assert [len(row) for row in rows(table_pictures(world)[-1])] == [1], "«🃏 Мои карты» alone"
        for actor in (ANNA, BORIS):
            assert web_apps(private(world, actor.user_id)[-1]), "the private hands still open the page"


async def test_without_webapp_url_no_button_opens_anything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_world(tmp_path, links(monkeypatch)) as world:
        table = await playing_table(world)
        await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), ANNA, GROUP, "q-1", update_id=20)
        actor, button = a_legal_play(await world.table())
        await world.tables.game.tap(button, actor, update_id=21)
        await world.deliver()
        assert world.api.calls
        assert not any(web_apps(call) or table_links(call) for call in world.api.calls)


# -- the hands ---------------------------------------------------------------------------------------------------


async def test_each_private_hand_opens_the_page_at_its_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        table = await playing_table(world)
        for actor in (ANNA, BORIS):
            hand = private(world, actor.user_id)[-1]
            *cards, last = rows(hand)
            assert cards, "the hand's own buttons come first"
            assert last == [{"text": "🎴 Открыть стол", "web_app": {"url": last[0]["web_app"]["url"]}}], (
                "a row of its own, last"
            )
            [url] = web_apps(hand)
            assert url.startswith(f"{PAGE}?t=")
            assert token_table(table_key(TOKEN), parse_qs(urlsplit(url).query)["t"][0]) == table.table_id
        # After a move, the hands it changes keep the button, the same one.
        actor, button = a_legal_play(table)
        await world.tables.game.tap(button, actor, update_id=10)
        await world.deliver()
        edited = private(world, actor.user_id)[-1]
        assert edited.payload["text"] and web_apps(edited) == web_apps(private(world, actor.user_id)[0])


async def test_a_hand_drawn_in_the_group_has_no_web_app_button(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        table = await playing_table(world)
        for actor, query in ((ANNA, "qa"), (BORIS, "qb")):
            await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), actor, GROUP, query)
        await world.deliver()
        actor, button = a_legal_play(await world.table())
        await world.tables.game.tap(button, actor, update_id=30, in_group=GROUP)
        await world.deliver()
        for who in (ANNA, BORIS):
            shown = in_group(world, who.user_id)
            assert shown and not any(web_apps(call) for call in shown), "web_app buttons are for private chats"
        # The same hand in both places, but for the private chat's last row.
        group_hand, hand = in_group(world, actor.user_id)[-1], private(world, actor.user_id)[-1]
        assert group_hand.payload["text"] == hand.payload["text"]
        assert rows(group_hand) == rows(hand)[:-1] and web_apps(hand)


async def test_a_finished_table_opens_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        await playing_table(world)
        assert table_links(table_pictures(world)[-1]), "while it is played, the table has its link"
        seen = len(world.api.to(GROUP))
        assert await world.tables.game.stop(GROUP, BORIS, is_admin=admin(True), update_id=21) == Reply()
        await world.deliver()
        after = world.api.to(GROUP)[seen:]
        assert any(call.payload.get("text") for call in after), "the table's last picture"
        assert not any(table_links(call) or rows(call) for call in after), "no button under a finished table"
        for actor in (ANNA, BORIS):
            last = private(world, actor.user_id)[-1]
            assert not web_apps(last) and not rows(last), "the last hand has no button at all"


async def test_a_hand_with_nothing_new_is_not_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        table = await playing_table(world)
        state = state_of(table)
        messages = world.tables.core.messages
        # A commit that changes no hand (a move its seats cannot see): nothing for them, the button no news.
        assert await messages.hand_messages(table, state, table.version + 1) == []
        # Drawn again between commits (🔄, a reminder): the very same message.
        first = await messages.hand_messages(table, state, None)
        again = await messages.hand_messages(table, state, None)
        assert [m.payload for m in first] == [m.payload for m in again]
        assert len(first) == 2 and all(web_apps(message) for message in first)


# -- against the computer ----------------------------------------------------------------------------------------


async def test_play_alone_the_hand_carries_the_table_and_its_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        await world.tables.lobby.play_alone(ANNA, None, update_id=1)
        table = await world.storage.get_open_table(ANNA.user_id)
        assert table is not None
        await world.deliver()
        [hand] = private(world, ANNA.user_id)
        [url] = web_apps(hand)
        assert token_table(table_key(TOKEN), parse_qs(urlsplit(url).query)["t"][0]) == table.table_id
        assert not any(table_links(call) for call in world.api.calls), "no group, no t.me link"


async def test_play_alone_s_last_word_offers_another_game_not_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with a_world(tmp_path, links(monkeypatch, WEBAPP_URL=PAGE, WEBAPP_NAME=APP)) as world:
        await world.storage.upsert_chat(ANNA.user_id)
        await world.storage.set_chat_settings(ANNA.user_id, {"options": {"match": "one"}})  # a match of one deal
        await _first_deal_played(world)
        last = private(world, ANNA.user_id)[-1]
        assert [button["text"] for button in every(last)] == ["🔁 Сыграть ещё"]
        assert any(web_apps(call) for call in private(world, ANNA.user_id)), "while it was played, it had it"
