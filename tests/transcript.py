"""What every chat shows, step by step: ``python -m tests.transcript [--lang ru|en] [--out DIR]``.

Runs the real bot (``python -m bot``) against the fake Bot API of tests/botapi and plays three scenes as people
would, tapping the buttons the bot shows them: a 2-player deal, a 3-player deal that ends with «Вскрываюсь!», and
a deal against the computer with /play. After every step (a command, a tap that makes a move, the computer's
move), once the bot has delivered everything, it writes each chat that changed: its bot messages as they read
now (new, edited or deleted), with their buttons, and whether a new message rang the phone. One file a language
(``transcript-ru.md``, ``transcript-en.md``); the README's sample transcript is cut from ``transcript-ru.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bot.games.bura.buttons import HandOp
from bot.games.bura.cards import cards_text
from bot.i18n import Translations, Translator
from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.bura.actions import Action, Claim, DeclareCombo, Forfeit, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.events import Claimed
from engine.bura.match import Match
from tests.botapi import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess
from tests.e2e.players import Players, buttons, find_seed, greedy, hand_cb, play_offline, seat_players
from tests.e2e.reader import BotDatabase

QUIET = 0.3  # seconds with nothing left to deliver: the step's messages have all landed


@dataclass
class Seen:
    """A message as the transcript last wrote it."""

    text: str
    keyboard: list[list[str]]
    deleted: bool


@dataclass
class Transcript:
    """The chats of one scene and what each showed at the last step; `step` writes what changed since."""

    tg: FakeTelegram
    database: Path
    tr: Translator
    chats: list[tuple[str, Chat]] = field(default_factory=list)
    seen: dict[tuple[int, int], Seen] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    steps: int = 0

    def watch(self, label: str, chat: Chat) -> None:
        if all(chat.id != known.id for _, known in self.chats):
            self.chats.append((label, chat))

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

    async def step(self, what: str) -> None:
        await self.settle()
        self.steps += 1
        out = [f"### {self.steps}. {what}", ""]
        for label, chat in self.chats:
            changed = [self._line(message) for message in self._messages(chat)]
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

    def _messages(self, chat: Chat) -> list[Message]:
        return [message for message in chat.messages.values() if message.from_bot]

    def _line(self, message: Message) -> str | None:
        key = (message.chat.id, message.message_id)
        now = Seen(message.text or "", message.button_texts, message.deleted)
        before = self.seen.get(key)
        self.seen[key] = now
        if before == now or (before is None and message.deleted):
            return None
        if message.deleted:
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
    for run in ("two", "three", "computer"):
        with tempfile.TemporaryDirectory(prefix="bura-transcript-") as workdir:
            path = Path(workdir)
            if run == "computer":
                lines += await computer_deal(path, tr)
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
