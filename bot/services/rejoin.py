"""Coming back to a table: following its invitation from the group into the private chat, opening the private
chat a lobby waited for, and «Ещё матч» under a match's result, which seats that match's players again.

Each is a way into a lobby that is not the lobby's own button: the seating itself, the membership check and the
lobby message are the lobby's (`LobbyService`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from bot.games.registry import game_for
from bot.services.context import Actor, IsMember, Reply
from bot.services.core import TableCore, first_use
from bot.services.invites import invited_table
from bot.services.lobby import LOBBY_DEADLINE, LobbyService, computer_names, member_reply
from bot.services.messages import text_message
from bot.storage import OpenTableExistsError, Seat, Table, TableStatus, UpdateAlreadyProcessedError


class RejoinService:
    def __init__(self, core: TableCore, lobby: LobbyService) -> None:
        self.core = core
        self.repository = core.repository
        self.lobby = lobby

    async def join_from_link(
        self, payload: str, actor: Actor, *, is_member: IsMember, update_id: int | None = None
    ) -> Reply:
        """`/start <invitation>` in the private chat: the user started the bot, now seat him at the lobby, if the
        invitation is one of ours and he is a member of the table's group. A stranger's payload (another table's
        id, a made-up or old link) is answered as a table that is gone, and changes nothing of any table."""
        core = self.core
        tr = core.actor_translator(actor)
        was_reachable = await self._reachable(actor.user_id)
        await core.remember(actor, started=True)
        table_id = invited_table(core.invite_key, payload)
        found = await self.repository.get_table(table_id) if table_id is not None else None
        if table_id is None or found is None or found.status is not TableStatus.LOBBY:
            return Reply(tr.t("flow-link-expired"))
        if (refused := await member_reply(is_member, found.chat_id, tr, alert=False)) is not None:
            return refused
        async with core.live.table(table_id) as held:
            table = held.table
            if table is None or table.status is not TableStatus.LOBBY:
                return Reply(tr.t("flow-link-expired"))
            if any(seat.user_id == actor.user_id for seat in table.seats):
                if was_reachable:
                    return Reply(tr.t("flow-ready-private"))
                await self._tell_ready([table], actor, update_id)
                return Reply(tr.t("flow-table-waits"))
            settings = await core.chat_settings(table.chat_id)
            if len(table.seats) >= (most := game_for(settings).player_range(settings)[1]):
                return Reply(tr.t("flow-lobby-full", count=most))
            reply = await self.lobby.seat(table, actor, settings, update_id, tr)
        if reply.text is None:
            return Reply()
        return Reply(tr.t("flow-joined-private"))

    async def rematch(
        self,
        table_id: int,
        chat_id: int,
        actor: Actor,
        *,
        is_member: IsMember,
        bot_username: str,
        update_id: int | None = None,
        thread_id: int | None = None,
        title: str = "",
    ) -> Reply:
        """«Ещё матч» under the result of the chat's last match: its players sit down again, each by his own tap.
        The first tap opens a lobby with the chat's settings (those the match was played with), the tapper its
        creator and the match's computers seated at once; each later tap seats its player there, as a join does
        (a member of the group, his private chat open); once every person of that match sits there, the match
        starts by itself (issue 38; a lobby nobody completes expires as any lobby does). Only the players of that
        match, and only under the chat's last one: an older match's button, a forged one, or anyone else's tap is
        refused and changes nothing."""
        core = self.core
        tr = core.actor_translator(actor)
        old = await self.repository.get_table(table_id)
        last = await self.repository.last_finished_table(chat_id)
        if old is None or old.chat_id != chat_id or last is None or last.table_id != table_id:
            return Reply(tr.t("flow-stale-button"), alert=True)
        if not any(seat.user_id == actor.user_id for seat in old.seats):
            return Reply(tr.t("flow-rematch-not-yours"), alert=True)
        if (refused := await member_reply(is_member, chat_id, tr, alert=True)) is not None:
            return refused
        await core.remember(actor)
        people = {seat.user_id for seat in old.seats if seat.user_id is not None}
        current = await self.repository.get_open_table(chat_id)
        if current is None:
            computers = [seat for seat in old.seats if seat.user_id is None]
            opened = await self._open_rematch(old, actor, computers, update_id, thread_id)
            if opened is not None and (opened.text is None or people != {actor.user_id}):
                return opened  # others to wait for (or the tap was handled before)
            current = await self.repository.get_open_table(chat_id)  # another player's tap opened it meanwhile
            if current is None:
                return Reply(tr.t("flow-stale-button"), alert=True)
        if current.status is not TableStatus.LOBBY:
            return Reply(tr.t("flow-game-in-progress"), alert=True)
        async with core.live.table(current.table_id) as held:
            table = held.table
            if table is None or table.status is not TableStatus.LOBBY:
                return Reply(tr.t("flow-stale-button"), alert=True)
            joined = await self.lobby.join(table, actor, tr, update_id, bot_username)
            if joined.alert or joined.url is not None:
                return joined
            seated = await self.repository.get_table(table.table_id)
            if seated is None or not people <= {seat.user_id for seat in seated.seats}:
                return joined
            # Everyone is back: the match starts as the creator's «Начать» would start it.
            creator = next((seat for seat in seated.seats if seat.user_id == seated.creator_id), None)
            starter = actor if creator is None else Actor(seated.creator_id, creator.name)
            started = await self.lobby.start(seated, starter, tr, title, bot_username=bot_username)
            return started if started.alert else Reply(tr.t("flow-rematch-started"))

    async def _open_rematch(
        self, old: Table, actor: Actor, computers: Sequence[Seat], update_id: int | None, thread_id: int | None
    ) -> Reply | None:
        """The rematch's lobby: the tapper and the computers of the match `old` seated. None if the chat has a
        table open already (another tap was first)."""
        core = self.core
        settings = await core.chat_settings(old.chat_id)
        group_tr = core.translations.get(settings.language)
        people = [Seat(seat=0, user_id=actor.user_id, name=actor.name)]
        seats = computer_names(
            [*people, *(Seat(seat=n, user_id=None, name="") for n in range(1, len(computers) + 1))], group_tr
        )
        try:
            table = await self.repository.create_table(
                old.chat_id,
                actor.user_id,
                settings.model_dump(mode="json"),
                seats,
                update_id=first_use(update_id),
                thread_id=thread_id if thread_id is not None else old.thread_id,
            )
        except OpenTableExistsError:
            return None
        except UpdateAlreadyProcessedError:
            return Reply()
        await core.commit(
            table, outbox=[self.lobby.lobby_message(table, settings, group_tr, new=True)], deadline=LOBBY_DEADLINE
        )
        return Reply(core.actor_translator(actor).t("flow-rematch-opened"))

    async def start_private(self, actor: Actor, update_id: int | None = None) -> Reply:
        """/start without an invitation: he opens the private chat. If that is what a lobby he sits at waited for
        (he had never opened it, or had blocked the bot), he is told the table waits and its group that he is
        ready; else nothing is said here (the greeting is the handler's)."""
        was_reachable = await self._reachable(actor.user_id)
        await self.core.remember(actor, started=True)
        if was_reachable:
            return Reply()
        lobbies = []
        for table_id in await self.repository.seated_at(actor.user_id):
            table = await self.repository.get_table(table_id)
            if table is not None and table.status is TableStatus.LOBBY and table.chat_id != actor.user_id:
                lobbies.append(table)
        if not lobbies:
            return Reply()
        await self._tell_ready(lobbies, actor, update_id)
        return Reply(self.core.actor_translator(actor).t("flow-table-waits"))

    async def _reachable(self, user_id: int) -> bool:
        user = await self.repository.get_user(user_id)
        return user is not None and user.started_bot and not user.blocked

    async def _tell_ready(self, tables: Sequence[Table], actor: Actor, update_id: int | None) -> None:
        """Each lobby's group hears, quietly and once (he was unreachable until now), that the player it waited
        for can get his cards: the host may start."""
        outbox = []
        for table in tables:
            group_tr = await self.core.chat_translator(table.chat_id)
            name = html.escape(actor.name)
            # «можно начинать» only when nobody else at the table is still out of reach (the start would fail).
            waiting = [
                html.escape(seat.name)
                for seat in table.seats
                if seat.user_id is not None
                and seat.user_id != actor.user_id
                and not await self._reachable(seat.user_id)
            ]
            if waiting:
                names = group_tr.t("list-separator").join(waiting)
                said = group_tr.t("flow-player-ready-others-wait", name=name, names=names)
            else:
                said = group_tr.t("flow-player-ready", name=name)
            outbox.append(text_message(table.chat_id, said, thread_id=table.thread_id, silent=True))
        await self.core.enqueue(outbox, update_id)
