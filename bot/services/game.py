"""The game: taps on the hand keyboard, moves the timer makes for a player, /score, stopping a table.

A hand button names the table and a move number: the last move that changed its player's hand (his view
version, `TableState.shown_move`), so a move he cannot see leaves his buttons valid; a tap on an older keyboard
is stale and changes nothing. A card tap only re-renders the tapper's hand with the new selection: the keyboard is
stateless (the marks ride in its buttons), so the table's state, events and version stay as they were, and only
the redrawn hand is queued in the outbox, in a commit of its own that records the update as handled; an action tap
is looked up among the engine's legal actions, applied, and committed with the new picture of the table, the hands
it changed and the announcements. «Стоп!» is a race
the engine settles: whichever action is applied first under the table's lock wins, the other tap is then stale.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot import metrics
from bot.games.base import ActionT, EventT, MatchT, MomentT, Redraw, Refused, Waiting, short_hex
from bot.i18n import Translator
from bot.render.keyboard import button, keyboard
from bot.render.reasons import reason_text
from bot.services.computer import Thinker
from bot.services.context import Actor, IsAdmin, Reply
from bot.services.core import TableCore
from bot.services.history import match_result
from bot.services.messages import Place, lobby_message, text_message, unpin_table
from bot.services.ratings import RatingService
from bot.services.state import AWAY_AFTER_TIMEOUTS, AnyState, TableState, is_private, seat_names, seat_of
from bot.storage import OutboxKind, OutboxMessage, RatingUpdate, Table, TableStatus
from bot.telegram.callbacks import REFRESH, HandCb, MyCardsCb, RematchCb
from engine.core.errors import IllegalAction

logger = logging.getLogger(__name__)


MOVES_A_TURN = 200  # a turn longer than this is committed as it is, and goes on at the next timer


@dataclass(frozen=True, slots=True)
class Tapped:
    """A tap's answer, and the hand it asks to draw again where the place it came from draws hands itself (the Mini
    App: `GameService.tapped`)."""

    reply: Reply
    redraw: Redraw | None = None


class GameService:
    def __init__(self, core: TableCore, thinker: Thinker | None = None) -> None:
        self.core = core
        self.repository = core.repository
        self.thinker = thinker if thinker is not None else Thinker()
        self.ratings = RatingService(core.repository)

    # -- taps on the hand ----------------------------------------------------------------------------------

    async def tap(
        self, data: HandCb, actor: Actor, update_id: int | None = None, *, in_group: int | None = None
    ) -> Reply:
        """Handle a tap on a hand; returns its answer, once what the tap changed is committed (a move is
        durable before the player is told it was accepted). A refusal changes nothing and says why.

        `in_group`: the tap came from the hand shown to him alone in this group (else: his private chat); a
        redraw (a card marked) is drawn where he tapped, a move in both his hands."""
        return (await self.tapped(data, actor, update_id, in_group=in_group)).reply

    async def tapped(
        self,
        data: HandCb,
        actor: Actor,
        update_id: int | None = None,
        *,
        in_group: int | None = None,
        draws_itself: bool = False,
    ) -> Tapped:
        """`tap`, for a place that also draws the hand itself: the Mini App (`draws_itself`), where a tap that only
        redraws the hand (a card marked, 🔄) queues nothing and hands its `Redraw` back to be drawn there. A move
        is committed and told in both his hands in Telegram, as any tap's."""
        core = self.core
        tr = core.actor_translator(actor)
        try:
            async with core.live.table(data.table) as held:
                table, state = held.table, held.state
                if table is None or state is None:
                    return Tapped(Reply(tr.t("flow-game-over"), alert=True))
                if in_group is not None and in_group != table.chat_id:
                    return Tapped(Reply(tr.t("flow-stale-button"), alert=True))  # not this table's group: forged
                seat = seat_of(table, actor.user_id)
                if seat is None:
                    return Tapped(Reply(tr.t("flow-not-at-table"), alert=True))
                # His buttons name the last move that changed his hand: one drawn before a move he cannot see
                # (another seat declining «Стоп!», say) is still his hand as it is, and does what it says.
                current = data.move == state.shown_move(seat, table.version)
                if not current and data.op != REFRESH:
                    # An opponent's «Стоп!» or claim got in first: say who did what, not just "stale".
                    why = state.game.stale_reason(state.match, seat, seat_names(table.seats), tr)
                    return Tapped(Reply(why or tr.t("flow-stale-button"), alert=True))
                # 🔄 on an old keyboard (a hand that did not arrive, say) redraws the hand as it is now.
                payload = data.cards if current else ""
                place = None if draws_itself else Place.PRIVATE if in_group is None else Place.GROUP
                return await self._tap(table, state, seat, data.op, payload, tr, update_id, place)
        except IllegalAction as error:
            # Raised out of the table's block, the half-played state is not kept: the next change reads it again.
            return Tapped(Reply(reason_text(error.reason, tr), alert=True))

    async def _tap(
        self,
        table: Table,
        state: TableState[MatchT, ActionT, EventT, MomentT],
        seat: int,
        op: str,
        payload: str,
        tr: Translator,
        update_id: int | None,
        place: Place | None,
    ) -> Tapped:
        """What the tapped button means to the table's game: a hand drawn again, a refusal, or a move."""
        try:
            decided = state.game.tap(state.match, seat, op, payload)
        except ValueError:
            return Tapped(Reply(tr.t("flow-stale-button"), alert=True))
        if isinstance(decided, Redraw):
            if place is None:
                return Tapped(Reply(), decided)  # the Mini App draws it
            await self._redraw_hand(table, state, seat, decided, update_id, place)
            return Tapped(Reply())
        if state.paused:
            return Tapped(Reply(tr.t("flow-paused-tap"), alert=True))
        if isinstance(decided, Refused):
            return Tapped(Reply(reason_text(decided.reason, tr), alert=True))
        before = state.game.before(state.match)
        events = state.game.play(state.match, decided.actions)
        state.timeouts.pop(seat, None)  # he is here: the count of timeouts in a row starts again
        await self.commit_move(table, state, events, before, update_id=update_id)
        return Tapped(Reply())

    async def _redraw_hand(
        self, table: Table, state: AnyState, seat: int, redraw: Redraw, update_id: int | None, place: Place
    ) -> None:
        """A card marked, a move to confirm, or 🔄: only the tapper's hand is drawn again, where he tapped it,
        queued in the outbox with the update's id (the table's state is not touched). With marks that make no
        move the hand says why (the engine's reason); 🔄 sends his private hand anew at the bottom."""
        messages = await self.core.messages.hand_messages(
            table,
            state,
            None,
            only=seat,
            selection=redraw.selection,
            ping={seat} if redraw.resend else (),
            confirm=redraw.confirm,
            refusal=redraw.refusal,
            places=place,
        )
        await self.core.enqueue(messages, update_id)

    async def show_in_group(
        self, data: MyCardsCb, actor: Actor, chat_id: int, query_id: str, update_id: int | None = None
    ) -> Reply:
        """«🃏 Мои карты» under the group's table: the tapper's own hand shown to him alone in the group, with the
        same buttons, kept current from then on (his seat joins `TableState.in_group`, in a commit of its own
        that keeps the move timer as it runs). Anyone not seated at this table of this group is refused."""
        core = self.core
        tr = core.actor_translator(actor)
        async with core.live.table(data.table) as held:
            table, state = held.table, held.state
            if table is None or state is None or table.chat_id != chat_id or state.match.finished:
                return Reply(tr.t("flow-game-over"), alert=True)
            seat = seat_of(table, actor.user_id)
            if seat is None:
                return Reply(tr.t("ingroup-not-seated"), alert=True)
            shown = await core.messages.group_hand(table, state, seat, actor.user_id, query_id)
            if seat in state.in_group:
                await core.enqueue([shown], update_id)  # shown anew: the one he had may have expired
                return Reply()
            state.in_group = state.in_group | {seat}
            deadline = core.deadline(table, state)
            if deadline is not None:
                deadline = deadline.model_copy(update={"keep": True})
            await core.commit(table, state=state, outbox=[shown], update_id=update_id, deadline=deadline)
        return Reply()

    # -- committing a move ---------------------------------------------------------------------------------

    async def commit_move(
        self,
        table: Table,
        state: TableState[MatchT, ActionT, EventT, MomentT],
        events: Sequence[EventT],
        before: MomentT,
        *,
        update_id: int | None = None,
        notes: Sequence[str] = (),
        told: Mapping[int, Callable[[Translator], str]] | None = None,
    ) -> Table | None:
        """Commit a move the engine applied: the table, the hands it changed and the announcements, with the stats.

        `notes` go to the group as quiet lines (a timeout, say); `told` adds a line to a seat's hand, in his
        language. A player whose turn this move brings gets his hand anew at the bottom of the chat, so that it
        rings; at the match's end the table is unpinned, and its people's new ratings are committed with it (their
        changes told with the result)."""
        core = self.core
        group_tr = await core.chat_translator(table.chat_id)
        version = table.version + 1
        match = state.match
        story = core.messages.story(table, state, events, before)

        def lines(seat: int, tr: Translator) -> list[str]:
            said = [told[seat](tr)] if told and seat in told else []
            return said + story(seat, tr)

        humans = {s.seat for s in table.seats if s.user_id is not None}
        waiting = state.game.waiting_for(match)
        ping = {seat for seat, _ in waiting - before.waiting} & humans
        if state.game.new_deal(before, match):
            ping = {seat for seat, _ in waiting} & humans  # a new deal: whoever it waits for hears of it
        if is_private(table):
            ping = set()  # against the computer: he is at the table, and its answer comes in a second; one edit
        hands = await core.messages.hand_messages(table, state, version, ping=ping, stories=lines)
        announced = core.messages.announcements(table, state, events, group_tr, before)
        stats = core.stats(table, state, events)
        rated: list[RatingUpdate] = []
        if match.finished:
            # Read before the commit that writes them: a person's rating changes only at a match's end.
            standing = state.game.standing(match)
            announced, rated = await self.ratings.told(table, standing, stats, state.game.key, announced, group_tr)
        outbox: list[OutboxMessage] = [
            *(text_message(table.chat_id, note, thread_id=table.thread_id, silent=True) for note in notes),
            *(with_rematch(announced, table, group_tr) if match.finished else announced),
            *core.messages.table_message(table, state, group_tr),
            *hands,
            *(unpin_table(table) if match.finished else ()),
        ]
        deadline = core.deadline(table, state)
        seat = match.to_act()
        if (
            deadline is not None
            and deadline.shown_in is not None
            and (seat, Waiting.MOVE) in before.waiting & waiting
            and not any(message.chat_id == deadline.shown_in[0] for message in hands)
        ):
            # The same player is still to move and saw nothing of this move (another seat declined «Стоп!»): his
            # timer runs on as it ran, or a fresh one (and a second reminder) would tell him something happened.
            deadline = deadline.model_copy(update={"keep": True})
        committed = await core.commit(
            table,
            state=state,
            events=events,
            outbox=outbox,
            update_id=update_id,
            status=TableStatus.FINISHED if match.finished else None,
            deadline=deadline,
            stats=stats,
            ratings=rated,
            result=match_result(state) if match.finished else None,
        )
        if committed is not None:
            metrics.MOVES.inc()
        return committed

    # -- the move timer ------------------------------------------------------------------------------------

    async def timeout(self, table: Table, state: AnyState | None) -> None:
        """The player to act let the timer run out: play the cheapest legal move for him and say so.

        Three timeouts in a row and he is taken as away until he taps his hand again: he forfeits the deal (and
        each later deal at his first timeout), or, where the table allows it, a computer takes his seat and plays
        for him at once (a few seconds a move). The auto-moves never claim.
        Called by the timer service in the table's block (`LiveTables.table`), after it checked the version.
        """
        if state is not None:
            await self._timeout(table, state)

    async def _timeout(self, table: Table, state: TableState[MatchT, ActionT, EventT, MomentT]) -> None:
        game = state.game
        caller = game.out_of_turn_caller(state.match, state.computers)
        if caller is not None:
            # The timer was a computer's thinking time for an out-of-turn «Стоп!», not the player's move.
            await self._computer_move(table, state, caller)
            return
        seat = state.match.to_act()
        if seat is not None and seat in state.computers:
            await self._computer_move(table, state, seat)
            return
        action = game.auto_action(state.match, seat) if seat is not None else None
        if seat is None or action is None:
            await self.core.commit(table)  # nothing to wait for: drop the timer
            return
        count = state.timeouts.get(seat, 0) + 1
        # He is away and the table lets the computer take his seat until he taps again.
        takeover = count >= AWAY_AFTER_TIMEOUTS and state.settings.computer_takeover
        if takeover:
            action = await self._decide(table, state, seat)
        tr = await self.core.chat_translator(table.chat_id)
        humans = [s.seat for s in table.seats if s.user_id is not None]
        if count >= AWAY_AFTER_TIMEOUTS and all(
            state.timeouts.get(other, 0) >= AWAY_AFTER_TIMEOUTS for other in humans if other != seat
        ):
            # Nobody is left to play: the bot would play against itself for ever. The table ends.
            outbox = await self._closing(table, state, _said("flow-all-away"))
            await self.core.commit(table, outbox=outbox, status=TableStatus.FINISHED, result=match_result(state))
            return
        name = html.escape(seat_names(table.seats).get(seat, "?"))
        before = game.before(state.match)
        state.timeouts[seat] = count
        if count >= AWAY_AFTER_TIMEOUTS and not state.settings.computer_takeover:
            forfeited = game.forfeit(state.match, seat)  # where the game has the ruling: the deal is lost
            if forfeited is not None:
                # What the forfeit is, in the game's own words where it has them (Очко's player leaves the table).
                notes = [tr.own(game.key, "flow-timeout-forfeit", name=name)]
                await self.commit_move(table, state, forfeited, before, notes=notes)
                return
        events = game.play(state.match, (action,))
        turn = [action]
        for _ in range(MOVES_A_TURN):  # the rest of his turn, played the same way, in the same commit
            if not game.continues(state.match, seat, action):
                break
            if takeover:
                action = await self._decide(table, state, seat)
            else:
                following = game.auto_action(state.match, seat)
                if following is None:
                    break
                action = following
            events += game.play(state.match, (action,))
            turn.append(action)
        moves = tuple(turn)  # what the note tells is the whole turn
        notes = []
        played = game.played_text(moves, tr)
        if count < AWAY_AFTER_TIMEOUTS:
            notes.append(tr.t("flow-timeout-move", name=name, played=played))
        elif count == AWAY_AFTER_TIMEOUTS:
            notes.append(tr.t("flow-timeout-away", name=name, played=played))

        def told(hand_tr: Translator) -> str:
            return hand_tr.t("hand-timeout-move", played=game.played_text(moves, hand_tr))

        await self.commit_move(table, state, events, before, notes=notes, told={seat: told})

    async def _decide(self, table: Table, state: TableState[MatchT, ActionT, EventT, MomentT], seat: int) -> ActionT:
        # A hard computer searches for a while: it thinks elsewhere (bot/services/computer.py), the bot keeps
        # answering meanwhile.
        seed = f"{table.table_id}/{table.version}"
        return await self.thinker.action(state.game.decision(state.match, seat, state.settings.computer_level, seed))

    async def _computer_move(
        self, table: Table, state: TableState[MatchT, ActionT, EventT, MomentT], seat: int
    ) -> None:
        """A computer's turn (its timer is its thinking time): it decides from its seat's view and moves."""
        action = await self._decide(table, state, seat)
        before = state.game.before(state.match)
        events = state.game.play(state.match, (action,))
        for _ in range(MOVES_A_TURN):  # the turn's moves in one commit: one edit of the group's table
            if not state.game.continues(state.match, seat, action):
                break
            action = await self._decide(table, state, seat)
            events += state.game.play(state.match, (action,))
        await self.commit_move(table, state, events, before)

    # -- commands ------------------------------------------------------------------------------------------

    async def score(self, chat_id: int) -> str:
        """/score: the match as the table counts it (wins, penalty points or chips), and whose turn it is."""
        tr = await self.core.chat_translator(chat_id)
        table = await self.repository.get_open_table(chat_id)
        if table is None:
            return await self._last_score(chat_id, tr)
        if table.state is None:
            return tr.t("flow-no-game")
        state = TableState.from_json(table.state)
        return "\n".join(state.game.score_lines(state.match, seat_names(table.seats), state.settings, tr))

    async def _last_score(self, chat_id: int, tr: Translator) -> str:
        """/score with no table open: how the chat's last match ended (over, or stopped), as long as its state is
        kept; then how to start the next one."""
        last = await self.repository.last_finished_table(chat_id)
        if last is None or last.state is None:
            return tr.t("flow-no-game")
        state = TableState.from_json(last.state)
        _title, *rest = state.game.score_lines(state.match, seat_names(last.seats), state.settings, tr)
        ended = "flow-score-last-over" if state.match.finished else "flow-score-last-stopped"
        # The game's lines are its title, its tally, then whose turn it was: the turn is over now.
        return "\n".join([tr.t(ended), *rest[:1], tr.t("flow-score-next")])

    async def stop(self, chat_id: int, actor: Actor, *, is_admin: IsAdmin, update_id: int | None = None) -> Reply:
        """/stop: the creator or an admin ends the chat's table, in the lobby or in play."""
        core = self.core
        tr = await core.chat_translator(chat_id)
        table = await self.repository.get_open_table(chat_id)
        if table is None:
            return Reply(tr.t("flow-no-table"))
        if actor.user_id != table.creator_id and not await is_admin():
            return Reply(tr.t("flow-only-creator"))
        async with core.live.table(table.table_id) as held:
            table = held.table
            if table is None or table.status is TableStatus.FINISHED:
                return Reply(tr.t("flow-no-table"))
            outbox = await self._closing(
                table, held.state, lambda language: language.t("flow-stopped", name=html.escape(actor.name))
            )
            result = match_result(held.state) if held.state is not None else None
            await core.commit(table, outbox=outbox, update_id=update_id, status=TableStatus.FINISHED, result=result)
        return Reply()  # the group is told through the outbox

    async def close_removed(self, chat_id: int) -> None:
        """The bot was removed from the group: close its table and tell the players in private."""
        core = self.core
        await self.repository.set_chat_removed(chat_id)
        table = await self.repository.get_open_table(chat_id)
        if table is None:
            return
        async with core.live.table(table.table_id) as held:
            table = held.table
            if table is None or table.status is TableStatus.FINISHED:
                return
            closing = await self._closing(table, held.state, _said("flow-bot-removed"))
            outbox = [m for m in closing if m.chat_id != chat_id]
            result = match_result(held.state) if held.state is not None else None
            await core.commit(table, outbox=outbox, status=TableStatus.FINISHED, result=result)

    async def pause(self, chat_id: int) -> None:
        """The bot may no longer write in the group (its rights were taken away): the table stops — no moves,
        no move timer — and each player is told in private what to do. The group's messages wait in order."""
        await self._set_paused(chat_id, paused=True)

    async def resume(self, chat_id: int) -> None:
        """A message got through to a group whose table was paused: the game goes on where it stopped, with a
        fresh move timer; the group and the hands are brought up to date."""
        await self._set_paused(chat_id, paused=False)

    async def _set_paused(self, chat_id: int, *, paused: bool) -> None:
        core = self.core
        found = await self.repository.get_open_table(chat_id)
        if found is None or found.status is not TableStatus.PLAYING:
            return
        async with core.live.table(found.table_id) as held:
            table, state = held.table, held.state
            if table is None or state is None or state.paused is paused:
                return
            state.paused = paused
            outbox: list[OutboxMessage] = []
            if paused:
                for seat in table.seats:
                    if seat.user_id is None:
                        continue
                    user = await self.repository.get_user(seat.user_id)
                    tr = core.translations.get(user.language if user else None)
                    note = tr.t("flow-paused-private", title=html.escape(state.title))
                    outbox.append(text_message(seat.user_id, note))
            else:
                group_tr = await core.chat_translator(chat_id)
                outbox.append(text_message(chat_id, group_tr.t("flow-resumed"), thread_id=table.thread_id))
                outbox += core.messages.table_message(table, state, group_tr)
            outbox += await core.messages.hand_messages(table, state, table.version + 1)
            deadline = None if paused else core.deadline(table, state)
            await core.commit(table, state=state, outbox=outbox, deadline=deadline)

    async def _closing(
        self, table: Table, state: AnyState | None, says: Callable[[Translator], str]
    ) -> list[OutboxMessage]:
        """A table that ends before its match does: the group is told (one line), the table message shows its
        final state (`state`, None before the deal) with how it ended, it is unpinned, and each hand shows the end
        without buttons."""
        core = self.core
        group_tr = await core.chat_translator(table.chat_id)
        if state is not None:
            says = _with_seed_revealed(says, state)
        outbox = [text_message(table.chat_id, says(group_tr), thread_id=table.thread_id)]
        if state is None:
            return [*outbox, lobby_message(table.chat_id, OutboxKind.DELETE)]
        if is_private(table):
            outbox = []  # the hand message says it, once
        outbox += core.messages.table_message(table, state, group_tr, ended=says(group_tr))
        outbox += unpin_table(table)
        for seat in table.seats:
            if seat.user_id is None:
                continue
            user = await self.repository.get_user(seat.user_id)
            tr = core.translations.get(user.language if user else None)
            outbox += await core.messages.hand_messages(table, state, table.version + 1, only=seat.seat, ended=says(tr))
        return outbox

    async def player_unreachable(self, user_id: int) -> None:
        """A player blocked the bot: tell the group of each open table he sits at."""
        for status in (TableStatus.LOBBY, TableStatus.PLAYING):
            for table in await self.repository.list_tables(status):
                seat = seat_of(table, user_id)
                if seat is None:
                    continue
                tr = await self.core.chat_translator(table.chat_id)
                name = html.escape(seat_names(table.seats)[seat])
                text = tr.t("flow-player-unreachable", name=name)
                await self.core.enqueue([text_message(table.chat_id, text, thread_id=table.thread_id)])


def _said(key: str) -> Callable[[Translator], str]:
    """A line of the locales, in whatever language it is asked in."""

    def say(tr: Translator) -> str:
        return tr.t(key)

    return say


def _with_seed_revealed(says: Callable[[Translator], str], state: AnyState) -> Callable[[Translator], str]:
    """How a table that ends before its match does says so, with the seed of the deal it leaves unfinished (issue
    38: no later deal will be dealt, so it gives nothing away; /verify shows the rest)."""
    fair = state.game.fair(state.match)
    deal = state.game.fair_deal(state.match)
    if fair is None or deal < 1:
        return says

    def said(tr: Translator) -> str:
        return f"{says(tr)}\n{tr.t('fair-reveal', deal=deal, seed=short_hex(fair.seed(deal)))}"

    return said


def with_rematch(announced: Sequence[OutboxMessage], table: Table, tr: Translator) -> list[OutboxMessage]:
    """The group's last announcement of a match that just ended (its result) carries «Ещё матч»: a new lobby for
    the same players and settings (`LobbyService.rematch`). Not in a game against the computer (/play again)."""
    if not announced or is_private(table):
        return list(announced)
    last = announced[-1]
    payload = {**(last.payload or {})}
    rows = list(payload.get("reply_markup", {}).get("inline_keyboard", []))  # «Как это было» stays above it
    rows += keyboard([[button(tr.t("flow-rematch-button"), RematchCb(table=table.table_id).pack())]])["inline_keyboard"]
    payload["reply_markup"] = {"inline_keyboard": rows}
    return [*announced[:-1], last.model_copy(update={"payload": payload})]
