"""Issue 35, end to end: nobody sits where he doesn't belong, only people act, names are shown safely.

The real `python -m bot` against the fake Bot API, driven as the people (and the attacker) would: the join link
in the wrong hands, a made-up one, a stranger's tap on a public group's lobby, posts on behalf of a channel or
an anonymous admin, the «play» button where it has no business, a name built to mislead.
"""

from __future__ import annotations

from bot.telegram.callbacks import LobbyCb, LobbyOp, PlayCb
from tests.botapi import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess
from tests.e2e.players import MOVE_WAIT, lobby_button
from tests.e2e.reader import BotDatabase


async def _lobby(tg: FakeTelegram, anna: User, members: list[User], username: str | None = None) -> tuple[Message, int]:
    group = tg.group("Двор", owner=anna, members=members, supergroup=username is not None, username=username)
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    said = tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), after=said, timeout=MOVE_WAIT)
    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    return lobby, LobbyCb.unpack(str(join["callback_data"])).table


async def _join(tg: FakeTelegram, lobby: Message, person: User) -> None:
    """`person` starts the bot, then taps «join» under the lobby: he is seated at once (no link needed)."""
    said = tg.start_bot(person)
    await tg.wait_bot_message(tg.private_chat(person), after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    answer = await tg.wait_answer(tg.tap(person, lobby, text=str(join["text"])), timeout=MOVE_WAIT)
    assert not answer.show_alert and answer.url is None, answer


async def _said(tg: FakeTelegram, user: User, payload: str) -> str:
    opened = tg.start_bot(user, payload=payload)
    reply = await tg.wait_bot_message(tg.private_chat(user), after=opened, timeout=MOVE_WAIT)
    return reply.text or ""


async def test_only_the_groups_members_sit_at_its_table(tg: FakeTelegram, bot: BotProcess) -> None:
    """A stranger walks the table ids (`/start j<id>`), makes up signatures, is handed a real invitation and taps
    the lobby's own button: he is told the table is not his, is seated nowhere, and the lobby does not change. A
    member with the same invitation sits down; asking Telegram whether he is a member costs the join one call."""
    anna, boris, stranger = tg.user("Аня", "anna"), tg.user("Борис", "boris"), tg.user("Чужой", "stranger")
    lobby, table_id = await _lobby(tg, anna, [boris], username="dvor_public")
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    answer = await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])), timeout=MOVE_WAIT)
    assert answer.url is not None and f"?start=j{table_id}_" in answer.url
    invitation = answer.url.split("?start=", 1)[1]
    before = lobby.text

    for payload in (f"j{table_id}", f"j{table_id - 1}", f"j{table_id}_{'A' * 16}", invitation[:-1] + "-"):
        assert (await _said(tg, stranger, payload)).startswith("Этого стола уже нет"), payload
    assert await _said(tg, stranger, invitation) == "За этот стол садятся только участники его группы."
    # A public group's lobby can be seen, and tapped, by someone who is not in it.
    refused = await tg.wait_answer(tg.tap_data(stranger, lobby, str(join["callback_data"])), timeout=MOVE_WAIT)
    assert refused.show_alert and refused.text == "За этот стол садятся только участники его группы."
    async with BotDatabase(bot.database) as storage:
        table = await storage.get_table(table_id)
        assert table is not None and [seat.user_id for seat in table.seats] == [anna.id]

    asked = len(tg.calls("getChatMember"))
    assert (await _said(tg, boris, invitation)).startswith("Вы за столом!")
    assert len(tg.calls("getChatMember")) - asked <= 1  # his tap a moment ago asked already: kept briefly
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")
    assert lobby.text != before


async def test_the_creator_removes_a_player_from_the_lobby(tg: FakeTelegram, bot: BotProcess) -> None:
    """«🚪 Убрать игрока» lists the people seated beside the creator; a tap on a name removes that person. Only the
    creator (or an admin) may: a player's tap on the list is refused."""
    anna, boris, vika = tg.user("Аня", "anna"), tg.user("Борис", "boris"), tg.user("Вика", "vika")
    lobby, table_id = await _lobby(tg, anna, [boris, vika])
    for person in (boris, vika):
        await _join(tg, lobby, person)
        await tg.wait_for(lambda person=person: person.first_name in (lobby.text or ""), MOVE_WAIT, "seated")  # type: ignore[misc]
    remove = lobby_button(lobby, LobbyOp.REMOVE_PLAYER)
    assert remove is not None and remove["text"] == "🚪 Убрать игрока"
    refused = await tg.wait_answer(tg.tap(boris, lobby, text="🚪 Убрать игрока"), timeout=MOVE_WAIT)
    assert refused.show_alert
    await tg.wait_answer(tg.tap(anna, lobby, text="🚪 Убрать игрока"), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: lobby.text == "Кого убрать из-за стола?", MOVE_WAIT, "the list of players")
    assert lobby.button_texts == [["✖️ Борис"], ["✖️ Вика"], ["↩️ Назад"]]
    stolen = await tg.wait_answer(tg.tap(vika, lobby, text="✖️ Борис"), timeout=MOVE_WAIT)
    assert stolen.show_alert  # a player cannot remove another
    done = await tg.wait_answer(tg.tap(anna, lobby, text="✖️ Борис"), timeout=MOVE_WAIT)
    assert done.text == "Борис больше не за столом."
    await tg.wait_for(lambda: "Игроки: Аня (собирает стол), Вика" in (lobby.text or ""), MOVE_WAIT, "the lobby")
    async with BotDatabase(bot.database) as storage:
        table = await storage.get_table(table_id)
        assert table is not None and [seat.user_id for seat in table.seats] == [anna.id, vika.id]


async def test_only_people_act(tg: FakeTelegram, bot: BotProcess) -> None:
    """Posts on behalf of a channel, an anonymous admin's and a linked channel's forwarded posts open no table,
    stop none and leave no user behind; a command from one is answered once with why. The «play» button works
    only in a private chat."""
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    lobby, table_id = await _lobby(tg, anna, [boris])
    group = lobby.chat
    for kind in ("channel", "anonymous", "forward"):
        for command in ("/stop", "/settings", "/addbot"):
            said = tg.post_as(kind, group, command)
            reply = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
            assert reply.text == (
                "Команды принимаю только от людей: напишите от своего имени, а не от имени канала или анонимного"
                " админа."
            )
    other = tg.group("Другая", owner=boris)
    tg.add_bot(other)
    hello = await tg.wait_bot_message(other, timeout=MOVE_WAIT)
    said = tg.post_as("channel", other, "/new")
    await tg.wait_bot_message(other, after=said, timeout=MOVE_WAIT)
    # The «play» button under a message in a group (forged there) starts nothing.
    tapped = tg.tap_data(boris, hello, PlayCb().pack())
    await tg.wait_answer(tapped, timeout=MOVE_WAIT)
    async with BotDatabase(bot.database) as storage:
        table = await storage.get_table(table_id)
        assert table is not None and table.status.value == "lobby"  # nobody stopped it
        assert await storage.get_open_table(other.id) is None
        assert await storage.get_open_table(boris.id) is None
        stand_ins = storage._read(
            lambda db: db.execute(
                "SELECT user_id FROM users WHERE user_id IN (136817688, 1087968824, 777000)"
            ).fetchall()
        )
        assert stand_ins == []


async def test_names_are_shown_safely(tg: FakeTelegram, bot: BotProcess) -> None:
    """A right-to-left override, zero-width characters and a name of 60 letters: the lobby shows the name
    cleaned and cut, never the raw characters."""
    anna = tg.user("Аня", "anna")
    tricky = tg.user("Bo\u202eсирoБ\u200b\u200b", "tricky")
    long = tg.user("Д" * 60, "long")
    lobby, _ = await _lobby(tg, anna, [tricky, long])
    for person in (tricky, long):
        await _join(tg, lobby, person)
    await tg.wait_for(lambda: "ДДД" in (lobby.text or ""), MOVE_WAIT, "both seated")
    text = lobby.text or ""
    assert "\u202e" not in text and "\u200b" not in text
    assert "BoсирoБ" in text
    assert "Д" * 31 + "…" in text and "Д" * 32 not in text


async def test_the_start_refusal_fits_an_alert(tg: FakeTelegram, bot: BotProcess) -> None:
    """Issue 35: four players blocked the bot, all with long names: «Начать» is refused with an alert that
    Telegram accepts (at most 200 characters: three names, then «и ещё 1»), and the group's message names all
    four. (A creator who never opened the private chat is taken there instead: tests/e2e/test_newcomers.py.)"""
    names = ["Александра Константиновна", "Владислав Вячеславович", "Екатерина Станиславовна", "Святослав Ярославович"]
    others = [tg.user(name, f"long{index}") for index, name in enumerate(names)]
    creator = tg.user("Аня", "anna")
    group = tg.group("Двор", owner=creator, members=others)
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    said = tg.start_bot(creator)
    await tg.wait_bot_message(tg.private_chat(creator), after=said, timeout=MOVE_WAIT)
    said = tg.send_message(creator, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    for person in others:
        await _join(tg, lobby, person)
        await tg.wait_for(lambda person=person: person.first_name in (lobby.text or ""), MOVE_WAIT, "seated")  # type: ignore[misc]
        tg.block_bot(person)
    start = lobby_button(lobby, LobbyOp.START)
    assert start is not None
    answer = await tg.wait_answer(tg.tap(creator, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert answer.show_alert and answer.text is not None and len(answer.text) <= 200
    assert answer.text.endswith("и ещё 1. Откройте личный чат со мной и нажмите «Запустить».")
    told = await tg.wait_for(
        lambda: next(
            (m for m in tg.messages(group, from_bot=True) if "не могу прислать вам карты" in (m.text or "")), None
        ),
        MOVE_WAIT,
        "the group's message",
    )
    assert all(name in (told.text or "") for name in names)
