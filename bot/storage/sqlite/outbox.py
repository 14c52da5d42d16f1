"""The outbox and the live messages (`OutboxStore`) on SQLite; queueing is part of each commit."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Collection, Sequence
from typing import Any

from bot.storage.base import Delivery, MessageRef, OutboxItem, OutboxKind, OutboxMessage
from bot.storage.sqlite.rows import Part, dumps, fetchall, mark_processed, one, outbox_item_of
from bot.storage.sqlite.timers import arm_timers


def insert_outbox(
    db: sqlite3.Connection, outbox: Sequence[OutboxMessage], now: float, table_id: int | None = None
) -> list[int]:
    """Queue the messages (two statements whatever their number); returns their row ids, in order."""
    if not outbox:
        return []
    keys = [(message.key,) for message in outbox if message.key is not None]
    if keys:
        # A newer picture of the same live message makes a pending edit (or delete) pointless; a send is never
        # superseded (the edits after it need the message it records, a hand sent anew must ring).
        db.executemany(
            "UPDATE outbox SET done = 1, last_error = 'superseded' WHERE key = ? AND done = 0 AND kind != 'send'", keys
        )
    last_of_key = {message.key: index for index, message in enumerate(outbox) if message.key is not None}
    values = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in outbox)
    params: list[Any] = []
    for index, message in enumerate(outbox):
        superseded = (
            message.key is not None and message.kind is not OutboxKind.SEND and last_of_key[message.key] != index
        )
        text = dumps(message.payload)
        params += (
            message.table_id if message.table_id is not None else table_id,
            message.chat_id,
            message.kind.value,
            message.ref,
            text,
            message.key,
            now,
            now,
            int(superseded),
            "superseded" if superseded else None,
            hashlib.blake2b(text.encode(), digest_size=12).hexdigest(),  # = payload_digest, in this thread
            int(message.replaces),
        )
    rows = fetchall(
        db,
        "INSERT INTO outbox (table_id, chat_id, kind, ref, payload, key, created_at, next_attempt_at, done,"
        f" last_error, digest, replaces) VALUES {values} RETURNING id",
        params,
    )
    return sorted(int(row["id"]) for row in rows)


class Outbox(Part):
    ids_in_commit_order = True  # one process, one writer

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> list[int]:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> list[int]:
            ids = insert_outbox(db, outbox, now)
            mark_processed(db, update_id, now)
            return ids

        return await self._database.write(apply, kind="enqueue")

    async def fetch_outbox(
        self,
        now: float,
        limit: int = 100,
        skip: Collection[int] = (),
        after: int = 0,
        chats: Collection[int] | None = None,
    ) -> list[OutboxItem]:
        if chats is not None and not chats:
            return []
        # In id order straight from the partial index (migration 2): no sort of every pending row. (A few chats'
        # rows: the planner's choice.)
        source, of_chats = "outbox AS o INDEXED BY outbox_due", ""
        if chats is not None:
            source, of_chats = "outbox AS o", f" AND o.chat_id IN ({', '.join(str(int(chat)) for chat in chats)})"

        def query(db: sqlite3.Connection) -> list[OutboxItem]:
            rows = fetchall(
                db,
                f"SELECT id FROM {source} WHERE o.done = 0 AND o.id > ? AND o.next_attempt_at <= ?{of_chats}"
                " AND NOT EXISTS ("
                " SELECT 1 FROM outbox AS p WHERE p.chat_id = o.chat_id AND p.done = 0 AND p.id < o.id"
                " AND p.next_attempt_at > ?) ORDER BY o.id LIMIT ?",
                (after, now, now, limit + len(skip)),
            )
            # The sender asks again after every commit while most rows are still on their way: parsing their
            # payloads again each time cost more than the rest of the delivery.
            wanted = [int(row["id"]) for row in rows if int(row["id"]) not in skip][:limit]
            if not wanted:
                return []
            marks = ", ".join("?" for _ in wanted)
            found = fetchall(db, f"SELECT * FROM outbox WHERE id IN ({marks}) ORDER BY id", wanted)
            return [outbox_item_of(row) for row in found]

        return await self._database.read(query)

    async def outbox_depth(self) -> int:
        def query(db: sqlite3.Connection) -> int:
            # Counted off the partial index of pending rows (migration 2), not the whole table.
            row = one(db, "SELECT COUNT(*) AS n FROM outbox INDEXED BY outbox_due WHERE done = 0")
            return int(row["n"]) if row else 0

        return await self._database.read(query)

    async def get_outbox_item(self, outbox_id: int) -> OutboxItem | None:
        row = await self._database.read(lambda db: one(db, "SELECT * FROM outbox WHERE id = ?", (outbox_id,)))
        return outbox_item_of(row) if row else None

    async def record_delivery(self, delivery: Delivery) -> None:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> None:
            db.execute("UPDATE outbox SET done = 1, last_error = ? WHERE id = ?", (delivery.error, delivery.outbox_id))
            if delivery.then:
                insert_outbox(db, delivery.then, now)
            if delivery.ref is None:
                return
            chat_id, purpose = delivery.chat_id, delivery.ref
            if delivery.forget:
                db.execute("DELETE FROM message_refs WHERE chat_id = ? AND purpose = ?", (chat_id, purpose))
            elif delivery.message_id is not None:
                db.execute(
                    "INSERT INTO message_refs (chat_id, purpose, message_id, content, updated_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id, purpose) DO UPDATE SET"
                    " message_id = excluded.message_id, content = excluded.content, updated_at = excluded.updated_at",
                    (chat_id, purpose, delivery.message_id, delivery.content, now),
                )
            elif delivery.content is not None:
                db.execute(
                    "UPDATE message_refs SET content = ?, updated_at = ? WHERE chat_id = ? AND purpose = ?",
                    (delivery.content, now, chat_id, purpose),
                )
            arm_timers(db, now, chat_id, purpose, delivery.outbox_id)

        await self._database.write(apply, kind="delivery")

    async def schedule_outbox_retry(self, outbox_id: int, next_attempt_at: float, error: str) -> int:
        def apply(db: sqlite3.Connection) -> int:
            row = one(
                db,
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?"
                " RETURNING attempts",
                (next_attempt_at, error, outbox_id),
            )
            return int(row["attempts"]) if row else 0

        return await self._database.write(apply, kind="retry")

    async def retry_chat_now(self, chat_id: int) -> int:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "UPDATE outbox SET next_attempt_at = ? WHERE chat_id = ? AND done = 0 AND next_attempt_at > ?",
                (now, chat_id, now),
            )
            return cursor.rowcount

        return await self._database.write(apply, kind="retry")

    async def cancel_outbox_for_chat(self, chat_id: int, reason: str) -> int:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "UPDATE outbox SET done = 1, last_error = ? WHERE chat_id = ? AND done = 0", (reason, chat_id)
            )
            arm_timers(db, now, chat_id)
            return cursor.rowcount

        return await self._database.write(apply, kind="cancel")

    async def get_message_ref(self, chat_id: int, purpose: str) -> MessageRef | None:
        row = await self._database.read(
            lambda db: one(
                db,
                "SELECT chat_id, purpose, message_id, content FROM message_refs WHERE chat_id = ? AND purpose = ?",
                (chat_id, purpose),
            )
        )
        return MessageRef.model_validate(dict(row)) if row is not None else None
