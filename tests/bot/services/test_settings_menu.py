"""/settings in a group: the lobby message becomes the settings menu, for the creator or an admin, before the deal."""

from __future__ import annotations

from bot.telegram.callbacks import LobbyOp
from tests.bot import test_services
from tests.bot.test_services import ANNA, BORIS, GROUP, World, admin, started, tap

world = test_services.world  # the same fixture: a real SQLite storage, a recording Bot API, a fake clock


async def test_settings_command_shows_the_menu_in_the_lobby_message(world: World) -> None:
    assert "/new" in str((await world.tables.lobby.settings_command(GROUP, ANNA, is_admin=admin(False))).text)
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await world.deliver()
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await world.deliver()
    refused = await world.tables.lobby.settings_command(GROUP, BORIS, is_admin=admin(False), update_id=3)
    assert refused.text  # neither the creator nor an admin: told so, nothing changes
    before = len(world.api.calls)
    await world.deliver()
    assert len(world.api.calls) == before
    shown = await world.tables.lobby.settings_command(GROUP, ANNA, is_admin=admin(False), update_id=4)
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
    reply = await world.tables.lobby.settings_command(GROUP, ANNA, is_admin=admin(True), update_id=4)
    assert reply.text
    assert (await world.table()).version == table.version
