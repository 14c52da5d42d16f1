"""The real bot process in webhook mode (WEBHOOK_URL): the fake Bot API posts every update to it, as Telegram
does, and people play through it; the secret keeps everyone else out; a stop leaves the webhook set, and what
Telegram held meanwhile arrives after the restart."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import aiohttp

from bot.table_settings import TableSettings
from bot.telegram.webhook import SECRET_HEADER
from tests.botapi import FakeTelegram
from tests.botapi.conftest import make_bot
from tests.e2e.balancer import free_port
from tests.e2e.conftest import BotProcess, Launch
from tests.e2e.players import MOVE_WAIT, find_seed, greedy
from tests.e2e.reader import BotDatabase
from tests.e2e.test_game import open_table
from tests.e2e.test_observability import until

SECRET = "e2e-Hk7q2Zp9_Lw4Xn8Vb3Rt6Ym1Cd5Fg0"  # 32 random characters at least (bot/config.py)


def webhook_env(port: int) -> dict[str, str]:
    return {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram/updates",
        "WEBHOOK_SECRET": SECRET,
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }


async def post(url: str, update: dict[str, object], secret: str | None) -> int:
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    async with aiohttp.ClientSession() as session, session.post(url, json=update, headers=headers) as response:
        return response.status


async def test_a_game_is_played_through_the_webhook_and_only_telegram_gets_in(tg: FakeTelegram, launch: Launch) -> None:
    port = free_port()
    env = webhook_env(port)
    url = env["WEBHOOK_URL"]
    bot = await launch(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="webhook"), env=env)
    assert await until(f"http://127.0.0.1:{port}/healthz", 200) == "ok\n", "/healthz on the webhook's port"
    hook = tg.world.webhook
    assert hook is not None and (hook.url, hook.secret_token) == (url, SECRET)

    async with BotDatabase(bot.database) as storage:
        players = await open_table(tg, storage)  # the lobby, a join through the deep link, the start
        for _ in range(4):
            assert await players.move(greedy)

        # An update Telegram holds for a moment; posted by someone who does not know the secret, it is refused
        # and not even stored; with the secret it is handled once, and Telegram's own delivery of it after that
        # changes nothing.
        anna = players.user(0)
        await tg.wait_for(lambda: not tg.world.updates, MOVE_WAIT, "every update delivered")
        tg.webhook.pause()
        said = tg.send_message(anna, tg.private_chat(anna), "/help")
        [held] = tg.world.updates
        update = held.to_api()
        assert await post(url, update, secret=None) == 401
        assert await post(url, update, secret=SECRET[:-1] + "1") == 401
        assert not await storage.inbox_has(held.update_id)
        assert await post(url, update, secret=SECRET) == 200
        assert await storage.inbox_has(held.update_id), "stored before its 200"
        reply = await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)
        delivered = hook.delivered
        tg.webhook.pause(False)
        await tg.wait_for(lambda: hook.delivered > delivered, MOVE_WAIT, "Telegram's own delivery of /help")
        assert await players.move(greedy), "the game goes on"
        shown = [m.text for m in tg.messages(tg.private_chat(anna), from_bot=True) if m.message_id > said.message_id]
        assert shown.count(reply.text) == 1, "/help was answered once"

    async with make_bot(tg) as client:
        info = await client.get_webhook_info()
    assert (info.url, info.last_error_message, info.last_error_date) == (url, None, None)
    assert info.allowed_updates is not None and "callback_query" in info.allowed_updates
    assert hook.delivered > 10
    assert not [call for call in tg.history if call.method == "getUpdates"], "no polling in webhook mode"


async def test_a_stop_leaves_the_webhook_set_and_what_telegram_held_arrives_after_the_restart(
    tg: FakeTelegram, launch: Launch
) -> None:
    port = free_port()
    bot = await launch("webhook-restart", env=webhook_env(port))
    await until(f"http://127.0.0.1:{port}/healthz", 200)
    anna = tg.user("Аня", "anna")
    said = tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)
    await bot.stop()  # SIGTERM; exit code 0 is asserted there
    assert "deleteWebhook" not in {call.method for call in tg.history}

    hook = tg.world.webhook
    assert hook is not None, "other instances may still serve it"

    said = tg.send_message(anna, tg.private_chat(anna), "/help")
    error = await tg.wait_for(lambda: hook.last_error_message, MOVE_WAIT, "a post to the stopped bot")
    assert error.startswith("Connection failed"), error
    assert [update.payload.get("text") for update in tg.world.updates] == ["/help"], "Telegram holds it meanwhile"
    await bot.start()
    await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)
    await tg.wait_for(lambda: not tg.world.updates, MOVE_WAIT, "the held update confirmed")


async def test_a_webhook_url_telegram_refuses_is_one_line_and_exit_code_2(tg: FakeTelegram, launch: Launch) -> None:
    url = "https://bura.example.com:9999/hook"  # Telegram posts to ports 80, 88, 443 and 8443 only
    bot = await launch("webhook-refused", env=webhook_env(free_port()) | {"WEBHOOK_URL": url})
    assert bot.process is not None
    assert await asyncio.wait_for(bot.process.wait(), timeout=MOVE_WAIT) == 2
    assert bot.output().strip().splitlines()[-1] == (
        f"bura-bot: WEBHOOK_URL {url} was refused by Telegram: Bad Request: bad webhook: Webhook can be set up"
        " only on ports 80, 88, 443 or 8443"
    )
    assert tg.world.webhook is None


async def webhook_bot(launch: Launch, seed: str) -> tuple[BotProcess, str]:
    """The bot in webhook mode on a free port, once its /healthz says the webhook is set; and the webhook's URL."""
    port = free_port()
    env = webhook_env(port)
    bot = await launch(seed, env=env)
    await until(f"http://127.0.0.1:{port}/healthz", 200)
    return bot, env["WEBHOOK_URL"]


async def post_body(url: str, body: bytes) -> int:
    headers = {SECRET_HEADER: SECRET, "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as response:
        return response.status


async def test_malformed_updates_are_400_and_unreadable_ones_skipped_without_a_traceback(
    tg: FakeTelegram, launch: Launch
) -> None:
    bot, url = await webhook_bot(launch, "webhook-malformed")
    deep = 100_000
    for body in (
        b'{"update_id": 1180591620717411303424, "message": {}}',
        b'{"update_id": 900000001, "message": ' + b'{"a":' * deep + b"1" + b"}" * deep + b"}",
        b'{"update_id": 900000002, "message": "a string"}',
        b'["not", "an", "object"]',
        b'{"update_id": 900000003, "message": {"chat": {"id": 1180591620717411303424}}}',
        b'{"update_id": 900000004, "callback_query": {"data": 1e999}}',
    ):
        assert await post_body(url, body) == 400, body[:80]
    # Objects where objects belong, but no message Telegram would send: stored, skipped with one line.
    assert await post_body(url, b'{"update_id": 900000005, "message": {"chat": "x", "text": "/help"}}') == 200
    anna = tg.user("Аня", "anna")
    said = tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)  # the bot goes on
    async with BotDatabase(bot.database) as storage:
        assert await storage.inbox_has(900000005) and not await storage.inbox_has(900000002)
    skipped = [line for line in bot.output().splitlines() if "cannot read was skipped" in line]
    assert len(skipped) == 1 and "WARNING bot.app" in skipped[0], bot.output()
    # (the launch fixture fails the test on a traceback in the bot's log)


ODD_VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 2**31, 2**63 - 1, -(2**63), 1.5, -0.0, 1e308, "", "x" * 5000, "\u202e\u200b", "٣",
    [], {}, [[[]]], {"id": 1}, [None, {}], {"": ""},
)  # fmt: skip


def paths(value: object, at: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    yield at
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*at, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*at, index))


def mutated(update: dict[str, Any], rng: random.Random) -> bytes:
    """The update with one to three of its values replaced by odd ones or dropped, or its JSON text cut short."""
    body: Any = copy.deepcopy(update)
    if rng.random() < 0.1:
        text = json.dumps(body).encode()
        return text[: rng.randrange(len(text))]
    for _ in range(rng.randint(1, 3)):
        found = [path for path in paths(body) if path]
        if not found:
            break
        path = rng.choice(found)
        parent = body
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return json.dumps(body).encode()


async def test_a_thousand_odd_webhook_bodies_are_answered_without_a_500_or_a_traceback(
    tg: FakeTelegram, launch: Launch
) -> None:
    bot, url = await webhook_bot(launch, "webhook-odd")
    anna = tg.user("Аня", "anna")
    said = tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)
    group = tg.group("Группа", owner=anna, members=[])
    tg.add_bot(group)
    tg.webhook.pause()  # the next updates are held: their bodies are the seeds of the odd ones
    tg.send_message(anna, tg.private_chat(anna), "/help")
    tg.send_message(anna, group, "/new")
    seeds = [update.to_api() for update in tg.world.updates]
    tg.webhook.pause(False)
    rng = random.Random(35)
    statuses: Counter[int] = Counter()
    async with aiohttp.ClientSession() as session:
        headers = {SECRET_HEADER: SECRET, "Content-Type": "application/json"}
        for number in range(1000):
            seed = dict(rng.choice(seeds), update_id=10**9 + number)  # new ids: each one is stored and handled
            async with session.post(url, data=mutated(seed, rng), headers=headers) as response:
                statuses[response.status] += 1
    assert set(statuses) <= {200, 400}, statuses
    assert statuses[200] > 100 and statuses[400] > 100, statuses  # both kinds were tried
    # The bot goes on. Someone else asks: the forged bodies were Anna's commands, and the bot may have read the last
    # of them just now (on a loaded machine it reads them later than they came), which spends her commands for a
    # while (bot/handlers/throttle.py): her /help could rightly go unanswered.
    boris = tg.user("Борис", "boris")
    said = tg.start_bot(boris)
    await tg.wait_bot_message(tg.private_chat(boris), after=said, timeout=MOVE_WAIT)
    # Replies to the forged chats (ids 0, 1, 2**31...) were refused by Telegram: the only errors allowed.
    errors = [line for line in bot.output().splitlines() if " ERROR " in line and "chat not found" not in line]
    assert errors == [], errors
    # (the launch fixture fails the test on a traceback in the bot's log)
