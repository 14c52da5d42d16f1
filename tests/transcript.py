"""What every chat shows, step by step: ``python -m tests.transcript [--lang ru|en] [--out DIR]``.

Runs the real bot (``python -m bot``) against the fake Bot API of tests/botapi and plays six scenes as people
would, tapping the buttons the bot shows them: a 2-player deal, a 3-player deal that ends with «Вскрываюсь!», a
deal played from the hands the group shows each player alone («🃏 Мои карты»), a deal against the computer with
/play, a Бурако deal of one person and three computers, and a session of Очко (three people, an orbit of banks).
After every step (a command, a tap that makes a move, the computer's move), once the bot has delivered everything,
it writes each chat that changed: its bot messages as they read now (new, edited or deleted), with their buttons,
and whether a new message rang the phone; a message the group shows one member alone is written under its own
heading. A Бурако deal and an Очко session are long: their middles are played but not written. One file a
language (``transcript-ru.md``, ``transcript-en.md``); the README's sample transcript is cut from
``transcript-ru.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
from collections.abc import Callable, Hashable
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bot.games.bura.buttons import HandOp
from bot.games.bura.cards import cards_text
from bot.games.buraco.buttons import Op as BuracoOp
from bot.games.ochko.buttons import HandButton
from bot.i18n import Translations, Translator
from bot.services import TableState
from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.bura.actions import Action, Claim, DeclareCombo, Forfeit, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.events import Claimed
from engine.bura.match import Match
from engine.buraco.deal import Phase as BuracoPhase
from tests.botapi import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess
from tests.e2e.players import Players, buttons, find_seed, greedy, hand_cb, play_offline, seat_players, shown_move
from tests.e2e.reader import BotDatabase
from tests.matches import buraco_match, ochko_match
from tests.ochko import button_of, scripted

QUIET = 0.3  # seconds with nothing left to deliver: the step's messages have all landed


@dataclass
class Seen:
    """A message as the transcript last wrote it."""

    text: str
    keyboard: list[list[str]]
    deleted: bool


@dataclass(frozen=True)
class Watched:
    """A chat as one reader sees it: everyone's view of it, or (`alone`) what it shows that member alone."""

    chat: Chat
    alone: User | None = None

    def messages(self) -> list[tuple[Hashable, Message]]:
        """The bot's messages there, each with a key that stays its own (an ephemeral message's id is reused)."""
        if self.alone is None:
            return [((self.chat.id, m.message_id), m) for m in self.chat.messages.values() if m.from_bot]
        mine = [m for m in self.chat.ephemerals if m.receiver is not None and m.receiver.id == self.alone.id]
        return [(("alone", self.chat.id, self.alone.id, index), m) for index, m in enumerate(mine)]


@dataclass
class Transcript:
    """The chats of one scene and what each showed at the last step; `step` writes what changed since."""

    tg: FakeTelegram
    database: Path
    tr: Translator
    chats: list[tuple[str, Watched]] = field(default_factory=list)
    seen: dict[Hashable, Seen] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    steps: int = 0

    def watch(self, label: str, chat: Chat, alone: User | None = None) -> None:
        watched = Watched(chat, alone)
        if all(watched != known for _, known in self.chats):
            self.chats.append((label, watched))

    def pending(self) -> int:
        with closing(sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)) as db:
            return int(db.execute("SELECT COUNT(*) FROM outbox WHERE done = 0").fetchone()[0])

    async def settle(self) -> None:
        """Until the outbox is empty and stays so for a moment (the sender marks a row after its call lands)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        quiet_since: float | None = None
        while loop.time() < deadline:
            if self.pending() == 0:
                quiet_since = quiet_since or loop.time()
                if loop.time() - quiet_since >= QUIET:
                    return
            else:
                quiet_since = None
            await asyncio.sleep(0.05)
        raise TimeoutError("the bot did not deliver its messages within a minute")

    async def step(self, what: str, *, written: bool = True) -> None:
        """Once everything is delivered, write what changed in each chat; `written=False` only takes note of it
        (a step of the long middle of a Бурако deal)."""
        await self.settle()
        changes = [
            (label, [self._line(key, message) for key, message in chat.messages()]) for label, chat in self.chats
        ]
        if not written:
            return
        self.steps += 1
        out = [f"### {self.steps}. {what}", ""]
        for label, changed in changes:
            shown = [line for line in changed if line is not None]
            if shown:
                out.append(f"**{label}**")
                out.append("")
                out.append("```")
                out.extend(shown)
                out.append("```")
                out.append("")
        if len(out) == 2:
            out.append("(nothing changes)")
            out.append("")
        self.lines.extend(out)

    def _line(self, key: Hashable, message: Message) -> str | None:
        now = Seen(message.text or "", message.button_texts, message.deleted or message.gone)
        before = self.seen.get(key)
        self.seen[key] = now
        if before == now or (before is None and now.deleted):
            return None
        if now.deleted:
            return f"✖ deleted: {first_line(before.text if before else '')}"
        mark = ("🔔 new" if message.notified else "🔕 new") if before is None else "✏️ edited"
        flags = [mark, *(["protected"] if message.protected else [])]
        body = [f"[{', '.join(flags)}]", *now.text.splitlines()]
        for row in now.keyboard:
            body.append("  " + "  ".join(f"[{text}]" for text in row))
        return "\n".join(body) + "\n"


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def describe(action: Action | Forfeit, name: str, tr: Translator) -> str:
    """The step's title: who does what, in the transcript's language."""
    english = tr.language == "en"
    if isinstance(action, Lead):
        verb = "leads" if english else "заходит"
        return f"{name} {verb} {cards_text(action.cards, tr)}"
    if isinstance(action, RespondOpen):
        verb = "answers" if english else "отвечает"
        return f"{name} {verb} {cards_text(action.cards, tr)}"
    if isinstance(action, RespondFaceDown):  # the cards stay hidden, as they are in every chat
        verb = "discards face down" if english else "сбрасывает втёмную"
        return f"{name} {verb} ({len(action.cards)})"
    if isinstance(action, Claim):
        return f"{name}: " + ("“31!”" if english else "«Вскрываюсь!»")
    if isinstance(action, DeclareCombo):
        return f"{name}: " + ("“Stop!”" if english else "«Стоп!»")
    if isinstance(action, Pass):
        return f"{name} " + ("passes" if english else "пропускает")
    return f"{name}: {action}"


async def play_deal(players: Players, log: Transcript, chooser: Callable[[Match, int], Action] = greedy) -> None:
    """The deal to its end, a step a move; a computer's moves are steps of their own."""
    number = (await players.match()).deal_number
    while True:
        table = await players.table()
        match = await players.match()
        if table.status is not TableStatus.PLAYING or match.deal_number != number:
            return
        seat = match.to_act()
        assert seat is not None
        if seat in players.by_seat:
            action = chooser(match, seat)
            user = players.by_seat[seat]
            title = describe(action, user.first_name, log.tr)
            if isinstance(action, Claim):  # the claim button asks first: a step of its own
                message, button = await players.hand_showing(
                    user, partial(claim_button, table.version), "the claim button"
                )
                if hand_op(button) == HandOp.CLAIM_ASK:
                    await players.tap(user, message, button)
                    await log.step(f"{user.first_name}: «{button['text']}»")
                    confirm = next(b["text"] for b in buttons(message) if hand_op(b) == HandOp.CLAIM)
                    title = f"{user.first_name}: «{confirm}»"
            await players.move(partial(chosen, action))
        else:
            while (await players.table()).version == table.version:
                await asyncio.sleep(0.05)
            after = await players.match()
            made = after.actions[len(match.actions)] if len(after.actions) > len(match.actions) else None
            computer = "🤖 Computer" if log.tr.language == "en" else "🤖 Компьютер"
            title = describe(made, computer, log.tr) if made is not None else computer
        await log.step(title)


def claim_button(move: int, data: HandCb) -> bool:
    return data.move == move and data.op in (HandOp.CLAIM, HandOp.CLAIM_ASK)


def hand_op(button: dict[str, object]) -> HandOp | None:
    data = hand_cb(button)
    return HandOp(data.op) if data is not None else None


def chosen(action: Action, match: Match, seat: int) -> Action:
    return action


def claimed_by_three(match: Match) -> bool:
    """Three greedy players end the first deal with a claim (and the deal started with no combination)."""
    if match.deal.over:
        return False
    events = play_offline(match, greedy)
    return any(isinstance(event, Claimed) for event in events)


async def scene(
    tg: FakeTelegram, workdir: Path, seed: str, tr: Translator, title: str
) -> tuple[BotProcess, Transcript]:
    bot = BotProcess(tg, workdir, seed)
    await bot.start()
    log = Transcript(tg, bot.database, tr)
    log.lines += [f"## {title}", ""]
    return bot, log


def watch_table(log: Transcript, players: Players) -> None:
    group_word = "Group" if log.tr.language == "en" else "Группа"
    private = "private chat" if log.tr.language == "en" else "личный чат"
    title = f"“{players.group.title}”" if log.tr.language == "en" else f"«{players.group.title}»"
    log.watch(f"{group_word} {title}", players.group)
    for user in players.by_seat.values():
        log.watch(f"{user.first_name}, {private}", log.tg.private_chat(user))


async def group_deal(workdir: Path, tr: Translator, count: int) -> list[str]:
    settings = TableSettings()
    if count == 2:
        seed = find_seed(settings, 2, lambda match: not match.deal.over, prefix="transcript-2")
        title = "Two players, one deal" if tr.language == "en" else "Двое, одна сдача"
    else:
        seed = find_seed(settings, 3, claimed_by_three, prefix="transcript-3")
        title = "Three players, a deal ended by a claim" if tr.language == "en" else "Трое, сдача до вскрытия"
    async with FakeTelegram(flood_limits=False) as tg:
        bot, log = await scene(tg, workdir, seed, tr, title)
        try:
            async with BotDatabase(bot.database) as storage:
                name = "Cards at Ann's" if tr.language == "en" else "Бура у Ани"
                players = await seat_players(tg, storage, count, title=name, language=tr.language)
                watch_table(log, players)
                await log.step("/new, все садятся, «Начать»" if tr.language == "ru" else "/new, all join, Start")
                await play_deal(players, log)
                creator = players.by_seat[min(players.by_seat)]
                tg.send_message(creator, players.group, "/score")
                await log.step(f"{creator.first_name}: /score")
        finally:
            await bot.stop()
    return log.lines


async def in_group_deal(workdir: Path, tr: Translator) -> list[str]:
    """Two players who never leave the group: each taps «🃏 Мои карты» under the table and plays from the hand the
    group shows him alone (issue 37); their private hands are kept current, and still ring."""
    english = tr.language == "en"
    seed = find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="transcript-in-group")
    title = "Played in the group itself: “🃏 My cards”" if english else "В самой группе: «🃏 Мои карты»"
    async with FakeTelegram(flood_limits=False) as tg:
        bot, log = await scene(tg, workdir, seed, tr, title)
        try:
            async with BotDatabase(bot.database) as storage:
                name = "Cards at Ann's" if english else "Бура у Ани"
                players = await seat_players(tg, storage, 2, title=name, language=tr.language)
                watch_table(log, players)
                for user in players.by_seat.values():
                    alone = f"seen by {user.first_name} alone" if english else f"видит только {user.first_name}"
                    log.watch(f"{'Group' if english else 'Группа'}, {alone}", players.group, alone=user)
                await log.step("/new, all join, Start" if english else "/new, все садятся, «Начать»")
                button = tr.t("ingroup-my-cards")
                for user in players.by_seat.values():
                    await players.show_in_group(user)
                    await log.step(f"{user.first_name}: «{button}»")
                await play_deal(players, log)
        finally:
            await bot.stop()
    return log.lines


BURACO_WRITTEN_MOVES = 10  # the first two rounds of a Бурако deal are written move by move; later, the moves that
# bring the group a message (a canastra, a morto, the deal's score)


async def buraco_deal(workdir: Path, tr: Translator) -> list[str]:
    """One person and three computers play a Бурако deal to its score: the person draws from the stock and discards
    (the computers meld, take the pile and go out by themselves)."""
    english = tr.language == "en"
    title = "Buraco: one person and three computers" if english else "Бурако: человек и три компьютера"
    async with FakeTelegram(flood_limits=False) as tg:
        # The computers think a second a turn (TIME_SCALE 1): each of their turns is a step of its own.
        bot, log = await scene(tg, workdir, "transcript-buraco", tr, title)
        try:
            async with BotDatabase(bot.database) as storage:
                name = "Ann" if english else "Аня"
                user: User = tg.user(name, "ann", language_code=tr.language)
                group = tg.group("Buraco night" if english else "Бурако по пятницам", owner=user)
                tg.add_bot(group)
                await tg.wait_bot_message(group, timeout=30)
                await tg.wait_bot_message(tg.private_chat(user), after=tg.start_bot(user), timeout=30)
                said = tg.send_message(user, group, "/new buraco" if english else "/new бурако")
                lobby = await tg.wait_bot_message(group, after=said, timeout=30)
                start = next(b for b in buttons(lobby) if str(b.get("callback_data", "")).startswith("l:s:"))
                answer = await tg.wait_answer(tg.tap(user, lobby, text=str(start["text"])), timeout=30)
                assert not answer.show_alert, answer.text
                table = await storage.get_open_table(group.id)
                assert table is not None
                players = Players(
                    tg, storage, {seat.seat: user for seat in table.seats if seat.user_id}, table.table_id
                )
                players.group_chat = group
                log.watch(f"{'Group' if english else 'Группа'} «{group.title}»", group)
                log.watch(f"{name}, " + ("private chat" if english else "личный чат"), tg.private_chat(user))
                await log.step(f"/new {'buraco' if english else 'бурако'}, «{start['text']}»")
                await play_buraco_deal(players, user, log)
        finally:
            await bot.stop()
    return log.lines


async def play_buraco_deal(players: Players, user: User, log: Transcript) -> None:
    """The deal to its score; the person's moves through his buttons. Turns past the first rounds are written
    only where the group hears of them."""
    english = log.tr.language == "en"
    table = await players.table()
    names = {seat.seat: seat.name for seat in table.seats}
    seat_of_user = next(seat.seat for seat in table.seats if seat.user_id == user.id)
    moves = 0
    skipped = 0
    while True:
        table = await players.table()
        assert table.state is not None
        match = buraco_match(TableState.from_json(table.state).match)
        if table.status is not TableStatus.PLAYING or match.deal_number >= 1:
            return
        seat = match.to_act()
        assert seat is not None
        heard = len(players.tg.messages(players.group, from_bot=True))
        if seat != seat_of_user:
            while (await players.table()).version == table.version:
                await asyncio.sleep(0.05)
            title = names[seat] + (": a turn" if english else ": ход")
        else:
            phase = match.deal.phase
            if phase is BuracoPhase.MELD:
                await press(players, user, table.version, BuracoOp.TOGGLE)
                title = await press(players, user, table.version, BuracoOp.DISCARD)
            else:
                op = BuracoOp.KEEP if phase is BuracoPhase.FIRST_CHOICE else BuracoOp.STOCK
                title = await press(players, user, table.version, op)
            title = f"{user.first_name}: «{title}»"
            while (await players.table()).version == table.version:
                await asyncio.sleep(0.05)
        moves += 1
        await log.settle()
        news = len(players.tg.messages(players.group, from_bot=True)) > heard
        written = moves <= BURACO_WRITTEN_MOVES or news
        if written and skipped:
            title = (f"(… {skipped} more moves …) " if english else f"(… ещё ходов: {skipped} …) ") + title
            skipped = 0
        skipped += 0 if written else 1
        await log.step(title, written=written)


async def press(players: Players, user: User, move: int, op: str) -> str:
    """Tap the first button of the person's hand for `move` with this op; the button's label."""

    def found(data: HandCb) -> bool:
        return data.move == move and data.op == op

    message, button = await players.hand_showing(user, found, f"{user.first_name}'s {op}")
    await players.tap(user, message, button)
    return str(button["text"])


async def computer_deal(workdir: Path, tr: Translator) -> list[str]:
    title = "Against the computer: /play" if tr.language == "en" else "Против компьютера: /play"
    async with FakeTelegram(flood_limits=False) as tg:
        bot, log = await scene(tg, workdir, "transcript-play", tr, title)
        try:
            async with BotDatabase(bot.database) as storage:
                name = "Ann" if tr.language == "en" else "Аня"
                user: User = tg.user(name, "ann", language_code=tr.language)
                chat = tg.private_chat(user)
                log.watch(f"{name}, " + ("private chat" if tr.language == "en" else "личный чат"), chat)
                await tg.wait_bot_message(chat, after=tg.start_bot(user), timeout=30)
                await log.step("/start")
                greeting = tg.messages(chat, from_bot=True)[-1]
                play = next(b for b in buttons(greeting) if "callback_data" in b)
                await tg.wait_answer(tg.tap(user, greeting, text=str(play["text"])), timeout=30)
                await log.step(f"«{play['text']}»")
                table = await storage.get_open_table(chat.id)
                assert table is not None
                players = Players(tg, storage, {0: user}, table.table_id)
                await play_deal(players, log)
        finally:
            await bot.stop()
    return log.lines


OCHKO_WRITTEN_MOVES = 16  # the first bank's moves are written one by one; later, the moves that close a bank


async def ochko_session(workdir: Path, tr: Translator) -> list[str]:
    """Three people play a session of Очко, one orbit of banks, each tapping the smallest bank, the whole bank
    as the bet, «Ещё» below 17 and «Стук» when asked (tests/ochko.py)."""
    english = tr.language == "en"
    title = "Ochko: three players, an orbit of banks" if english else "Очко: трое, круг банков"
    async with FakeTelegram(flood_limits=False) as tg:
        bot, log = await scene(tg, workdir, "transcript-ochko", tr, title)
        try:
            async with BotDatabase(bot.database) as storage:
                name = "Ochko at Ann's" if english else "Очко у Ани"
                players = await seat_players(
                    tg, storage, 3, title=name, settings=[("profile", "ochko")], language=tr.language
                )
                watch_table(log, players)
                await log.step("/new, ochko, all join, Start" if english else "/new, «Очко», все садятся, «Начать»")
                await play_ochko(players, log)
        finally:
            await bot.stop()
    return log.lines


async def play_ochko(players: Players, log: Transcript) -> None:
    """The session to its end through the people's buttons; past the first moves, only those that close a bank
    (and the last) are written."""
    for moves in range(2000):
        table = await players.table()
        match = ochko_match(TableState.from_json(table.state or "{}").match)
        if match.finished:
            return
        seat = match.to_act()
        assert seat is not None
        user = players.user(seat)
        wanted = button_of(scripted(match, seat))
        move = shown_move(table, seat)

        def offered(user: User = user, wanted: HandButton = wanted, move: int = move) -> tuple[Message, str] | None:
            hand = players.hand(user)
            for each in buttons(hand) if hand is not None else ():
                data = hand_cb(each)
                if data is not None and (data.move, data.op, data.cards) == (move, wanted.op.value, wanted.payload()):
                    assert hand is not None
                    return hand, str(each["text"])
            return None

        hand, label = await players.tg.wait_for(offered, 30, f"{user.first_name}'s {wanted}")
        answer = await players.tg.wait_answer(players.tg.tap(user, hand, text=label), timeout=30)
        assert not answer.show_alert, answer.text
        banks = match.banks_held
        await players.tg.wait_for(partial(moved, log, table.version), 30, f"{user.first_name}'s {label}")
        after = ochko_match(TableState.from_json((await players.table()).state or "{}").match)
        written = moves < OCHKO_WRITTEN_MOVES or after.banks_held != banks or after.finished
        await log.step(f"{user.first_name}: «{label}»", written=written)
    raise AssertionError("the session did not end")


def moved(log: Transcript, before: int) -> bool | None:
    """Whether the scene's table (one a scene) has moved past version ``before`` in the bot's database."""
    with closing(sqlite3.connect(f"file:{log.database}?mode=ro", uri=True, timeout=10)) as db:
        now = int(db.execute("SELECT MAX(version) FROM tables").fetchone()[0])
    return True if now > before else None


async def transcript(tr: Translator) -> str:
    header = [
        f"# Transcript ({tr.language})",
        "",
        "Written by `python -m tests.transcript`: the real bot against the fake Bot API of tests/botapi. After every",
        "step, each chat that changed, as it reads then: 🔔 a new message that rang the phone, 🔕 a silent one,",
        "✏️ an edit, ✖ a deletion; buttons in [brackets].",
        "",
    ]
    lines = header
    for run in ("two", "three", "in-group", "computer", "buraco", "ochko"):
        with tempfile.TemporaryDirectory(prefix="bura-transcript-") as workdir:
            path = Path(workdir)
            if run == "computer":
                lines += await computer_deal(path, tr)
            elif run == "in-group":
                lines += await in_group_deal(path, tr)
            elif run == "buraco":
                lines += await buraco_deal(path, tr)
            elif run == "ochko":
                lines += await ochko_session(path, tr)
            else:
                lines += await group_deal(path, tr, 2 if run == "two" else 3)
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.transcript", description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("ru", "en"), action="append", help="the language (default: both)")
    parser.add_argument("--out", type=Path, default=Path("docs"), help="where to write transcript-<lang>.md")
    args = parser.parse_args()
    translations = Translations()
    args.out.mkdir(parents=True, exist_ok=True)
    for language in args.lang or ["ru", "en"]:
        text = asyncio.run(transcript(translations.get(language)))
        path = args.out / f"transcript-{language}.md"
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
