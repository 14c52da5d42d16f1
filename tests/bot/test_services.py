"""The table service on a real SQLite storage, with a recording fake of the Bot API behind the real sender."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.games.bura import card_text
from bot.games.bura.buttons import HandOp, pack_cards
from bot.games.bura.moments import Before
from bot.games.bura.moves import auto_action
from bot.games.bura.settings import MatchChoice
from bot.i18n import Translations
from bot.services import Actor, Reply, TableService, TableState
from bot.services.context import IsAdmin, IsMember
from bot.services.invites import invite_payload
from bot.services.state import AnyState
from bot.storage import OutboxKind, Seat, SqliteStorage, StorageUnavailable, Table, TableStatus
from bot.storage.sqlite import FaultHooks
from bot.storage.sqlite import tables as sqlite_tables
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyOp
from bot.telegram.calls import ApiRequest
from bot.telegram.pacer import Pacer
from bot.telegram.sender import Sender
from engine.bura.actions import Lead, RespondFaceDown, RespondOpen
from engine.bura.events import Claimed, DealEnded, TrickTaken
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD
from tests.e2e.players import find_seed
from tests.matches import bura_match

GROUP = -1001
BOT = "bura_test_bot"


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


class RecordingApi:
    """Every Bot API call the sender makes, in order; sends get fresh message ids."""

    def __init__(self) -> None:
        self.calls: list[ApiRequest] = []
        self.next_id = 100

    async def __call__(self, request: ApiRequest) -> int | None:
        self.calls.append(request)
        if request.kind is OutboxKind.SEND:
            self.next_id += 1
            return self.next_id
        return request.message_id

    def to(self, chat_id: int) -> list[ApiRequest]:
        return [call for call in self.calls if call.chat_id == chat_id]

    def texts(self, chat_id: int) -> list[str]:
        return [str(call.payload.get("text", "")) for call in self.to(chat_id)]


@dataclass
class World:
    storage: SqliteStorage
    api: RecordingApi
    sender: Sender
    tables: TableService
    time: FakeTime

    async def deliver(self) -> None:
        await self.sender.drain()

    async def table(self) -> Table:
        table = await self.storage.get_open_table(GROUP)
        assert table is not None
        return table

    async def pending(self) -> int:
        return len(await self.storage.fetch_outbox(now=1e12))


@contextlib.asynccontextmanager
async def a_world(tmp_path: Path, *, time_scale: float = 1.0) -> AsyncIterator[World]:
    time = FakeTime()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=time.clock)
    api = RecordingApi()
    pacer = Pacer(time.clock, time.sleep, per_chat_interval=0, global_per_second=None, group_limit=10_000)
    sender = Sender(storage, api, clock=time.clock, sleep=time.sleep, pacer=pacer)
    tables = TableService(
        storage, Translations(), sender, clock=time.clock, test_seed="services", time_scale=time_scale
    )
    yield World(storage, api, sender, tables, time)
    await sender.close()
    await storage.close()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with a_world(tmp_path) as made:
        yield made


ANNA = Actor(1, "Аня <3", "ru")
BORIS = Actor(2, "Борис", "ru")
VIKA = Actor(3, "Вика", "en")


def admin(value: bool) -> IsAdmin:
    async def is_admin() -> bool:
        return value

    return is_admin


def member(value: bool | None, asked: list[int] | None = None) -> IsMember:
    """Whether the actor is in the group asked about (None: Telegram could not tell); `asked` records the chats."""

    async def is_member(chat_id: int) -> bool | None:
        if asked is not None:
            asked.append(chat_id)
        return value

    return is_member


async def tap(
    world: World,
    op: LobbyOp,
    actor: Actor,
    update_id: int | None = None,
    is_admin: bool = False,
    is_member: bool | None = True,
) -> Reply:
    table = await world.table()
    return await world.tables.lobby.tap(
        table.table_id,
        op,
        GROUP,
        actor,
        update_id=update_id,
        is_admin=admin(is_admin),
        is_member=member(is_member),
        bot_username=BOT,
        title="Друзья",
    )


async def started(world: World, *actors: Actor) -> None:
    for actor in actors:
        await world.storage.upsert_user(actor.user_id, actor.name, language="ru")
        await world.storage.set_user_started(actor.user_id)


async def playing_table(world: World) -> Table:
    """Anna and Boris at a dealt table; every message delivered."""
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    reply = await tap(world, LobbyOp.START, ANNA, update_id=3)
    assert not reply.alert, reply
    await world.deliver()
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    return table


def state_of(table: Table) -> AnyState:
    assert table.state is not None
    return TableState.from_json(table.state)


def user_of(table: Table, seat: int) -> Actor:
    user_id = next(s.user_id for s in table.seats if s.seat == seat)
    return ANNA if user_id == ANNA.user_id else BORIS


def a_legal_play(table: Table) -> tuple[Actor, HandCb]:
    """The player to act and a button of his hand that plays his first legal lead or answer."""
    state = state_of(table)
    match = bura_match(state.match)
    seat = match.to_act()
    assert seat is not None
    action = next(a for a in match.legal_actions(seat) if isinstance(a, Lead | RespondOpen))
    move = state.shown_move(seat, table.version)  # the last move that changed his hand
    return user_of(table, seat), HandCb(table=table.table_id, move=move, op=HandOp.PLAY, cards=pack_cards(action.cards))


async def faulty_world(tmp_path: Path, hooks: Path) -> World:
    """A world whose database fails or stops where the files in `hooks` say (FaultHooks)."""
    hooks.mkdir()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", hooks=FaultHooks(hooks))
    time = FakeTime()
    api = RecordingApi()
    sender = Sender(storage, api)
    tables = TableService(storage, Translations(), sender, clock=time.clock, test_seed="services")
    return World(storage, api, sender, tables, time)


# -- lobby -----------------------------------------------------------------------------------------------------


async def test_new_opens_one_lobby_per_chat(world: World) -> None:
    assert await world.tables.lobby.open(GROUP, ANNA, update_id=1) == Reply()
    again = await world.tables.lobby.open(GROUP, BORIS, update_id=2)
    assert again.text is not None and "уже" in again.text
    await world.deliver()
    [lobby] = world.api.to(GROUP)
    assert lobby.kind is OutboxKind.SEND
    assert "Аня &lt;3" in str(lobby.payload["text"])  # the name is escaped
    table = await world.table()
    assert [seat.name for seat in table.seats] == ["Аня <3"]
    assert await world.storage.timers_due_by(world.time.now + 30 * 60) != []  # the idle lobby expires


async def test_join_sends_a_newcomer_through_the_private_chat(world: World) -> None:
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    reply = await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    payload = invite_payload(world.tables.core.invite_key, table.table_id)
    assert reply.url == f"https://t.me/{BOT}?start={payload}"
    assert len((await world.table()).seats) == 1
    asked: list[int] = []
    joined = await world.tables.rejoin.join_from_link(payload, BORIS, is_member=member(True, asked), update_id=3)
    assert joined.text is not None
    assert asked == [GROUP]  # his membership of the table's group was checked
    table = await world.table()
    assert [seat.user_id for seat in table.seats] == [ANNA.user_id, BORIS.user_id]
    await world.deliver()
    assert "Борис" in world.api.texts(GROUP)[-1]  # the lobby was edited in place
    assert world.api.to(GROUP)[-1].kind is OutboxKind.EDIT


async def test_a_stranger_cannot_walk_into_a_lobby(world: World) -> None:
    """Issue 35: `/start j<table id>` seated whoever sent it. Now an invitation is signed, and whoever follows it
    must be a member of the table's group; neither a made-up link nor a stranger changes anything."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    key = world.tables.core.invite_key
    good = invite_payload(key, table.table_id)
    forged = [
        f"j{table.table_id}",  # the old, guessable form
        f"j{table.table_id}_{'A' * 16}",
        good[:-1] + ("B" if good[-1] != "B" else "C"),
        invite_payload(key, table.table_id + 1),  # a table that does not exist (yet)
        invite_payload(b"another bot's key", table.table_id),
        f"j0{table.table_id}_{good.split('_', 1)[1]}",  # not canonical
        "j",
        "j" + "9" * 40,
    ]
    for update_id, payload in enumerate(forged, start=10):
        reply = await world.tables.rejoin.join_from_link(payload, VIKA, is_member=member(True), update_id=update_id)
        assert reply.text == "This table is gone. Send /new in the group to start a new one.", payload
    # A valid invitation in the hands of someone who is not in the group (or whose membership cannot be told).
    outsider = await world.tables.rejoin.join_from_link(good, VIKA, is_member=member(False), update_id=30)
    assert outsider.text == "Only members of the table's group can sit at it."
    unknown = await world.tables.rejoin.join_from_link(good, VIKA, is_member=member(None), update_id=31)
    assert unknown.text is not None and "try again" in unknown.text
    # And the lobby's own button, tapped by someone who sees the group without being in it (a public group).
    refused = await tap(world, LobbyOp.JOIN, VIKA, update_id=32, is_member=False)
    assert refused == Reply("Only members of the table's group can sit at it.", alert=True)
    after = await world.table()
    assert [seat.user_id for seat in after.seats] == [ANNA.user_id]
    assert after.version == table.version


async def test_the_creator_removes_a_player_from_the_lobby(world: World) -> None:
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    for user in (BORIS, VIKA):
        await world.storage.upsert_user(user.user_id, user.name, language="ru")
        await world.storage.set_user_started(user.user_id)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await tap(world, LobbyOp.JOIN, VIKA, update_id=3)
    table = await world.table()
    # Neither a player nor a stranger may remove anyone; the creator cannot be removed.
    refused = await world.tables.lobby.remove_player(
        table.table_id, VIKA.user_id, GROUP, BORIS, is_admin=admin(False), update_id=4
    )
    assert refused == Reply("Это может сделать только тот, кто собрал стол, или админ группы.", alert=True)
    creator = await world.tables.lobby.remove_player(
        table.table_id, ANNA.user_id, GROUP, BORIS, is_admin=admin(True), update_id=5
    )
    assert creator.alert
    assert (await tap(world, LobbyOp.REMOVE_PLAYER, BORIS, update_id=6)).alert  # the list is the creator's
    assert await tap(world, LobbyOp.REMOVE_PLAYER, ANNA, update_id=7) == Reply()
    await world.deliver()
    shown = world.api.to(GROUP)[-1]
    assert shown.payload["text"] == "Кого убрать из-за стола?"
    removed = await world.tables.lobby.remove_player(
        table.table_id, BORIS.user_id, GROUP, ANNA, is_admin=admin(False), update_id=8
    )
    assert removed == Reply("Борис больше не за столом.")
    after = await world.table()
    assert [(seat.seat, seat.user_id) for seat in after.seats] == [(0, ANNA.user_id), (1, VIKA.user_id)]
    await world.deliver()
    assert "Борис" not in str(world.api.to(GROUP)[-1].payload["text"])  # back to the lobby, without him


async def test_the_start_refusal_fits_an_alert_however_many_cannot_be_reached(world: World) -> None:
    """Issue 35: «Не могу прислать карты: …» listed every name and grew past Telegram's 200 characters, so the
    host's tap was never answered. The alert names three and counts the rest; the group's message names all."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await world.storage.set_user_started(ANNA.user_id)
    table = await world.table()
    long_names = [Seat(seat=0, user_id=ANNA.user_id, name=ANNA.name)] + [
        Seat(seat=n, user_id=100 + n, name=f"{'Очень длинное имя игрока'} {n}") for n in range(1, 6)
    ]
    await world.storage.commit_move(table.table_id, table.version, None, seats=long_names)
    reply = await tap(world, LobbyOp.START, ANNA, update_id=2)
    assert reply.alert and reply.text is not None
    assert len(reply.text) <= 200
    assert reply.text.startswith("Не могу прислать карты: Очень длинное имя игрока 1, ")
    assert " и ещё 2." in reply.text
    await world.deliver()
    told = world.api.texts(GROUP)[-1]
    assert all(f"Очень длинное имя игрока {n}" in told for n in range(1, 6))


async def test_join_and_leave(world: World) -> None:
    await started(world, BORIS, VIKA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    assert (await tap(world, LobbyOp.JOIN, BORIS, update_id=2)).url is None
    await tap(world, LobbyOp.JOIN, VIKA, update_id=3)
    assert (await tap(world, LobbyOp.JOIN, VIKA, update_id=4)).text == "You are already at the table."
    await tap(world, LobbyOp.LEAVE, BORIS, update_id=5)
    table = await world.table()
    assert [(seat.seat, seat.user_id) for seat in table.seats] == [(0, ANNA.user_id), (1, VIKA.user_id)]


async def test_only_the_creator_or_an_admin_starts(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    alone = await tap(world, LobbyOp.START, ANNA, update_id=2)
    assert alone.alert and alone.text is not None and "хотя бы 2" in alone.text
    await tap(world, LobbyOp.JOIN, BORIS, update_id=3)
    refused = await tap(world, LobbyOp.START, BORIS, update_id=4)
    assert refused.alert
    assert (await world.table()).status is TableStatus.LOBBY
    await tap(world, LobbyOp.START, BORIS, update_id=5, is_admin=True)
    assert (await world.table()).status is TableStatus.PLAYING


async def test_a_match_that_ends_as_it_is_dealt_is_finished_in_the_database(world: World) -> None:
    """Issue 35: a one-deal match won by a dealt «Бура!» (RULES §7) ended in the chats but stayed `playing` in the
    database (the start committed PLAYING whatever the deal did). Now it is finished there too, and unpinned."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})

    def over_at_once(match: Match) -> bool:
        return match.finished

    world.tables.core.test_seed = find_seed(settings, 2, over_at_once, prefix="over-at-start")
    await world.storage.upsert_chat(GROUP, language="ru")
    await world.storage.set_chat_settings(GROUP, {"match": MatchChoice.SINGLE_DEAL.value})
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    table = await world.table()
    reply = await tap(world, LobbyOp.START, ANNA, update_id=3)
    assert not reply.alert, reply
    finished = await world.storage.get_table(table.table_id)
    assert finished is not None and finished.status is TableStatus.FINISHED
    assert await world.storage.get_open_table(GROUP) is None  # the group may open its next table
    await world.deliver()
    assert OutboxKind.UNPIN in [call.kind for call in world.api.to(GROUP)]
    assert any("Бура!" in text for text in world.api.texts(GROUP))


async def test_start_needs_every_player_reachable(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await world.storage.set_user_blocked(BORIS.user_id)
    refused = await tap(world, LobbyOp.START, ANNA, update_id=3)
    assert refused.alert and refused.text is not None and "Борис" in refused.text
    assert (await world.table()).status is TableStatus.LOBBY


async def test_start_deals_the_table_and_the_hands(world: World) -> None:
    table = await playing_table(world)
    group = world.api.to(GROUP)
    # The lobby gives way to the deal's announcement and the table, pinned silently (issue #12: a table that sinks).
    kinds = [OutboxKind.DELETE, OutboxKind.SEND, OutboxKind.SEND, OutboxKind.PIN]
    assert [call.kind for call in group[-4:]] == kinds
    assert group[-1].message_id is not None  # the table's own message
    for actor in (ANNA, BORIS):
        [hand] = world.api.to(actor.user_id)
        assert hand.kind is OutboxKind.SEND
        assert "inline_keyboard" in hand.payload["reply_markup"]
    assert await world.storage.get_message_ref(ANNA.user_id, f"hand:{table.table_id}") is not None
    assert state_of(table).title == "Друзья"
    assert await world.storage.timers_due_by(world.time.now + 60) != []


async def test_cancel_and_idle_expiry(world: World) -> None:
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    assert (await tap(world, LobbyOp.CANCEL, BORIS, update_id=2)).alert
    await tap(world, LobbyOp.CANCEL, ANNA, update_id=3)
    assert await world.storage.get_open_table(GROUP) is None
    await world.tables.lobby.open(GROUP, BORIS, update_id=4)
    world.time.now += 30 * 60 + 1
    assert await world.tables.timers.fire_due() == 1
    assert await world.storage.get_open_table(GROUP) is None


# -- moves -----------------------------------------------------------------------------------------------------


async def test_a_move_commits_state_events_and_outbox_together(world: World) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    assert await world.tables.game.tap(button, actor, update_id=10) == Reply()
    after = await world.table()
    assert after.version == table.version + 1
    assert len(bura_match(state_of(after).match).actions) == 1
    pending = await world.storage.fetch_outbox(now=1e12)
    kinds = {(item.chat_id, item.ref) for item in pending}
    assert (GROUP, "table") in kinds
    assert {(ANNA.user_id, f"hand:{table.table_id}"), (BORIS.user_id, f"hand:{table.table_id}")} <= kinds
    assert await world.storage.get_events(table.table_id) != []


async def test_a_failed_commit_leaves_nothing_behind(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug half-way through the commit")

    monkeypatch.setattr(sqlite_tables, "add_stats", broken)
    with pytest.raises(RuntimeError):
        await world.tables.game.tap(button, actor, update_id=10)
    after = await world.table()
    assert (after.version, after.state) == (table.version, table.state)
    assert await world.pending() == 0
    assert not await world.storage.is_update_processed(10)


async def test_a_failed_commit_does_not_leave_its_state_in_memory(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live state is taken out while a move is made: a move that fails after the engine applied it must not
    leave that half-made state for the next tap, which reads the database instead."""
    table = await playing_table(world)
    actor, button = a_legal_play(table)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(world.storage, "commit_move", broken)
        with pytest.raises(RuntimeError):
            await world.tables.game.tap(button, actor, update_id=10)
    assert await world.tables.game.tap(button, actor, update_id=11) == Reply()
    after = await world.table()
    assert after.version == table.version + 1
    assert len(bura_match(state_of(after).match).actions) == 1, "the move was applied once"


async def test_moves_reuse_the_committed_state_at_its_version_only(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await playing_table(world)
    replays: list[int] = []
    parse = TableState.from_json

    def counting(text: str) -> AnyState:
        replays.append(1)
        return parse(text)

    monkeypatch.setattr(TableState, "from_json", staticmethod(counting))
    for update_id in (10, 11):
        actor, button = a_legal_play(await world.table())
        assert await world.tables.game.tap(button, actor, update_id=update_id) == Reply()
    assert len(replays) == 2, "only a_legal_play read the state: the start's and each move's were kept in memory"
    # A change that commits no state (here: only the version moves on) makes the kept one stale.
    await world.tables.core.commit(await world.table())
    actor, button = a_legal_play(await world.table())
    assert await world.tables.game.tap(button, actor, update_id=12) == Reply()
    assert len(replays) == 4, "the move read the table from the database"
    assert len(bura_match(state_of(await world.table()).match).actions) == 3


async def test_an_accepted_tap_is_answered_only_once_its_move_is_on_the_disk(tmp_path: Path) -> None:
    """The handler answers a tap with what `tap` returns, so `tap` must not return before the commit is durable:
    here the commit is held in the writer's thread (as a slow disk would), and the answer waits for it."""
    hooks = tmp_path / "hooks"
    world = await faulty_world(tmp_path, hooks)
    try:
        table = await playing_table(world)
        actor, button = a_legal_play(table)
        (hooks / "hold-commit").touch()
        answering = asyncio.create_task(world.tables.game.tap(button, actor, update_id=10))
        for _ in range(500):
            if (hooks / "commit-held").exists():
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert not answering.done(), "no answer while the move is not durable"
        (hooks / "hold-commit").unlink()
        assert await answering == Reply()
        assert (await world.table()).version == table.version + 1
    finally:
        await world.storage.close()


async def test_a_move_the_disk_cannot_take_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks"
    world = await faulty_world(tmp_path, hooks)
    try:
        table = await playing_table(world)
        actor, button = a_legal_play(table)
        (hooks / "disk-full").touch()
        with pytest.raises(StorageUnavailable):
            await world.tables.game.tap(button, actor, update_id=10)
        assert await world.table() == table
        (hooks / "disk-full").unlink()
        assert await world.tables.game.tap(button, actor, update_id=11) == Reply()
        after = await world.table()
        assert after.version == table.version + 1 and len(bura_match(state_of(after).match).actions) == 1
    finally:
        await world.storage.close()


async def test_refresh_on_an_old_keyboard_redraws_the_hand_as_it_is_now(world: World) -> None:
    """A hand that never arrived leaves the player with an old keyboard: its 🔄 still brings the current one."""
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    assert await world.tables.game.tap(button, actor, update_id=10) == Reply()
    await world.deliver()
    old = HandCb(table=table.table_id, move=table.version, op=HandOp.REFRESH, cards="QSQS")
    assert await world.tables.game.tap(old, ANNA, update_id=11) == Reply()
    await world.deliver()
    *_, redrawn, removed = world.api.to(ANNA.user_id)
    assert redrawn.kind is OutboxKind.SEND and removed.kind is OutboxKind.DELETE  # sent anew, the old one removed
    data = [b["callback_data"] for row in redrawn.payload["reply_markup"]["inline_keyboard"] for b in row]
    assert all(HandCb.unpack(d).move == table.version + 1 for d in data)


async def test_taps_leave_no_lock_behind(world: World) -> None:
    table = await playing_table(world)
    for table_id in (table.table_id, 10**6, 2**62):
        await world.tables.game.tap(HandCb(table=table_id, move=0, op=HandOp.PLAY), ANNA, update_id=None)
    assert world.tables.core.live._locks == {}


async def test_a_stale_move_number_changes_nothing(world: World) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    stale = button.model_copy(update={"move": table.version - 1})
    reply = await world.tables.game.tap(stale, actor, update_id=10)
    assert reply.alert and reply.text == "Эта кнопка устарела: стол уже изменился."
    assert (await world.table()).version == table.version
    assert await world.pending() == 0


async def test_a_strangers_tap_is_refused(world: World) -> None:
    table = await playing_table(world)
    _, button = a_legal_play(table)
    reply = await world.tables.game.tap(button, VIKA, update_id=10)
    assert reply.alert and reply.text == "You are not at this table."
    assert (await world.table()).version == table.version


async def test_the_wrong_player_gets_the_engines_reason(world: World) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    other = BORIS if actor is ANNA else ANNA
    reply = await world.tables.game.tap(button, other, update_id=10)
    assert reply.alert
    assert (await world.table()).version == table.version


async def test_a_redelivered_update_is_applied_once(world: World) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    await world.tables.game.tap(button, actor, update_id=10)
    await world.tables.game.tap(button, actor, update_id=10)
    assert (await world.table()).version == table.version + 1


async def test_toggle_redraws_only_the_tappers_hand(world: World) -> None:
    table = await playing_table(world)
    seat = next(s.seat for s in table.seats if s.user_id == ANNA.user_id)
    card = bura_match(state_of(table).match).deal.hands[seat][0]
    toggle = HandCb(table=table.table_id, move=table.version, op=HandOp.TOGGLE, cards=pack_cards([card]))
    assert await world.tables.game.tap(toggle, ANNA, update_id=10) == Reply()
    await world.deliver()
    edit = world.api.to(ANNA.user_id)[-1]
    assert edit.kind is OutboxKind.EDIT
    assert world.api.to(BORIS.user_id)[-1].kind is OutboxKind.SEND  # untouched since the deal
    assert (await world.table()).version == table.version  # nothing committed
    data = [b["callback_data"] for row in edit.payload["reply_markup"]["inline_keyboard"] for b in row]
    assert any(HandCb.unpack(d).op == HandOp.PLAY and HandCb.unpack(d).cards == card.code for d in data)
    other_hand = bura_match(state_of(table).match).deal.hands[1 - seat][0]
    forged = toggle.model_copy(update={"cards": pack_cards([other_hand])})
    assert (await world.tables.game.tap(forged, ANNA, update_id=11)).alert


async def test_a_timeout_plays_the_cheapest_move_and_says_so(world: World) -> None:
    table = await playing_table(world)
    match = bura_match(state_of(table).match)
    seat = match.to_act()
    assert seat is not None
    expected = auto_action(match, seat)
    assert isinstance(expected, Lead | RespondOpen | RespondFaceDown)
    world.time.now += 61
    assert await world.tables.timers.fire_due() == 1
    after = await world.table()
    assert bura_match(state_of(after).match).actions == [expected]
    assert state_of(after).timeouts == {seat: 1}
    await world.deliver()
    played = "/".join(card_text(card, world.tables.core.translations.get("ru")) for card in expected.cards)
    assert any(f"время вышло — бот сыграл {played}" in text for text in world.api.texts(GROUP))
    assert await world.tables.timers.fire_due() == 0  # the next timer is a minute away


async def test_stop_ends_a_game(world: World) -> None:
    await playing_table(world)
    refused = await world.tables.game.stop(GROUP, VIKA, is_admin=admin(False), update_id=20)
    assert refused.text is not None
    assert await world.tables.game.stop(GROUP, BORIS, is_admin=admin(True), update_id=21) == Reply()
    assert await world.storage.get_open_table(GROUP) is None
    assert await world.storage.timers_due_by(1e12) == []


async def test_score_shows_the_match(world: World) -> None:
    assert "/new" in await world.tables.game.score(GROUP)
    await playing_table(world)
    text = await world.tables.game.score(GROUP)
    assert "Аня &lt;3" in text and "Борис" in text


async def test_a_reminder_at_half_time_in_the_private_chat(world: World) -> None:
    table = await playing_table(world)
    seat = bura_match(state_of(table).match).to_act()
    assert seat is not None
    actor = user_of(table, seat)
    assert await world.tables.timers.remind_due() == 0
    world.time.now += 31
    assert await world.tables.timers.remind_due() == 1
    assert await world.tables.timers.remind_due() == 0  # once per move
    await world.deliver()
    *_, reminder = world.api.to(actor.user_id)  # a message of its own rings; the hand he may be tapping stays
    assert reminder.kind is OutboxKind.SEND and not reminder.payload.get("disable_notification")
    assert "Осталось 29 с" in str(reminder.payload["text"]) and "reply_markup" not in reminder.payload
    assert not [call for call in world.api.to(actor.user_id) if call.kind is OutboxKind.DELETE]


async def test_a_false_claim_ends_the_deal_with_its_announcement_and_stats(world: World) -> None:
    table = await playing_table(world)
    match = bura_match(state_of(table).match)
    seat = match.to_act()
    assert seat is not None
    claimant = user_of(table, seat)
    claim = HandCb(table=table.table_id, move=table.version, op=HandOp.CLAIM)
    assert await world.tables.game.tap(claim, claimant, update_id=10) == Reply()
    after = bura_match(state_of(await world.table()).match)
    assert after.deal_number == 2
    await world.deliver()
    assert any("Вскрываюсь" in text for text in world.api.texts(GROUP)[-3:])
    other = BORIS if claimant is ANNA else ANNA
    [mine], [theirs] = (
        await world.storage.get_stats(GROUP, claimant.user_id),
        await world.storage.get_stats(GROUP, other.user_id),
    )
    assert (mine.game, mine.count("false_claims"), mine.deals_played, mine.deals_won) == ("bura", 1, 1, 0)
    assert (theirs.game, theirs.count("false_claims"), theirs.deals_played, theirs.deals_won) == ("bura", 0, 1, 1)


async def test_three_timeouts_make_a_player_away_and_a_table_of_absentees_ends(world: World) -> None:
    table_id = (await playing_table(world)).table_id
    fired = 0
    while await world.storage.get_open_table(GROUP) is not None and fired < 20:
        await world.deliver()  # a move timer counts from when the hand is shown
        world.time.now += 61
        fired += await world.tables.timers.fire_due()
    table = await world.storage.get_table(table_id)
    assert table is not None and table.status is TableStatus.FINISHED
    assert 5 <= fired < 20
    await world.deliver()
    texts = world.api.texts(GROUP)
    assert sum("три хода подряд" in text for text in texts) >= 2  # one away, then the end
    assert await world.storage.timers_due_by(1e12) == []


def test_the_trick_that_ends_a_deal_is_told_only_when_a_trick_ended_it() -> None:
    """Issue #12: a deal ended by its last trick is told with that trick (the table jumps to the next deal); a
    deal ended by a claim or a combination is not (the trick before the claim was shown already)."""
    seen = {"trick": 0, "other": 0}
    rng = random.Random(12)
    for game in range(40):
        match = Match(BURA_STANDARD, 2, f"final-trick-{game}")
        while not match.finished and match.deal_number <= 3:
            before = Before.of(match)
            events = match.apply(random_step(match, rng))
            final = before.final_trick(match)
            if not any(isinstance(event, DealEnded) for event in events):
                assert final is None
            elif any(isinstance(event, TrickTaken) for event in events) and not any(
                isinstance(event, Claimed) for event in events
            ):
                taken = next(event for event in events if isinstance(event, TrickTaken))
                assert final is not None and final.number == taken.trick_number
                seen["trick"] += 1
            else:
                assert final is None, events
                seen["other"] += 1
    assert seen["trick"] > 0 and seen["other"] > 0, seen
