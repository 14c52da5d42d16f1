"""The hand in the group itself (issue 37, "two chats"): «🃏 Мои карты» under the group's table shows a player his
own hand there, to him alone (a Bot API ephemeral message), with the same buttons; every commit that changes his
hand edits it too, a tap on it does what the same tap does in his private chat, and nobody else gets it."""

from __future__ import annotations

from bot.services import Reply
from bot.services.state import seat_of
from bot.storage import OutboxKind
from bot.telegram.callbacks import HandCb, MyCardsCb
from bot.telegram.calls import ApiRequest
from tests.bot.test_services import ANNA, BORIS, GROUP, VIKA, World, a_legal_play, playing_table, state_of, world

__all__ = ["world"]  # the fixture

INF = 1e12


def in_group(world: World, user_id: int) -> list[ApiRequest]:
    """The calls about the user's hand shown in the group (queued in his own chat, `ephemeral` in the payload)."""
    return [call for call in world.api.to(user_id) if "ephemeral" in call.payload]


def private(world: World, user_id: int) -> list[ApiRequest]:
    return [call for call in world.api.to(user_id) if "ephemeral" not in call.payload]


def buttons(call: ApiRequest) -> list[str]:
    return [b["callback_data"] for row in call.payload["reply_markup"]["inline_keyboard"] for b in row]


async def test_the_group_s_table_carries_the_my_cards_button(world: World) -> None:
    table = await playing_table(world)
    pictures = [
        call for call in world.api.to(GROUP) if call.payload.get("reply_markup") and "🃏 Мои карты" in str(call.payload)
    ]
    assert pictures, "the table's picture has the button"
    [[mine]] = pictures[-1].payload["reply_markup"]["inline_keyboard"]
    assert mine["text"] == "🃏 Мои карты" and MyCardsCb.unpack(mine["callback_data"]).table == table.table_id


async def test_my_cards_shows_the_tapper_his_own_hand_in_the_group(world: World) -> None:
    table = await playing_table(world)
    before = (await world.storage.timers_due_by(INF))[0]
    reply = await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), ANNA, GROUP, "q-1", update_id=20)
    assert reply == Reply()
    await world.deliver()
    [shown] = in_group(world, ANNA.user_id)
    assert shown.kind is OutboxKind.SEND
    assert shown.payload["ephemeral"] == {"chat_id": GROUP, "callback_query_id": "q-1"}
    *_, hand = private(world, ANNA.user_id)
    assert (shown.payload["text"], shown.payload["reply_markup"]) == (
        hand.payload["text"],
        hand.payload["reply_markup"],
    )
    assert shown.payload["protect_content"] is True, "a hand is for its holder only, in the group too"
    assert shown.payload["disable_notification"] is True, "his own tap asked for it: nothing rings"
    assert in_group(world, BORIS.user_id) == [], "nobody else's"
    committed = await world.table()
    seat = seat_of(committed, ANNA.user_id)
    assert seat in state_of(committed).in_group
    [timer] = await world.storage.timers_due_by(INF)
    assert (timer.due_at, timer.seconds) == (before.due_at, before.seconds), "the move timer runs on as it ran"
    # Asked again (the one shown expired, say): shown anew, no second commit.
    await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), ANNA, GROUP, "q-2", update_id=21)
    await world.deliver()
    assert (await world.table()).version == committed.version
    again, deleted = in_group(world, ANNA.user_id)[1:]
    assert again.kind is OutboxKind.SEND and again.payload["ephemeral"]["callback_query_id"] == "q-2"
    assert deleted.kind is OutboxKind.DELETE, "the old one goes"


async def test_my_cards_is_refused_to_anyone_not_seated_and_from_another_group(world: World) -> None:
    table = await playing_table(world)
    reply = await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), VIKA, GROUP, "q", update_id=20)
    assert reply.alert and reply.text == "You are not playing at this table: only its players can see their cards here."
    elsewhere = await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), ANNA, -777, "q", update_id=21)
    assert elsewhere.alert
    await world.deliver()
    assert in_group(world, VIKA.user_id) == [] and in_group(world, ANNA.user_id) == []
    assert (await world.table()).version == table.version


async def test_a_move_edits_the_hand_in_the_group_as_well_as_the_private_one(world: World) -> None:
    table = await playing_table(world)
    for actor, query in ((ANNA, "qa"), (BORIS, "qb")):
        await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), actor, GROUP, query)
    await world.deliver()
    table = await world.table()
    actor, button = a_legal_play(table)
    # Played from the group: a tap on the hand shown there.
    assert await world.tables.game.tap(button, actor, update_id=30, in_group=GROUP) == Reply()
    await world.deliver()
    edited = in_group(world, actor.user_id)[-1]
    assert edited.kind is OutboxKind.EDIT and edited.payload["ephemeral"] == {"chat_id": GROUP}
    *_, hand = private(world, actor.user_id)
    assert edited.payload["text"] == hand.payload["text"]
    assert buttons(edited) == buttons(hand)
    moved = await world.table()
    assert all(HandCb.unpack(data).move == moved.version for data in buttons(edited) if data.startswith("h:"))


async def test_a_card_marked_in_the_group_redraws_only_the_hand_there(world: World) -> None:
    table = await playing_table(world)
    await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), ANNA, GROUP, "qa")
    await world.deliver()
    table = await world.table()
    seen = len(private(world, ANNA.user_id))
    hand = in_group(world, ANNA.user_id)[-1]
    toggle = next(HandCb.unpack(data) for data in buttons(hand) if HandCb.unpack(data).op == "t")
    assert await world.tables.game.tap(toggle, ANNA, update_id=40, in_group=GROUP) == Reply()
    await world.deliver()
    marked = in_group(world, ANNA.user_id)[-1]
    assert marked.kind is OutboxKind.EDIT and marked.payload["text"] != "" and buttons(marked) != buttons(hand)
    assert len(private(world, ANNA.user_id)) == seen, "his private hand is not touched by a mark made in the group"
    # ...and one made in the private chat leaves the group's alone.
    assert await world.tables.game.tap(toggle, ANNA, update_id=41) == Reply()
    await world.deliver()
    assert in_group(world, ANNA.user_id)[-1] is marked
    assert (await world.table()).version == table.version


async def test_a_tap_from_another_group_is_refused(world: World) -> None:
    table = await playing_table(world)
    actor, button = a_legal_play(table)
    reply = await world.tables.game.tap(button, actor, update_id=30, in_group=-777)
    assert reply.alert and (await world.table()).version == table.version


async def test_the_seats_in_the_group_survive_the_json_round_trip(world: World) -> None:
    table = await playing_table(world)
    await world.tables.game.show_in_group(MyCardsCb(table=table.table_id), BORIS, GROUP, "qb")
    state = state_of(await world.table())
    assert state.in_group == {seat_of(table, BORIS.user_id)}
    assert type(state).from_json(state.to_json()).in_group == state.in_group
    assert '"in_group"' not in state_of(table).to_json(), "nothing stored while nobody asked"
