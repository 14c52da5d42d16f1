"""Three timeouts in a row lose the deal (the bot issue's rule), where the table does not let a computer take
the seat; the group is told, the tally counts the deal for the others."""

from __future__ import annotations

from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import LobbyOp
from engine.bura.events import OutcomeKind
from tests.bot import test_services
from tests.bot.test_services import ANNA, BORIS, GROUP, World, started, state_of, tap
from tests.matches import bura_match

world = test_services.world  # the same fixture: a real SQLite storage, a recording Bot API, a fake clock


async def test_three_timeouts_in_a_row_forfeit_the_deal(world: World) -> None:
    settings = TableSettings(computer_takeover=False).model_dump(mode="json", exclude={"language"})
    await world.storage.set_chat_settings(GROUP, settings)
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await world.table()
    absent = bura_match(state_of(table).match).to_act()
    assert absent is not None
    for _ in range(60):  # only the absent player lets his timer run out; the other one answers by timer too
        table = await world.table()
        state = state_of(table)
        if bura_match(state.match).outcomes:
            break
        await world.deliver()  # a move timer counts from when the hand is shown
        world.time.now += state.settings.seconds() + 1
        assert await world.tables.timers.fire_due() == 1
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    match = bura_match(state_of(table).match)
    forfeits = [outcome for outcome in match.outcomes if outcome.kind is OutcomeKind.FORFEIT]
    assert forfeits, [outcome.kind for outcome in match.outcomes]
    loser = forfeits[0].seat
    assert loser is not None
    assert match.wins[1 - loser] >= 1 and match.wins[loser] == 0
    await world.deliver()
    texts = world.api.texts(GROUP)
    assert any("проигрывает сдачу" in text for text in texts)
    stats = {row.user_id: row for row in await world.storage.chat_stats(GROUP)}
    winner_id = ANNA.user_id if loser == 1 else BORIS.user_id
    assert stats[winner_id].deals_won >= 1
