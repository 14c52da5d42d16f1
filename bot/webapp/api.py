"""The Mini App's HTTP API, on an aiohttp server the bot runs (bot/webapp/server.py says which).

Every request names its table by a table token (bot/webapp/tokens.py) and says who asks by Telegram's initData in
``Authorization: tma <initData>`` (bot/webapp/initdata.py): a header, never the URL, so no access log or proxy log
keeps it. (A browser's ``EventSource`` cannot send a header: the page reads the event stream with ``fetch``.)

- ``GET /webapp/api/table?t=<token>``: the table as the asker may see it. A seated player gets what his private
  hand shows now (its text and its buttons, each with the ``HandCb`` data a tap on it sends); anyone else in the
  table's group the group's table text (spectating); anyone else 403.
- ``POST /webapp/api/tap`` ``{"t": <token>, "data": <a hand button's data>}``: the tap runs through
  `GameService.tapped`, the path a hand button's tap takes (the seat by user id, the move number, the engine's
  refusal, one commit with the outbox and the timer), and is answered only once that commit is durable. A tap
  that only marks cards (or 🔄) changes nothing stored and queues nothing: the answer carries the hand drawn
  with the marks (``hand``), whose buttons go on from there.
- ``GET /webapp/api/replay?t=<token>&deal=<n>``: «Как это было», deal ``n`` (over) as the asker saw it, for a
  player of it: the lines his private chat would get (``GameAdapter.replay``), as plain text.
- ``GET /webapp/api/events?t=<token>``: server-sent events, one ``version`` event each time the table's version
  changes (``id`` is the version, so ``Last-Event-ID`` resumes without a repeat), a heartbeat comment while
  nothing changes, an ``end`` event when the match is over.

The stream learns of commits by reading the table's row, about once per `POLL_SECONDS` per table however many
streams watch it: a commit made by another instance (PostgreSQL) is seen as well as one of this process.

Both the table and a tap's marks carry ``board``: the table drawn for the asker (bot/games/board.py), which the
page draws (bot/webapp/static/). Taps are limited per user as button taps are (bot/handlers/throttle.py's
rate): past it, 429 ``slow_down`` and nothing happens.

A refusal is a status and ``{"error": <code>}``: 400 ``bad_request``, ``bad_button``, ``no_deal``; 401 with
the initData's refusal (``missing``, ``malformed``, ``forged``, ``expired``, ``no_user``); 403 ``not_allowed``;
404 ``no_table``; 429 ``slow_down``; 503 ``try_again`` (Telegram could not say who is in the group, or the
database failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from pydantic import ValidationError

from bot.games.base import Redraw
from bot.handlers.throttle import Buckets
from bot.i18n import Translator
from bot.render.common import plain
from bot.services import TableService
from bot.services.messages import hand_payload
from bot.services.replays import deals_over, replay_texts
from bot.services.state import AnyState, TableState, is_private, seat_names, seat_of
from bot.storage import StorageError, Table, TableStatus
from bot.telegram.callbacks import HandCb
from bot.webapp.initdata import InitDataRefused, Viewer, verify_init_data
from bot.webapp.tokens import table_key, token_table

logger = logging.getLogger(__name__)

API = "/webapp/api"
AUTH_SCHEME = "tma"  # Authorization: tma <initData>, as Telegram's Mini App examples send it
MAX_BODY = 8192
POLL_SECONDS = 0.5  # a commit reaches the streams within this (plus the read), well within a second
HEARTBEAT_SECONDS = 15.0  # a comment line while nothing changes: proxies keep the stream open, the page knows it lives
RETRY_MS = 1000  # how soon a lost stream is opened again

MemberCheck = Callable[[int, int], Awaitable[bool | None]]
"""Whether user (2nd) is a member of group (1st), asked of Telegram (None: it could not tell now)."""


_REFUSALS: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    401: web.HTTPUnauthorized,
    403: web.HTTPForbidden,
    404: web.HTTPNotFound,
    429: web.HTTPTooManyRequests,
    503: web.HTTPServiceUnavailable,
}


def _refuse(status: int, code: str) -> web.HTTPException:
    return _REFUSALS[status](text=json.dumps({"error": code}), content_type="application/json")


@dataclass(frozen=True, slots=True)
class Access:
    """A table the asker may look at, and his seat at it (None: he spectates)."""

    table: Table
    seat: int | None


class WebAppApi:
    """The Mini App's routes, over the bot's services. `clock` is wall time (initData's auth_date is)."""

    def __init__(
        self,
        tables: TableService,
        *,
        bot_token: str,
        is_member: MemberCheck,
        max_age: float,
        clock: Callable[[], float] = time.time,
        poll: float = POLL_SECONDS,
        heartbeat: float = HEARTBEAT_SECONDS,
        taps: Buckets | None = None,
    ) -> None:
        self.tables = tables
        self._token = bot_token  # checks initData's hash; never logged
        self._key = table_key(bot_token)
        self.is_member = is_member
        self.max_age = max_age
        self.clock = clock
        self.poll = poll
        self.heartbeat = heartbeat
        self.taps = taps  # each user's taps, as his button taps are limited (None: no limit)
        self._read: dict[int, tuple[float, Table | None]] = {}  # table id -> its last read, while streams watch it
        self._watching: dict[int, int] = {}  # table id -> how many streams watch it
        self.stopping = asyncio.Event()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(f"{API}/table", self.table)
        app.router.add_post(f"{API}/tap", self.tap)
        app.router.add_get(f"{API}/events", self.events)
        app.router.add_get(f"{API}/replay", self.replay)
        app.on_shutdown.append(self._stop)

    async def _stop(self, _app: web.Application) -> None:
        self.stopping.set()  # the streams end now, not at the server's shutdown timeout

    # -- who asks, and for which table -----------------------------------------------------------------------

    def viewer(self, request: web.Request) -> Viewer:
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        try:
            given = init_data.strip() if scheme.lower() == AUTH_SCHEME else ""
            return verify_init_data(self._token, given, now=self.clock(), max_age=self.max_age)
        except InitDataRefused as refused:
            raise _refuse(401, refused.reason.value) from None

    def table_id(self, token: object) -> int:
        table_id = token_table(self._key, token) if isinstance(token, str) else None
        if table_id is None:
            raise _refuse(404, "no_table")
        return table_id

    async def access(self, viewer: Viewer, table_id: int) -> Access:
        """His seat, or his membership of the table's group: nobody sees another chat's table."""
        table = await self.tables.core.repository.get_table(table_id)
        if table is None:
            raise _refuse(404, "no_table")
        seat = seat_of(table, viewer.user_id)
        if seat is not None:
            return Access(table, seat)
        if is_private(table):  # a game against the computer: its chat is its player's own
            raise _refuse(403, "not_allowed")
        member = await self.is_member(table.chat_id, viewer.user_id)
        if member is None:
            raise _refuse(503, "try_again")
        if not member:
            raise _refuse(403, "not_allowed")
        return Access(table, None)

    # -- the routes ------------------------------------------------------------------------------------------

    async def table(self, request: web.Request) -> web.Response:
        viewer = self.viewer(request)
        table_id = self.table_id(request.query.get("t"))
        try:
            access = await self.access(viewer, table_id)
            view = await self.view(viewer, table_id, access.seat)
        except StorageError as error:
            logger.warning("mini app: table %s could not be read: %s", table_id, error)
            raise _refuse(503, "try_again") from None
        return web.json_response(view)

    async def view(self, viewer: Viewer, table_id: int, seat: int | None) -> dict[str, Any]:
        """The table as `seat` sees it now (None: as the group does), read under the table's lock (the state the
        last commit kept, and no move half made)."""
        core = self.tables.core
        async with core.live.table(table_id) as held:
            table, state = held.table, held.state
            if table is None:
                raise _refuse(404, "no_table")
            if seat is not None:
                seat = seat_of(table, viewer.user_id)  # as it is now, under the lock (a lobby's seats change)
            view: dict[str, Any] = {
                "status": table.status.value,
                "version": table.version,
                "role": "spectator" if seat is None else "player",
                "seat": seat,
                "move": None,
                "text": None,
                "buttons": [],
            }
            if state is None and table.status is TableStatus.FINISHED and table.state is not None:
                state = TableState.from_json(table.state)  # the last picture: public, no buttons
                seat = None
            if state is None:
                return view  # a lobby: the group's lobby message says who sits
            if seat is None:
                view["text"] = core.messages.table_text(table, state, await core.chat_translator(table.chat_id))
                view["board"] = self._board(table, state, None, await self._translator(viewer), view["version"])
                return view
            view.update(await self._hand(viewer, table, state, seat))
            return view

    async def _translator(self, viewer: Viewer) -> Translator:
        """The asker's language, as his private hand speaks it."""
        core = self.tables.core
        user = await core.repository.get_user(viewer.user_id)
        return core.translations.get(user.language) if user is not None else core.actor_translator(viewer.actor)

    @staticmethod
    def _board(
        table: Table, state: AnyState, seat: int | None, tr: Translator, move: int, redraw: Redraw | None = None
    ) -> dict[str, Any]:
        """The table drawn for `seat` (None: a spectator), its buttons naming `move`, as the hand's keyboard."""
        board = state.game.board(
            state.match,
            seat,
            seat_names(table.seats),
            tr,
            table_id=table.table_id,
            move=move,
            selection=redraw.selection if redraw is not None else "",
            paused=state.paused,
            confirm=redraw is not None and redraw.confirm,
            refusal=redraw.refusal if redraw is not None else None,
        )
        drawn = board.to_json()
        drawn["deals_over"] = deals_over(state)  # the replays the page offers: the services' count, one truth
        return drawn

    async def _hand(
        self, viewer: Viewer, table: Table, state: AnyState, seat: int, redraw: Redraw | None = None
    ) -> dict[str, Any]:
        """What his private hand shows now, as `MoveMessages.hand_messages` draws it (in his language); with
        `redraw`, as a tap that marks cards (or 🔄) draws it again."""
        core = self.tables.core
        tr = await self._translator(viewer)
        move = state.shown_move(seat, table.version)
        table_text = core.messages.table_text(table, state, tr) if is_private(table) else None
        payload = hand_payload(
            table,
            state,
            seat,
            tr,
            move,
            (),
            table_text=table_text,
            selection=redraw.selection if redraw is not None else "",
            confirm=redraw is not None and redraw.confirm,
            refusal=redraw.refusal if redraw is not None else None,
            ended=None,
        )
        markup = payload.get("reply_markup") or {"inline_keyboard": []}
        rows = [
            [{"text": each["text"], "data": each["callback_data"]} for each in row if "callback_data" in each]
            for row in markup["inline_keyboard"]
        ]
        board = self._board(table, state, seat, tr, move, redraw)
        return {"move": move, "text": payload["text"], "buttons": [row for row in rows if row], "board": board}

    async def tap(self, request: web.Request) -> web.Response:
        viewer = self.viewer(request)
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise _refuse(400, "bad_request")
        try:
            raw = await request.read()  # within the app's client_max_size, then ours
            if len(raw) > MAX_BODY:
                raise _refuse(400, "bad_request")
            body = json.loads(raw)
        except ValueError:
            raise _refuse(400, "bad_request") from None
        if not isinstance(body, dict) or not isinstance(body.get("data"), str):
            raise _refuse(400, "bad_request")
        table_id = self.table_id(body.get("t"))
        if self.taps is not None and not self.taps.take(viewer.user_id):
            raise _refuse(429, "slow_down")  # before any lock or read: a flood costs the table nothing
        try:
            data = HandCb.unpack(body["data"])
        except (TypeError, ValueError, ValidationError):  # TypeError: not as many fields as a hand button's
            raise _refuse(400, "bad_button") from None
        if data.table != table_id:
            raise _refuse(400, "bad_button")  # a button of another table than the token's: forged
        try:
            # The call a hand button's tap makes (bot/handlers/game.py); marks and 🔄 are drawn here, not queued.
            tapped = await self.tables.game.tapped(data, viewer.actor, draws_itself=True)
            hand = await self._redrawn(viewer, table_id, tapped.redraw) if tapped.redraw is not None else None
            table = await self.tables.core.repository.get_table(table_id)
        except StorageError as error:
            logger.warning("mini app: a tap on table %s failed: %s", table_id, error)
            raise _refuse(503, "try_again") from None
        reply = tapped.reply
        version = table.version if table is not None else None
        return web.json_response({"text": reply.text, "alert": reply.alert, "version": version, "hand": hand})

    async def _redrawn(self, viewer: Viewer, table_id: int, redraw: Redraw) -> dict[str, Any] | None:
        """His hand with the marks a tap made (the tap was his, at this table: the service checked his seat)."""
        async with self.tables.core.live.table(table_id) as held:
            table, state = held.table, held.state
            seat = seat_of(table, viewer.user_id) if table is not None else None
            if table is None or state is None or seat is None:
                return None
            return await self._hand(viewer, table, state, seat, redraw)

    async def replay(self, request: web.Request) -> web.Response:
        viewer = self.viewer(request)
        table_id = self.table_id(request.query.get("t"))
        deal_text = request.query.get("deal", "")
        deal = int(deal_text) if deal_text.isascii() and deal_text.isdigit() and len(deal_text) < 6 else 0
        try:
            access = await self.access(viewer, table_id)
            if access.seat is None:
                raise _refuse(403, "not_allowed")  # a replay is a player's own view of his deal
            table = access.table
            if table.state is None:
                raise _refuse(400, "no_deal")
            tr = await self._translator(viewer)
            texts = await asyncio.to_thread(replay_texts, table.state, deal, access.seat, seat_names(table.seats), tr)
        except StorageError as error:
            logger.warning("mini app: a replay of table %s failed: %s", table_id, error)
            raise _refuse(503, "try_again") from None
        if texts is None:
            raise _refuse(400, "no_deal")
        lines = [line for text in texts for line in plain(text).split("\n")]
        return web.json_response({"deal": deal, "lines": lines})

    async def events(self, request: web.Request) -> web.StreamResponse:
        viewer = self.viewer(request)
        table_id = self.table_id(request.query.get("t"))
        try:
            access = await self.access(viewer, table_id)
        except StorageError:
            raise _refuse(503, "try_again") from None
        last = request.headers.get("Last-Event-ID", "")
        sent = int(last) if last.isascii() and last.isdigit() and len(last) < 19 else None
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        table: Table | None = access.table
        quiet_since = time.monotonic()
        self._watching[table_id] = self._watching.get(table_id, 0) + 1
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while table is not None and not self.stopping.is_set():
                if request.transport is None or request.transport.is_closing():
                    break  # the page went away
                if viewer.auth_date + self.max_age < self.clock():
                    break  # his initData is too old now: the page opens the stream again with a fresh one
                if table.version != sent:
                    sent = table.version
                    data = json.dumps({"version": sent, "status": table.status.value})
                    await response.write(f"id: {sent}\nevent: version\ndata: {data}\n\n".encode())
                    quiet_since = time.monotonic()
                if table.status is TableStatus.FINISHED:
                    await response.write(b"event: end\ndata: {}\n\n")
                    break
                if time.monotonic() - quiet_since >= self.heartbeat:
                    await response.write(b": heartbeat\n\n")
                    quiet_since = time.monotonic()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), self.poll)
                table = await self._latest(table_id)
        except (ConnectionResetError, StorageError) as error:
            logger.debug("mini app: the stream of table %s ended: %r", table_id, error)
        finally:
            self._watching[table_id] -= 1
            if not self._watching[table_id]:
                del self._watching[table_id]
                self._read.pop(table_id, None)
        return response

    async def _latest(self, table_id: int) -> Table | None:
        """The table's row, read once per poll for all the streams that watch it."""
        now = time.monotonic()
        read = self._read.get(table_id)
        if read is not None and now - read[0] < self.poll / 2:
            return read[1]
        table = await self.tables.core.repository.get_table(table_id)
        self._read[table_id] = (now, table)
        return table
