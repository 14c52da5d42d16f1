"""What the bot forgets (`RetentionStore`) on SQLite: old delivered messages and finished tables' private parts,
and a user who asks.

A prune finds its rows on the reader (a scan of a long backlog never holds the one writer) and the writer then
deletes exactly those, checking again that each may go: a write of a few hundred rows by their keys, which
shares a group commit with the moves around it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import HAND_REF, Chat, Forgotten, OutboxMessage, UserSeatedError
from bot.storage.sqlite.outbox import insert_outbox
from bot.storage.sqlite.rows import Part, chat_of, fetchall, mark_processed, one


def drop_private_parts(db: sqlite3.Connection, table_ids: Sequence[int]) -> int:
    """A finished table's game state (every hand dealt), event log and hand messages' refs go; its row, seats
    and tallies stay. Returns how many of these tables were finished (the others are left alone)."""
    dropped = 0
    for table_id in table_ids:
        row = one(db, "SELECT chat_id FROM tables WHERE table_id = ? AND status = 'finished'", (table_id,))
        if row is None:
            continue
        dropped += 1
        db.execute("UPDATE tables SET state = NULL WHERE table_id = ?", (table_id,))
        db.execute("DELETE FROM events WHERE table_id = ?", (table_id,))
        holders = {
            int(seat["user_id"])
            for seat in fetchall(
                db, "SELECT user_id FROM seats WHERE table_id = ? AND user_id IS NOT NULL", (table_id,)
            )
        }
        if int(row["chat_id"]) > 0:
            holders.add(int(row["chat_id"]))  # a game against the computer: the private chat is the table
        ref = HAND_REF.format(table_id=table_id)
        db.executemany(
            "DELETE FROM message_refs WHERE chat_id = ? AND purpose = ?", [(holder, ref) for holder in holders]
        )
    return dropped


def _ids(db: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> list[int]:
    return [int(row[0]) for row in db.execute(sql, params)]


class Retention(Part):
    async def prune_outbox(self, older_than: float, limit: int) -> int:
        # The oldest delivered rows, in id order and not through the index of pending rows (which would sort
        # every delivered row first): the scan stops after `limit` of them, however long the outbox is.
        rows = await self._database.read(
            lambda db: fetchall(
                db, "SELECT id, created_at FROM outbox NOT INDEXED WHERE done = 1 ORDER BY id LIMIT ?", (limit,)
            )
        )
        ids = [int(row["id"]) for row in rows if row["created_at"] < older_than]
        if not ids:
            return 0

        def apply(db: sqlite3.Connection) -> int:
            marks = ", ".join("?" for _ in ids)
            return db.execute(f"DELETE FROM outbox WHERE done = 1 AND id IN ({marks})", ids).rowcount

        return await self._database.write(apply, kind="prune")

    async def prune_tables(self, finished_before: float, limit: int) -> int:
        # A table has an event log only once it has a state (its first deal), and loses both together.
        ids = await self._database.read(
            lambda db: _ids(
                db,
                "SELECT table_id FROM tables WHERE status = 'finished' AND updated_at < ? AND state IS NOT NULL"
                " ORDER BY table_id LIMIT ?",
                (finished_before, limit),
            )
        )
        if not ids:
            return 0
        return await self._database.write(lambda db: drop_private_parts(db, ids), kind="prune")

    async def seated_at(self, user_id: int) -> list[int]:
        return sorted(
            table.table_id for table in self._open.values() if any(seat.user_id == user_id for seat in table.seats)
        )

    async def forget_user(
        self,
        user_id: int,
        placeholder: str,
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
    ) -> Forgotten:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> tuple[Forgotten, Chat | None]:
            mark_processed(db, update_id, now)
            seated = _ids(
                db,
                "SELECT DISTINCT s.table_id FROM seats AS s JOIN tables AS t ON t.table_id = s.table_id"
                " WHERE s.user_id = ? AND t.status != 'finished' ORDER BY s.table_id",
                (user_id,),
            )
            if seated:
                raise UserSeatedError(user_id, seated)
            user = db.execute("DELETE FROM users WHERE user_id = ?", (user_id,)).rowcount
            tallies = db.execute("DELETE FROM tallies WHERE user_id = ?", (user_id,)).rowcount
            ratings = db.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,)).rowcount
            db.execute("DELETE FROM rating_changes WHERE user_id = ?", (user_id,))
            played = _ids(db, "SELECT DISTINCT table_id FROM seats WHERE user_id = ? ORDER BY table_id", (user_id,))
            seats = db.execute("UPDATE seats SET name = ? WHERE user_id = ?", (placeholder, user_id)).rowcount
            tables = drop_private_parts(db, played)
            # His private chat: its delivered messages (his hands among them), its live messages, its language
            # and settings. Its row stays while tables name it (games he played there against the computer).
            messages = db.execute("DELETE FROM outbox WHERE chat_id = ? AND done = 1", (user_id,)).rowcount
            db.execute("DELETE FROM message_refs WHERE chat_id = ?", (user_id,))
            db.execute(
                "UPDATE chats SET language = NULL, settings = '{}', updated_at = ? WHERE chat_id = ?", (now, user_id)
            )
            chat = one(db, "SELECT * FROM chats WHERE chat_id = ?", (user_id,))
            insert_outbox(db, outbox, now)
            forgotten = Forgotten(
                user=user > 0, tallies=tallies, seats=seats, tables=tables, messages=messages, ratings=ratings
            )
            return forgotten, chat_of(chat) if chat is not None else None

        def after(done: tuple[Forgotten, Chat | None]) -> None:
            self._users.pop(user_id)
            _, chat = done
            if chat is not None:
                self._chats.set(chat.chat_id, chat)

        forgotten, _ = await self._database.write(apply, kind="forget", after=after)
        return forgotten
