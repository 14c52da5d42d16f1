"""The verifiable shuffle at a table (issue 38, docs/fairness.md): commit, let the players seed, reveal.

When a lobby opens, the server draws the match's master secret and keeps it in the table's stored settings
(``table.settings["fair"]``, with the word that makes the default seeds); the lobby shows the match commitment
``SHA-256(s_1)``. Each player may choose his seed in the lobby (/seed, kept as a ``PlayerSeed`` in the table's
event log, the last one counting); one who chooses none plays with his default, «<his Telegram id>-<the word>»
(a computer: «bot<seat>-<the word>»), shown by /verify. At the start the match is built with ``FairShuffle``
(the seeds by seat, fixed from then on) and stores the shuffle in its state; from then on the match is the truth.

The master never leaves the database (the lobby table's settings, then the match's state): no message and no log
line carries it, and nothing shows ``table.settings``. A deal's seed is revealed once the deal is over (its result's
line, `bot.games.base.reveal_line`, and /verify), never earlier: the next deal's commitment is that same value.

A bot with a fixed deck seed (tests only) deals by that seed as before and shows nothing of this: everybody who
knows the seed knows every deck, there is nothing to verify. An empty one leaves the shuffle fair.
"""

from __future__ import annotations

import html
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.games.base import short_hex
from bot.i18n import Translator
from bot.services.context import Actor, Reply
from bot.services.core import TableCore
from bot.services.messages import document_message, text_message
from bot.services.state import TableState, seat_names
from bot.storage import Event, JsonObject, OutboxMessage, Seat, Storage, Table, TableStatus
from bot.telegram.callbacks import parse_id
from bot.telegram.calls import UPLOAD_MOST
from engine.core.fair import FairShuffle, SeedChain

if TYPE_CHECKING:
    from bot.services.lobby import LobbyService

FAIR_KEY = "fair"  # the lobby table's stored settings: {"master": hex (secret), "word": of the default seeds}
SEED_TYPE = "PlayerSeed"  # a player's chosen seed in the table's event log
SEED_MOST = 64  # characters of a chosen seed
REVEALED_SHOWN = 12  # /verify lists the seeds of the last deals over, this many
VERIFY_COMMAND = "python -m engine.verify"


@dataclass(frozen=True, slots=True)
class MatchFile:
    """A finished match's verifier JSON (``/verify export``), sent as a file: its name, its text, the caption."""

    filename: str
    content: str
    caption: str


@dataclass(frozen=True, slots=True)
class PlayerSeed:
    """A player's seed chosen in the lobby (/seed); the last one of his counts."""

    user_id: int
    seed: str


def new_lobby_fair() -> JsonObject:
    """The secret a lobby keeps in its stored settings: the master (CSPRNG) and the word of its default seeds."""
    return {"master": secrets.token_bytes(32).hex(), "word": secrets.token_hex(3)}


def with_fair(settings: JsonObject, fixed_seed: str | None) -> JsonObject:
    """A new table's stored settings: with the shuffle's secret, unless a fixed deck seed (tests) deals it."""
    return settings if fixed_seed else {**settings, FAIR_KEY: new_lobby_fair()}


def lobby_chain(table: Table) -> tuple[SeedChain, str] | None:
    """The lobby's seed chain and the word of its default seeds; None for a table opened without them."""
    data = table.settings.get(FAIR_KEY)
    if not isinstance(data, dict):
        return None
    return SeedChain(bytes.fromhex(str(data["master"]))), str(data["word"])


def default_seed(seat: Seat, word: str) -> str:
    """A seat's seed when its player chose none: his Telegram id and the lobby's word (a computer: its seat)."""
    who = str(seat.user_id) if seat.user_id is not None else f"bot{seat.seat}"
    return f"{who}-{word}"


def chosen_seeds(events: Sequence[Event]) -> dict[int, str]:
    """user id -> the seed he chose last in the lobby."""
    return {
        int(event.payload["user_id"]): str(event.payload["seed"])
        for event in events
        if event.payload.get("type") == SEED_TYPE
    }


def seeds_by_seat(seats: Sequence[Seat], word: str, chosen: Mapping[int, str]) -> tuple[str, ...]:
    return tuple(
        chosen.get(seat.user_id, default_seed(seat, word)) if seat.user_id is not None else default_seed(seat, word)
        for seat in sorted(seats, key=lambda seat: seat.seat)
    )


async def lobby_shuffle(repository: Storage, table: Table) -> FairShuffle | None:
    """The shuffle of a lobby about to start, its seats as they will play: None if it was opened without one."""
    found = lobby_chain(table)
    if found is None:
        return None
    chain, word = found
    chosen = chosen_seeds(await repository.get_events(table.table_id))
    return FairShuffle(chain, seeds_by_seat(table.seats, word, chosen))


def lobby_line(table: Table, tr: Translator) -> str | None:
    """The lobby's line: the match commitment, short, how to choose a seed and what the default is."""
    found = lobby_chain(table)
    if found is None:
        return None
    chain, word = found
    return tr.t("fair-lobby", commitment=short_hex(chain.match_commitment.hex()), word=word)


def _seeds_text(seeds: Sequence[str], names: Mapping[int, str], tr: Translator) -> str:
    return tr.t("list-separator").join(
        tr.t("fair-seat-seed", name=html.escape(names.get(seat, "?")), seed=html.escape(seed))
        for seat, seed in enumerate(seeds)
    )


def start_message(table: Table, fair: FairShuffle, tr: Translator) -> OutboxMessage:
    """The first message of a fair match: the commitment of deal 1 (the match's) and the seeds, now fixed."""
    text = tr.t(
        "fair-start",
        commitment=short_hex(fair.match_commitment),
        seeds=_seeds_text(fair.player_seeds, seat_names(table.seats), tr),
    )
    return text_message(table.chat_id, text, thread_id=table.thread_id, silent=True)


class FairnessService:
    """/seed in a lobby and /verify of a chat's table."""

    def __init__(self, core: TableCore, lobby: LobbyService) -> None:
        self.core = core
        self.repository = core.repository
        self.lobby = lobby

    # -- /seed ---------------------------------------------------------------------------------------------

    async def set_seed(self, chat_id: int, actor: Actor, text: str, update_id: int | None = None) -> Reply:
        """/seed <text>: the actor's seed for the open lobby he sits in (this group's; from his private chat, the
        one lobby he sits in). Once the deal started, the seeds are fixed."""
        tr = self.core.actor_translator(actor)
        seed = " ".join(text.split())
        if not seed:
            return Reply(tr.t("fair-seed-usage", most=SEED_MOST))
        if len(seed) > SEED_MOST:
            return Reply(tr.t("fair-seed-too-long", most=SEED_MOST))
        table = await self._lobby_of(chat_id, actor)
        if table is None:
            return Reply(tr.t("fair-seed-no-lobby"))
        if table.status is not TableStatus.LOBBY:
            return Reply(tr.t("fair-seed-started"))
        if lobby_chain(table) is None:
            return Reply(tr.t("fair-unverifiable"))
        async with self.core.live.table(table.table_id) as held:
            current = held.table
            if current is None or current.status is not TableStatus.LOBBY:
                return Reply(tr.t("fair-seed-started"))
            if all(seat.user_id != actor.user_id for seat in current.seats):
                return Reply(tr.t("fair-seed-no-lobby"))
            committed = await self.lobby.record(current, [PlayerSeed(actor.user_id, seed)], update_id)
        return Reply(tr.t("fair-seed-set", seed=html.escape(seed)) if committed else None)

    async def _lobby_of(self, chat_id: int, actor: Actor) -> Table | None:
        """The table /seed is about: the group's open one if he sits there; in his private chat, the lobby he
        sits in (else a table he plays at, so that the answer says it started)."""
        if chat_id < 0:
            table = await self.repository.get_open_table(chat_id)
            seated = table is not None and any(seat.user_id == actor.user_id for seat in table.seats)
            return table if seated else None
        table_ids = await self.repository.seated_at(actor.user_id)
        found = [table for table_id in table_ids if (table := await self.repository.get_table(table_id)) is not None]
        lobbies = [table for table in found if table.status is TableStatus.LOBBY]
        return next(iter(lobbies or found), None)

    # -- /verify -------------------------------------------------------------------------------------------

    async def verify(self, chat_id: int, argument: str) -> str | MatchFile:
        """/verify: the chat's table (open, else the last one dealt): its commitment, the players' seeds, the
        seeds of the deals over; ``/verify N`` deal N in full; ``/verify export`` the verifier's JSON of the
        chat's last match over, as a file (`export`)."""
        tr = await self.core.chat_translator(chat_id)
        word = argument.strip().lower()
        if word == "export":
            return await self.export(chat_id, tr)
        table = await self.repository.get_open_table(chat_id) or await self.repository.last_finished_table(chat_id)
        if table is None:
            return tr.t("fair-no-table")
        if table.status is TableStatus.LOBBY or table.state is None:
            return await self._lobby_text(table, tr)
        state = TableState.from_json(table.state)
        game, match = state.game, state.match
        fair = game.fair(match)
        if fair is None:
            return tr.t("fair-unverifiable")
        dealt = game.fair_deal(match)
        over = dealt if table.status is TableStatus.FINISHED else game.fair_over(match)
        names = seat_names(table.seats)
        if word:
            number = parse_id(word) or 0  # ASCII digits only: «²».isdigit() is true, int(«²») raises
            if not 1 <= number <= dealt:
                return tr.t("fair-deal-unknown", count=dealt)
            if number > over:
                return tr.t("fair-deal-not-over", deal=number)
            return tr.t(
                "fair-deal",
                deal=number,
                seed=fair.seed(number),
                commitment=fair.commitment(number),
                match=fair.match_commitment,
                seeds=_seeds_text(fair.player_seeds, names, tr),
                command=VERIFY_COMMAND,
            )
        lines = [
            tr.t("fair-match", commitment=fair.match_commitment),
            tr.t("fair-seeds", seeds=_seeds_text(fair.player_seeds, names, tr)),
        ]
        if over < dealt:
            lines.append(tr.t("fair-current", deal=dealt, commitment=fair.commitment(dealt)))
        if over:
            shown = range(max(1, over - REVEALED_SHOWN + 1), over + 1)
            revealed = tr.t("list-separator").join(
                tr.t("fair-revealed-one", deal=deal, seed=short_hex(fair.seed(deal))) for deal in shown
            )
            lines.append(tr.t("fair-revealed", seeds=revealed))
        lines.append(tr.t("fair-how", command=VERIFY_COMMAND))
        return "\n".join(lines)

    async def export(self, chat_id: int, tr: Translator) -> str | MatchFile:
        """``/verify export``: the verifier's JSON of the chat's last match over (in a group, its last finished
        table; in a private chat, the last game against the computer), as a file named by its game and table, in
        a caption the chat's language says how to check it. It shows every card, so a match still on (and no
        match over before it) is told to wait for its end. A file over what the outbox carries (`UPLOAD_MOST`: a
        Бура deal takes about a KB, a long match some fifty) is told, not sent."""
        table = await self.repository.last_finished_table(chat_id) or await self.repository.get_open_table(chat_id)
        if table is None:
            return tr.t("fair-no-table")
        if table.state is None:
            return tr.t("fair-unverifiable" if lobby_chain(table) is None else "fair-export-not-yet")
        state = TableState.from_json(table.state)
        game, match = state.game, state.match
        if game.fair(match) is None:
            return tr.t("fair-unverifiable")
        over = game.fair_deal(match) if table.status is TableStatus.FINISHED else 0
        if not over:
            return tr.t("fair-export-not-yet")
        content = json.dumps(game.fair_export(match, over), ensure_ascii=False, separators=(",", ":")) + "\n"
        size = len(content.encode())
        if size > UPLOAD_MOST:
            return tr.t("export-too-large", size=-(-size // 1024), most=UPLOAD_MOST // 1024)
        filename = f"{game.key}-match-{table.table_id}.json"
        caption = tr.t("export-caption", title=html.escape(state.title), command=f"python -m engine.verify {filename}")
        return MatchFile(filename, content, caption)

    async def send_file(
        self,
        chat_id: int,
        file: MatchFile,
        update_id: int,
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Queue the file for the chat, a reply to the command (in its forum topic), delivered as any message."""
        message = document_message(
            chat_id, file.filename, file.content, file.caption, thread_id=thread_id, reply_to=reply_to
        )
        await self.core.enqueue([message], update_id)

    async def _lobby_text(self, table: Table, tr: Translator) -> str:
        found = lobby_chain(table)
        if found is None:
            return tr.t("fair-unverifiable")
        chain, word = found
        chosen = chosen_seeds(await self.repository.get_events(table.table_id))
        seeds = seeds_by_seat(table.seats, word, chosen)
        return "\n".join(
            [
                tr.t("fair-match", commitment=chain.match_commitment.hex()),
                tr.t("fair-seeds", seeds=_seeds_text(seeds, seat_names(table.seats), tr)),
                tr.t("fair-lobby-how", word=word),
            ]
        )
