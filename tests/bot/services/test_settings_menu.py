"""The lobby's settings menu (⚙️, /settings): the lobby message becomes the menu, for the creator or an admin,
before the deal; a choice is checked against what the table's game declares and becomes the group's setting."""

from __future__ import annotations

from bot.games.bura.settings import MatchChoice, variant
from bot.render.lobby import OPEN_CHOICES
from bot.services import Actor, Reply
from bot.telegram.callbacks import LobbyOp, SettingCb
from tests.bot import test_services
from tests.bot.test_services import ANNA, BORIS, GROUP, World, admin, started, tap

world = test_services.world  # the same fixture: a real SQLite storage, a recording Bot API, a fake clock


async def settings_button(world: World, actor: Actor, update_id: int, is_admin: bool = False) -> Reply:
    """A tap on the lobby's ⚙️."""
    table = await world.table()
    return await world.tables.settings_menu.open(
        table.table_id, GROUP, actor, is_admin=admin(is_admin), update_id=update_id
    )


async def test_settings_command_shows_the_menu_in_the_lobby_message(world: World) -> None:
    assert "/new" in str((await world.tables.settings_menu.command(GROUP, ANNA, is_admin=admin(False))).text)
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await world.deliver()
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await world.deliver()
    refused = await world.tables.settings_menu.command(GROUP, BORIS, is_admin=admin(False), update_id=3)
    assert refused.text  # neither the creator nor an admin: told so, nothing changes
    before = len(world.api.calls)
    await world.deliver()
    assert len(world.api.calls) == before
    shown = await world.tables.settings_menu.command(GROUP, ANNA, is_admin=admin(False), update_id=4)
    assert shown.text is None
    await world.deliver()
    edited = world.api.to(GROUP)[-1]
    markup = edited.payload.get("reply_markup")
    assert isinstance(markup, dict)
    data = [button["callback_data"] for row in markup["inline_keyboard"] for button in row]
    assert any(str(item).startswith("s:") for item in data)  # the settings buttons, in the lobby's place


async def test_settings_command_is_refused_once_the_deal_is_dealt(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await tap(world, LobbyOp.START, ANNA, update_id=3)
    table = await world.table()
    reply = await world.tables.settings_menu.command(GROUP, ANNA, is_admin=admin(True), update_id=4)
    assert reply.text
    assert (await world.table()).version == table.version


async def test_settings_change_the_group_settings(world: World) -> None:
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    assert await settings_button(world, ANNA, update_id=2) == Reply()
    data = SettingCb(table=table.table_id, key="timer", value="30")
    await world.tables.settings_menu.choose(
        data.table, data.key, data.value, GROUP, ANNA, update_id=3, is_admin=admin(False)
    )
    assert (await world.tables.core.chat_settings(GROUP)).move_seconds == 30
    forged = await world.tables.settings_menu.choose(
        table.table_id, "timer", "7", GROUP, ANNA, update_id=4, is_admin=admin(False)
    )
    assert forged.alert
    stranger = await world.tables.settings_menu.choose(
        table.table_id, "language", "en", GROUP, BORIS, update_id=5, is_admin=admin(False)
    )
    assert stranger.alert
    await world.tables.settings_menu.choose(
        table.table_id, "language", "en", GROUP, ANNA, update_id=6, is_admin=admin(False)
    )
    assert (await world.tables.core.chat_translator(GROUP)).language == "en"


async def test_a_games_own_settings_are_checked_against_what_it_declares(world: World) -> None:
    """The match is Бура's to choose, not Буркозёл's (its penalty table) nor Бурако's: a tap on a setting the
    table's game does not declare, or a value it does not offer, is refused and changes nothing; a choice the
    other rules had is kept for when they come back."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()

    async def choose(key: str, value: str, update_id: int) -> bool:
        reply = await world.tables.settings_menu.choose(
            table.table_id, key, value, GROUP, ANNA, update_id=update_id, is_admin=admin(False)
        )
        return reply.alert

    assert not await choose("match", MatchChoice.SINGLE_DEAL, 2)
    assert not await choose("profile", "bk", 3)
    before = await world.tables.core.chat_settings(GROUP)
    assert await choose("match", MatchChoice.ROBBER, 4), "Буркозёл keeps its penalty table"
    assert await choose("match", OPEN_CHOICES, 5)
    assert await choose("casual", "2", 6)
    assert await choose("jokers", "1", 7)
    assert await choose("profile", "preferans", 8)
    assert await world.tables.core.chat_settings(GROUP) == before
    assert not await choose("profile", "buraco", 9)
    assert await choose("casual", "1", 10), "Бурако has no casual points"
    assert not await choose("profile", "bura", 11)
    settings = await world.tables.core.chat_settings(GROUP)
    assert variant(settings).match.kind.value == "single_deal", "the match chosen before"
