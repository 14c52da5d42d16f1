"""Where the Mini App opens, end to end (issue 40): the real bot with WEBAPP_URL and WEBAPP_NAME against the strict
fake Bot API, which takes a web_app button in private chats only. The group's table carries «🎴 Стол», a
t.me/<bot>/<app>?startapp= link naming the table; each player's private hand carries «🎴 Открыть стол», a web_app
button to the page at that table, which the bot serves; the hand a player asks for in the group has none."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.table_settings import TableSettings
from bot.webapp.tokens import table_key, token_table
from tests.botapi import FakeTelegram, Message
from tests.e2e.balancer import free_port
from tests.e2e.conftest import Start
from tests.e2e.players import MOVE_WAIT, buttons, find_seed, greedy, seat_players

APP = "table"


def web_apps(message: Message | None) -> list[str]:
    """The pages the message's web_app buttons open."""
    if message is None:
        return []
    opened = [button["web_app"] for button in buttons(message) if "web_app" in button]
    return [str(each["url"]) for each in opened if isinstance(each, dict)]


async def test_the_table_and_the_private_hands_open_the_mini_app(tg: FakeTelegram, start: Start) -> None:
    port = free_port()
    page = f"http://127.0.0.1:{port}/webapp/"
    env = {"WEBAPP_URL": page, "WEBAPP_NAME": APP, "WEBAPP_HOST": "127.0.0.1", "WEBAPP_PORT": str(port)}
    seed = find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="webapp-buttons")
    storage = await start(seed, env)
    players = await seat_players(tg, storage, 2)
    key = table_key(tg.token)

    table = await players.table_shows()
    [link] = [button for button in buttons(table) if "url" in button]
    assert link["text"] == "🎴 Стол"
    url = str(link["url"])
    assert url.startswith(f"https://t.me/{tg.bot.username}/{APP}?startapp=")
    assert token_table(key, url.split("startapp=", 1)[1]) == players.table_id

    for seat in (0, 1):
        user = players.user(seat)
        hand = await tg.wait_for(lambda user=user: players.private_hand(user), MOVE_WAIT, "a hand")  # type: ignore[misc]
        [opens] = web_apps(hand)
        assert hand.keyboard[-1][0]["text"] == "🎴 Открыть стол"
        assert opens.startswith(f"{page}?t=")
        assert token_table(key, parse_qs(urlsplit(opens).query)["t"][0]) == players.table_id
        async with aiohttp.ClientSession() as session, session.get(opens) as response:
            assert response.status == 200, "the page the button opens is served"

    # The hand shown in the group, to one player alone: the group's, so no web_app button (Telegram refuses it).
    anna = players.user(0)
    shown = await players.show_in_group(anna)
    assert shown.keyboard and not web_apps(shown)

    # A deal played on: every edit of the table and of the hands, with their buttons, is taken.
    assert await players.play_deal(greedy) >= 2
    await tg.wait_for(lambda: web_apps(players.private_hand(players.user(1))), MOVE_WAIT, "the hand's button")
    refused = [(r.method, r.description) for r in tg.history if not r.ok and r.error_code == 400]
    assert refused == [], refused
    assert not any(web_apps(message) for message in tg.messages(players.group)), "none in the group"
    assert not any(web_apps(message) for message in tg.ephemeral_messages(players.group, anna))
