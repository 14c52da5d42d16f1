"""The lobby: open a table in a group, join and leave, start the deal, cancel, expire when idle.

The lobby message is one group message edited in place (ref ``lobby``). A player who never started the bot is
sent to the private chat by the table's invitation (a signed deep link, `bot.services.invites`) and seated from
there (`bot.services.rejoin`, with «Ещё матч»), so that every player can get his hand before the deal. Only
members of the table's group sit at it (asked of Telegram before the table's lock is taken, as is whether someone
who is not the creator administers the group); the creator or an admin may remove a person from the lobby. The
settings menu (⚙️, /settings) stands in the lobby's message for a while: `bot.services.settings_menu`; lobby
settings are the group's settings (kept for its next tables too).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.games.registry import PROFILES, game_for, profile_of
from bot.i18n import Translator, language_for_telegram
from bot.render.keyboard import Keyboard, link, link_keyboard
from bot.render.lobby import LobbyPlayer, removable, render_lobby, render_remove_choices
from bot.services.context import Actor, IsAdmin, IsMember, Reply
from bot.services.core import TableCore, first_use
from bot.services.fairness import lobby_line, lobby_shuffle, start_message, with_fair
from bot.services.game import with_rematch
from bot.services.history import match_result
from bot.services.invites import invite_link
from bot.services.messages import html_text, lobby_message, text_message, unpin_table
from bot.services.ratings import RatingService
from bot.services.settings_menu import game_terms, stored, with_level
from bot.services.state import TableState
from bot.storage import (
    Deadline,
    JsonObject,
    OpenTableExistsError,
    OutboxKind,
    OutboxMessage,
    RatingUpdate,
    Seat,
    Table,
    TableStatus,
    UpdateAlreadyProcessedError,
)
from bot.table_settings import PROFILE_KEY, ComputerLevel, TableSettings
from bot.telegram.callbacks import LobbyOp

logger = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 30 * 60
LOBBY_DEADLINE = Deadline(seconds=LOBBY_IDLE_SECONDS)  # an idle lobby closes
NAMES_IN_ALERT = 3  # names listed in an alert before «и ещё 2» (an alert holds 200 characters)


def computer_names(seats: Sequence[Seat], tr: Translator) -> tuple[Seat, ...]:
    """The computers' names: «🤖 Компьютер» alone, numbered when there are two or more («Компьютер 1» next to a
    score reads as "Компьютер 10" otherwise)."""
    computers = [seat.seat for seat in seats if seat.user_id is None]
    numbers = {seat: (index if len(computers) > 1 else 0) for index, seat in enumerate(computers, start=1)}
    return tuple(
        seat.model_copy(update={"name": tr.t("lobby-computer-name", number=numbers[seat.seat])})
        if seat.user_id is None
        else seat
        for seat in seats
    )


def fill_seats(seats: Sequence[Seat], size: int, tr: Translator) -> list[Seat]:
    """A table of ``size`` seats (Buraco's four) from the people and computers seated: computers in the empty
    ones; two people sit as partners, opposite (RULES §17.1), the computers being the other pair."""
    people = [seat for seat in seats if seat.user_id is not None]
    places = [0, 2] if len(people) == 2 and len(seats) == 2 else list(range(len(seats)))
    filled = {place: seat.model_copy(update={"seat": place}) for place, seat in zip(places, seats, strict=False)}
    for place in range(size):
        filled.setdefault(place, Seat(seat=place, user_id=None, name=""))
    return list(computer_names([filled[place] for place in range(size)], tr))


def names_list(names: Sequence[str], tr: Translator, most: int = NAMES_IN_ALERT) -> str:
    """«Аня, Борис, Вика и ещё 2»: a list that fits an alert however many are in it."""
    shown = tr.t("list-separator").join(names[:most])
    if len(names) <= most:
        return shown
    return tr.t("flow-and-more", names=shown, count=len(names) - most)


async def member_reply(is_member: IsMember, chat_id: int, tr: Translator, *, alert: bool) -> Reply | None:
    """None if the actor is a member of the group ``chat_id``; else the refusal to answer with."""
    member = await is_member(chat_id)
    if member:
        return None
    return Reply(tr.t("flow-members-only" if member is False else "flow-members-unknown"), alert=alert)


def lobby_players(table: Table) -> list[LobbyPlayer]:
    """The seats as the lobby shows them (names raw: the renderer escapes), the creator known by his user id."""
    return [
        LobbyPlayer(seat.name, seat.user_id, seat.user_id is not None and seat.user_id == table.creator_id)
        for seat in table.seats
    ]


class LobbyService:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.repository = core.repository

    # -- opening -------------------------------------------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        actor: Actor,
        update_id: int | None = None,
        *,
        thread_id: int | None = None,
        profile: str | None = None,
    ) -> Reply:
        """/new: open a lobby with the creator seated; one table per group (in the forum topic `thread_id`, where
        the whole table then lives). A group that has no language yet takes the creator's. `profile`: the game
        asked for (/new бурако, a game's button), which becomes the chat's (as if chosen under ⚙️)."""
        core = self.core
        await core.remember(actor)
        await self.adopt_language(chat_id, actor)
        settings = await core.chat_settings(chat_id)
        tr = core.translations.get(settings.language)
        existing = await self.repository.get_open_table(chat_id)
        if existing is not None:
            return Reply(self._exists_text(existing, tr))
        changed: JsonObject | None = None
        if profile is not None and profile in PROFILES and profile != profile_of(settings):
            settings = settings.with_code(PROFILE_KEY, profile)
            changed = stored(settings)
        seats = (Seat(seat=0, user_id=actor.user_id, name=actor.name),)
        try:
            table = await self.repository.create_table(
                chat_id,
                actor.user_id,
                with_fair(settings.model_dump(mode="json"), core.test_seed),  # the shuffle's secret, kept here
                seats,
                update_id=first_use(update_id),
                thread_id=thread_id,
            )
        except OpenTableExistsError:
            existing = await self.repository.get_open_table(chat_id)
            return Reply(self._exists_text(existing, tr) if existing else tr.t("flow-lobby-exists"))
        except UpdateAlreadyProcessedError:
            return Reply()
        # The lobby message goes out with the first commit: it names the table id in its buttons (a crash in
        # between would leave a lobby without a message or timer: /stop ends it).
        await core.commit(
            table,
            outbox=[self.lobby_message(table, settings, tr, new=True)],
            deadline=LOBBY_DEADLINE,
            chat_settings=changed,
        )
        return Reply()

    async def adopt_language(self, chat_id: int, actor: Actor) -> None:
        """A group without a language of its own takes that of who brought the bot or opened its first table
        (the Telegram app's language; then the bot's default)."""
        chat = await self.repository.get_chat(chat_id)
        if chat is None or chat.language is None:
            language = language_for_telegram(actor.language_code, self.core.translations.default_language)
            await self.repository.upsert_chat(chat_id, language=language)

    async def managed_command(
        self,
        chat_id: int,
        actor: Actor,
        is_admin: IsAdmin,
        update_id: int | None,
        refusals: tuple[str, str],
        act: Callable[[Table, Translator], Awaitable[Reply]],
    ) -> Reply:
        """A group command on the chat's lobby, for its creator or an admin, before the deal: ``act`` runs under
        the table's lock; else a message says why not (``refusals``: no lobby, the game is on)."""
        core = self.core
        tr = await core.chat_translator(chat_id)
        no_lobby, playing = refusals
        table = await self.repository.get_open_table(chat_id)
        if table is None:
            return Reply(tr.t(no_lobby))
        if table.status is not TableStatus.LOBBY:
            return Reply(tr.t(playing))
        if not await self._may_manage(table, actor, is_admin):
            return Reply(tr.t("flow-only-creator"))
        async with core.live.table(table.table_id) as held:
            current = held.table
            if current is None or current.status is not TableStatus.LOBBY:
                return Reply(tr.t(playing))
            return await act(current, tr)

    @staticmethod
    def _exists_text(table: Table, tr: Translator) -> str:
        key = "flow-lobby-exists" if table.status is TableStatus.LOBBY else "flow-game-in-progress"
        return tr.t(key)

    def lobby_message(
        self, table: Table, settings: TableSettings, tr: Translator, *, new: bool = False
    ) -> OutboxMessage:
        game = game_terms(settings, tr)
        fairness = lobby_line(table, tr)
        text, markup = render_lobby(
            settings, game, lobby_players(table), tr, table_id=table.table_id, fairness=fairness
        )
        return self.lobby_payload(table, text, markup, new=new)

    @staticmethod
    def lobby_payload(table: Table, text: str, markup: Keyboard | None, *, new: bool = False) -> OutboxMessage:
        """The lobby's message showing ``text`` (the lobby, the settings menu, the list of people to remove)."""
        payload = html_text(text, markup, thread_id=table.thread_id)
        return lobby_message(table.chat_id, OutboxKind.SEND if new else OutboxKind.EDIT, payload)

    async def redraw(
        self,
        table: Table,
        message: OutboxMessage,
        update_id: int | None,
        *,
        chat_settings: JsonObject | None = None,
        chat_language: str | None = None,
    ) -> None:
        """The lobby's message shows another screen, committed with the chat's settings if they changed; the lobby
        stays open another idle half hour."""
        await self.core.commit(
            table,
            outbox=[message],
            update_id=update_id,
            deadline=LOBBY_DEADLINE,
            chat_settings=chat_settings,
            chat_language=chat_language,
        )

    async def record(self, table: Table, events: Sequence[object], update_id: int | None) -> bool:
        """Keep what the lobby learned (a player's seed, `bot.services.fairness`) in its event log; the lobby
        stays open another idle half hour. False when it was not applied (a redelivered update)."""
        committed = await self.core.commit(table, events=events, update_id=update_id, deadline=LOBBY_DEADLINE)
        return committed is not None

    # -- taps ----------------------------------------------------------------------------------------------

    async def tap(
        self,
        table_id: int,
        op: LobbyOp,
        chat_id: int,
        actor: Actor,
        *,
        update_id: int | None = None,
        is_admin: IsAdmin,
        is_member: IsMember,
        bot_username: str,
        title: str = "",
    ) -> Reply:
        """A lobby button. Every refusal is an alert; nothing changes then. What Telegram must be asked (is the
        joiner a member of the group, does someone other than the creator administer it) is asked before the
        table's lock is taken: a slow answer must not hold up the table."""
        core = self.core
        tr = core.actor_translator(actor)
        table = await self.repository.get_table(table_id)
        if table is None or table.chat_id != chat_id or table.status is not TableStatus.LOBBY:
            return Reply(tr.t("flow-stale-button"), alert=True)
        if op is LobbyOp.JOIN and (refused := await member_reply(is_member, chat_id, tr, alert=True)) is not None:
            return refused
        manages = op not in (LobbyOp.JOIN, LobbyOp.LEAVE) and await self._may_manage(table, actor, is_admin)
        await core.remember(actor)
        async with core.live.table(table_id) as held:
            table = held.table
            if table is None or table.chat_id != chat_id or table.status is not TableStatus.LOBBY:
                return Reply(tr.t("flow-stale-button"), alert=True)
            if op is LobbyOp.JOIN:
                return await self.join(table, actor, tr, update_id, bot_username)
            if op is LobbyOp.LEAVE:
                return await self._leave(table, actor, tr, update_id)
            if not manages:
                return Reply(tr.t("flow-only-creator"), alert=True)
            if op is LobbyOp.REMOVE_PLAYER:
                return await self._show_removable(table, update_id, tr)
            if op is LobbyOp.ADD_COMPUTER:
                return await self._add_computer(table, tr, update_id)
            if op is LobbyOp.REMOVE_COMPUTER:
                return await self._remove_computer(table, tr, update_id)
            if op is LobbyOp.START:
                return await self._start(table, actor, tr, update_id, title, bot_username=bot_username)
            if op is LobbyOp.CANCEL:
                return await self._cancel(table, tr, update_id)
        return Reply(tr.t("flow-stale-button"), alert=True)

    @staticmethod
    async def _may_manage(table: Table, actor: Actor, is_admin: IsAdmin) -> bool:
        """Who may change a lobby (its settings too, start or cancel it, seat computers, remove people): its creator
        or an admin of the group (Telegram asked only for someone else)."""
        return actor.user_id == table.creator_id or await is_admin()

    async def join(self, table: Table, actor: Actor, tr: Translator, update_id: int | None, bot_username: str) -> Reply:
        if any(seat.user_id == actor.user_id for seat in table.seats):
            return Reply(tr.t("flow-already-seated"))
        settings = await self.core.chat_settings(table.chat_id)
        if len(table.seats) >= (most := game_for(settings).player_range(settings)[1]):
            return Reply(tr.t("flow-lobby-full", count=most), alert=True)
        user = await self.repository.get_user(actor.user_id)
        if user is None or not user.started_bot or user.blocked:
            # Hands are dealt in the private chat: the player opens it first and is seated from there.
            return Reply(url=invite_link(bot_username, self.core.invite_key, table.table_id))
        return await self.seat(table, actor, settings, update_id, tr)

    async def seat(
        self,
        table: Table,
        actor: Actor,
        settings: TableSettings,
        update_id: int | None,
        tr: Translator,
        extra: Sequence[OutboxMessage] = (),
    ) -> Reply:
        seats = (*table.seats, Seat(seat=len(table.seats), user_id=actor.user_id, name=actor.name))
        seated = table.model_copy(update={"seats": seats})
        group_tr = self.core.translations.get(settings.language)
        committed = await self.core.commit(
            table,
            outbox=[self.lobby_message(seated, settings, group_tr), *extra],
            update_id=update_id,
            seats=seats,
            deadline=LOBBY_DEADLINE,
        )
        return Reply(tr.t("flow-joined") if committed else None)

    async def start(self, table: Table, actor: Actor, tr: Translator, title: str, *, bot_username: str = "") -> Reply:
        """Deal a lobby whose players are all seated, as its creator's «Начать» does (a rematch, once everyone is
        back: bot/services/rejoin.py); under the table's lock, in a change of its own."""
        return await self._start(table, actor, tr, None, title, bot_username=bot_username)

    async def add_computer_command(
        self,
        chat_id: int,
        actor: Actor,
        *,
        is_admin: IsAdmin,
        update_id: int | None = None,
        level: ComputerLevel | None = None,
    ) -> Reply:
        """/addbot [easy|hard]: seat a computer in the chat's lobby (creator or admin, before the deal), as the
        lobby's 🤖 button does. With a level, the table's computers play at that level (a table setting)."""

        async def add(table: Table, tr: Translator) -> Reply:
            reply = await self._add_computer(table, tr, update_id, level)
            return Reply(reply.text)  # a message in the chat, not an alert

        return await self.managed_command(
            chat_id, actor, is_admin, update_id, ("flow-addbot-no-lobby", "flow-addbot-playing"), add
        )

    async def _add_computer(
        self, table: Table, tr: Translator, update_id: int | None, level: ComputerLevel | None = None
    ) -> Reply:
        """Seat a computer player at the level the table's settings name; with `level`, the chat's computers play
        at that level from now on (a table setting, committed with the seat)."""
        settings = await self.core.chat_settings(table.chat_id)
        if len(table.seats) >= (most := game_for(settings).player_range(settings)[1]):
            return Reply(tr.t("flow-lobby-full", count=most), alert=True)
        settings, changed = with_level(settings, level)
        group_tr = self.core.translations.get(settings.language)
        seats = computer_names((*table.seats, Seat(seat=len(table.seats), user_id=None, name="")), group_tr)
        seated = table.model_copy(update={"seats": seats})
        committed = await self.core.commit(
            table,
            outbox=[self.lobby_message(seated, settings, group_tr)],
            update_id=update_id,
            seats=seats,
            deadline=LOBBY_DEADLINE,
            chat_settings=changed,
        )
        return Reply(tr.t("flow-computer-added") if committed else None)

    async def play_alone(self, actor: Actor, level: ComputerLevel | None, update_id: int | None = None) -> Reply:
        """/play in the private chat: a table against the computer, where that chat is the table and the hand."""
        core = self.core
        tr = core.actor_translator(actor)
        await core.remember(actor, started=True)
        chat_id = actor.user_id  # a private chat's id is the user's
        if await self.repository.get_open_table(chat_id) is not None:
            return Reply(tr.t("flow-play-exists"))
        await self.repository.upsert_chat(chat_id, language=tr.language)
        settings, changed = with_level(await core.chat_settings(chat_id), level)
        least, most = game_for(settings).player_range(settings)
        if least > 2 or most < 2:
            settings = settings.model_copy(update={"profile": TableSettings().profile})
        if settings.move_seconds is None:  # the computer answers at once: no clock against him, unless chosen
            settings = settings.model_copy(update={"move_seconds": 0})
        seats = (
            Seat(seat=0, user_id=actor.user_id, name=actor.name),
            Seat(seat=1, user_id=None, name=tr.t("lobby-computer-name", number=0)),
        )
        try:
            table = await self.repository.create_table(
                chat_id,
                actor.user_id,
                with_fair(settings.model_dump(mode="json"), core.test_seed),  # the shuffle's secret, kept here
                seats=seats,
                update_id=first_use(update_id),
            )
        except OpenTableExistsError:
            return Reply(tr.t("flow-play-exists"))
        async with core.live.locked(table.table_id):
            title = tr.t("flow-play-title")
            started = await self._start(table, actor, tr, None, title, settings=settings, chat_settings=changed)
        return Reply(started.text if started.alert else None)  # the game's own message shows it started

    async def _leave(self, table: Table, actor: Actor, tr: Translator, update_id: int | None) -> Reply:
        if not any(seat.user_id == actor.user_id for seat in table.seats):
            return Reply(tr.t("flow-not-seated"))
        await self._reseat(table, [seat for seat in table.seats if seat.user_id != actor.user_id], update_id)
        return Reply(tr.t("flow-left"))

    async def _show_removable(self, table: Table, update_id: int | None, tr: Translator) -> Reply:
        """The lobby message becomes the list of people the creator may remove (in the remover's language)."""
        players = lobby_players(table)
        if not removable(players):  # nobody to remove (he left meanwhile)
            return Reply(tr.t("flow-stale-button"), alert=True)
        text, markup = render_remove_choices(players, tr, table_id=table.table_id)
        await self.redraw(table, self.lobby_payload(table, text, markup), update_id)
        return Reply()

    async def remove_player(
        self,
        table_id: int,
        user_id: int,
        chat_id: int,
        actor: Actor,
        *,
        is_admin: IsAdmin,
        update_id: int | None = None,
    ) -> Reply:
        """A name in the «Убрать игрока» list: the creator (or an admin) removes that person from the lobby, and the
        lobby shows who is left. The creator cannot be removed (an admin ends the table with /stop instead)."""
        tr = self.core.actor_translator(actor)

        async def remove(table: Table) -> Reply:
            leaving = next((seat for seat in table.seats if seat.user_id == user_id), None)
            if leaving is None or user_id == table.creator_id:
                return Reply(tr.t("flow-stale-button"), alert=True)
            await self._reseat(table, [seat for seat in table.seats if seat.user_id != user_id], update_id)
            return Reply(tr.t("flow-player-removed", name=leaving.name))

        return await self.managed_button(table_id, chat_id, actor, is_admin, tr, remove)

    async def managed_button(
        self,
        table_id: int,
        chat_id: int,
        actor: Actor,
        is_admin: IsAdmin,
        tr: Translator,
        act: Callable[[Table], Awaitable[Reply]],
    ) -> Reply:
        """A lobby button for the creator or an admin: checked first (Telegram asked, if need be, before the
        table's lock), then ``act`` runs under the lock on the lobby as it is then. A stale or foreign button, or
        anyone else's tap, is an alert and changes nothing."""
        table = await self.repository.get_table(table_id)
        if table is None or table.chat_id != chat_id or table.status is not TableStatus.LOBBY:
            return Reply(tr.t("flow-stale-button"), alert=True)
        if not await self._may_manage(table, actor, is_admin):
            return Reply(tr.t("flow-only-creator"), alert=True)
        async with self.core.live.table(table_id) as held:
            table = held.table
            if table is None or table.chat_id != chat_id or table.status is not TableStatus.LOBBY:
                return Reply(tr.t("flow-stale-button"), alert=True)
            return await act(table)

    async def _remove_computer(self, table: Table, tr: Translator, update_id: int | None) -> Reply:
        """The computer seated last gets up (a stale button, with none seated, changes nothing)."""
        computers = [seat for seat in table.seats if seat.user_id is None]
        if not computers:
            return Reply(tr.t("flow-stale-button"), alert=True)
        last = computers[-1].seat
        await self._reseat(table, [seat for seat in table.seats if seat.seat != last], update_id)
        return Reply(tr.t("flow-computer-removed"))

    async def _reseat(self, table: Table, rest: Sequence[Seat], update_id: int | None) -> None:
        """Keep the seats ``rest``, numbered afresh in their order, and redraw the lobby."""
        settings = await self.core.chat_settings(table.chat_id)
        group_tr = self.core.translations.get(settings.language)
        seats = computer_names([seat.model_copy(update={"seat": n}) for n, seat in enumerate(rest)], group_tr)
        remaining = table.model_copy(update={"seats": seats})
        await self.core.commit(
            table,
            outbox=[self.lobby_message(remaining, settings, group_tr)],
            update_id=update_id,
            seats=seats,
            deadline=LOBBY_DEADLINE,
        )

    # -- start, cancel, expire -----------------------------------------------------------------------------

    async def _start(
        self,
        table: Table,
        actor: Actor,
        tr: Translator,
        update_id: int | None,
        title: str,
        *,
        settings: TableSettings | None = None,
        chat_settings: JsonObject | None = None,
        bot_username: str = "",
    ) -> Reply:
        """Deal: the match begins, the lobby message gives way to the table and the hands. `chat_settings`: the
        chat's settings to commit with it (the level /play names). A player the bot cannot write to holds it up:
        the refusal carries the table's invitation (`bot_username` known), which opens his private chat."""
        core = self.core
        if settings is None:
            settings = await core.chat_settings(table.chat_id)
        count = len(table.seats)
        game = game_for(settings)
        least, most = game.player_range(settings)
        if count < least:
            return Reply(tr.t("flow-need-players", count=least), alert=True)
        if count > most:
            return Reply(tr.t("flow-lobby-full", count=most), alert=True)
        unreachable: list[Seat] = []
        for seat in table.seats:
            if seat.user_id is None:
                continue
            user = await self.repository.get_user(seat.user_id)
            if user is None or not user.started_bot or user.blocked:
                unreachable.append(seat)
        group_tr = core.translations.get(settings.language)
        if unreachable:
            return await self._unreachable(table, unreachable, actor, tr, group_tr, bot_username)
        seats: list[Seat] | None = None
        size = game.seats(settings)
        if size is not None and count < size:
            seats = fill_seats(table.seats, size, group_tr)
            table = table.model_copy(update={"seats": seats})
            count = len(seats)
        fair = await lobby_shuffle(self.repository, table)  # the seeds by seat as they play: fixed from now on
        match = game.new_match(settings, count, core.new_seed(), fair)
        computers = frozenset(seat.seat for seat in table.seats if seat.user_id is None)
        state = TableState(match=match, settings=settings, title=title, computers=computers, game=game)
        version = table.version + 1
        started = game.start_events(match)
        over = match.finished  # a one-deal match can end as it is dealt (a dealt «Бура!», RULES §7)
        announced = core.messages.announcements(table, state, started, group_tr)
        stats = core.stats(table, state, started)
        rated: list[RatingUpdate] = []
        if over:  # rated as any match's end is (bot/services/game.py)
            standing = game.standing(match)
            announced, rated = await RatingService(self.repository).told(
                table, standing, stats, game.key, announced, group_tr
            )
        outbox: list[OutboxMessage] = [
            lobby_message(table.chat_id, OutboxKind.DELETE),
            *([start_message(table, fair, group_tr)] if fair is not None else []),
            *(with_rematch(announced, table, group_tr) if over else announced),
            *core.messages.table_message(table, state, group_tr, new=True),
            *await core.messages.hand_messages(
                table, state, version, new=True, stories=core.messages.story(table, state, started, None)
            ),
            *(unpin_table(table) if over else ()),
        ]
        committed = await core.commit(
            table,
            state=state,
            events=started,
            outbox=outbox,
            update_id=update_id,
            status=TableStatus.FINISHED if over else TableStatus.PLAYING,
            seats=seats,
            deadline=core.deadline(table, state),
            stats=stats,
            ratings=rated,
            result=match_result(state) if over else None,
            chat_settings=chat_settings,
        )
        return Reply(tr.t("flow-started") if committed else None)

    async def _unreachable(
        self,
        table: Table,
        unreachable: Sequence[Seat],
        actor: Actor,
        tr: Translator,
        group_tr: Translator,
        bot_username: str,
    ) -> Reply:
        """«Начать» with players the bot cannot write to: each must open its private chat (the table's invitation,
        which seats him there or tells him he is seated). The host who is one of them is taken there at once
        (the tap's answer is the link); the others are named in one quiet group message with the link as a button,
        and in the host's alert."""
        link_to = invite_link(bot_username, self.core.invite_key, table.table_id) if bot_username else None
        others = [seat for seat in unreachable if seat.user_id != actor.user_id]
        if others:
            names = [html.escape(seat.name) for seat in others]
            said = group_tr.t("flow-need-private-group", names=names_list(names, group_tr, len(names)))
            markup = link_keyboard([[link(group_tr.t("flow-need-private-button"), link_to)]]) if link_to else None
            await self.core.enqueue(
                [text_message(table.chat_id, said, thread_id=table.thread_id, silent=True, markup=markup)]
            )
        if link_to is not None and len(others) < len(unreachable):
            return Reply(url=link_to)  # his own private chat opens, and /start there tells him the table waits
        # The alert holds 200 characters: a few names, then «и ещё 2» (the group's message has them all).
        names = [html.escape(seat.name) for seat in unreachable]
        return Reply(tr.t("flow-need-private", names=names_list(names, tr)), alert=True)

    async def _cancel(self, table: Table, tr: Translator, update_id: int | None) -> Reply:
        settings = await self.core.chat_settings(table.chat_id)
        group_tr = self.core.translations.get(settings.language)
        message = self.lobby_payload(table, group_tr.t("flow-lobby-cancelled"), None)
        await self.core.commit(table, outbox=[message], update_id=update_id, status=TableStatus.FINISHED)
        return Reply(tr.t("flow-lobby-cancelled"))

    async def expire(self, table: Table) -> None:
        """The lobby was idle for 30 minutes: close it (called by the timer service under the table's lock)."""
        settings = await self.core.chat_settings(table.chat_id)
        group_tr = self.core.translations.get(settings.language)
        message = self.lobby_payload(table, group_tr.t("flow-lobby-expired"), None)
        await self.core.commit(table, outbox=[message], status=TableStatus.FINISHED)
