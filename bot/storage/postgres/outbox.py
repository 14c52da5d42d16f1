"""The outbox and the live messages (`OutboxStore`) on PostgreSQL, delivered by one instance per chat at a time.

A chat's messages go out in order, so one instance delivers them at a time: the one holding the chat's lease
(`chat_leases`). `fetch_outbox` returns the due rows of the chats this instance holds, and claims the chats with
due rows that nobody holds (or whose holder let its lease run out: it died) with `FOR UPDATE SKIP LOCKED`, so
instances asking together never wait for each other and never both take a chat. A lease runs `LEASE_SECONDS`;
its holder renews all of its leases every `RENEW_EVERY` (the sender asks for rows at least every two seconds,
and a row it is still delivering keeps its chat too); an instance that stops lets go of its chats at once
(`release_leases`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.storage.base import Delivery, MessageRef, OutboxItem, OutboxKind, OutboxMessage, payload_digest
from bot.storage.postgres.database import Connection, Merge, chats_of
from bot.storage.postgres.rows import LEASE_SECONDS, RENEW_EVERY, Part, mark_processed
from bot.storage.postgres.timers import arm_timers
from bot.storage.records import dumps, outbox_item_of

# The due rows of every chat, oldest first, never one behind a row of its chat that waits for its retry; with
# the lease of its chat, if any; not the chats another instance holds.
_DUE = (
    "SELECT o.*, l.owner AS lease_owner, l.until AS lease_until FROM outbox AS o"
    " LEFT JOIN chat_leases AS l ON l.chat_id = o.chat_id"
    " WHERE NOT o.done AND o.id > $1 AND o.next_attempt_at <= $2 AND NOT (o.id = ANY($3::bigint[]))"
    " AND NOT EXISTS (SELECT 1 FROM outbox AS p WHERE p.chat_id = o.chat_id AND NOT p.done AND p.id < o.id"
    " AND p.next_attempt_at > $2) AND (l.owner IS NULL OR l.owner = $4 OR l.until <= $2)"
)
_DUE_ALL = f"{_DUE} ORDER BY o.id LIMIT $5"
_DUE_OF_CHATS = f"{_DUE} AND o.chat_id = ANY($6::bigint[]) ORDER BY o.id LIMIT $5"


# Deliveries in one statement (one round trip for all a group carries: a sender records one for each call it
# makes): the rows are done, the live messages they showed remembered (or forgotten), and the move timers
# waiting for them start. At most one delivery per chat (`Merge.apart`): no row is changed twice.
_DELIVERIES = (
    "WITH d AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::bigint[],"
    " $7::text[], $8::float8[]) AS d(id, error, chat_id, ref, mode, message_id, content, now)),"
    " done AS (UPDATE outbox AS o SET done = TRUE, last_error = d.error FROM d WHERE o.id = d.id),"
    " forgotten AS (DELETE FROM message_refs AS m USING d"
    " WHERE d.mode = 'forget' AND m.chat_id = d.chat_id AND m.purpose = d.ref),"
    " sent AS (INSERT INTO message_refs (chat_id, purpose, message_id, content, updated_at)"
    " SELECT d.chat_id, d.ref, d.message_id, d.content, d.now FROM d WHERE d.mode = 'sent'"
    " ON CONFLICT (chat_id, purpose) DO UPDATE SET message_id = excluded.message_id, content = excluded.content,"
    " updated_at = excluded.updated_at),"
    " shown AS (UPDATE message_refs AS m SET content = d.content, updated_at = d.now FROM d"
    " WHERE d.mode = 'shown' AND m.chat_id = d.chat_id AND m.purpose = d.ref)"
    " UPDATE timers AS t SET due_at = d.now + t.seconds, wait_chat = NULL, wait_ref = NULL, wait_from = NULL"
    " FROM d WHERE d.ref IS NOT NULL AND t.wait_chat = d.chat_id AND t.wait_ref = d.ref AND t.wait_from <= d.id"
)


def _mode(delivery: Delivery) -> str | None:
    if delivery.ref is None:
        return None
    if delivery.forget:
        return "forget"
    if delivery.message_id is not None:
        return "sent"
    return "shown" if delivery.content is not None else None


async def record_deliveries(db: Connection, deliveries: list[tuple[Delivery, float]]) -> None:
    """Record what became of these outbox rows (each with its time), and queue what must follow them."""
    rows = [(d.outbox_id, d.error, d.chat_id, d.ref, _mode(d), d.message_id, d.content, now) for d, now in deliveries]
    await db.execute(_DELIVERIES, *[list(column) for column in zip(*rows, strict=True)])
    then = [message for delivery, _ in deliveries for message in delivery.then]
    if then:  # in one statement too, as they would go one after the other
        await insert_outbox(db, then, max(now for _, now in deliveries))


async def insert_outbox(
    db: Connection, outbox: Sequence[OutboxMessage], now: float, table_id: int | None = None
) -> list[int]:
    """Queue the messages; returns their row ids, in order (as SQLite's `insert_outbox`)."""
    if not outbox:
        return []
    # A newer picture of the same live message makes a pending edit (or delete) pointless; a send never is. (The
    # statement's UPDATE sees the rows as they were before it: never the ones it inserts.)
    keys = sorted({message.key for message in outbox if message.key is not None})
    last_of_key = {message.key: index for index, message in enumerate(outbox) if message.key is not None}
    rows = []
    for index, message in enumerate(outbox):
        superseded = (
            message.key is not None and message.kind is not OutboxKind.SEND and last_of_key[message.key] != index
        )
        rows.append(
            (
                message.table_id if message.table_id is not None else table_id,
                message.chat_id,
                message.kind.value,
                message.ref,
                dumps(message.payload),
                message.key,
                superseded,
                "superseded" if superseded else None,
                payload_digest(message.payload),
                message.replaces,
            )
        )
    columns = list(zip(*rows, strict=True))
    found = await db.fetch(
        "WITH superseded AS (UPDATE outbox SET done = TRUE, last_error = 'superseded'"
        " WHERE key = ANY($12::text[]) AND NOT done AND kind != 'send')"
        " INSERT INTO outbox (table_id, chat_id, kind, ref, payload, key, done, last_error, digest, replaces,"
        " created_at, next_attempt_at)"
        " SELECT t.table_id, t.chat_id, t.kind, t.ref, t.payload, t.key, t.done, t.last_error, t.digest,"
        " t.replaces, $11, $11 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[],"
        " $6::text[], $7::boolean[], $8::text[], $9::text[], $10::boolean[]) WITH ORDINALITY AS t"
        "(table_id, chat_id, kind, ref, payload, key, done, last_error, digest, replaces, n)"
        " ORDER BY n RETURNING id",
        *[list(column) for column in columns],
        now,
        keys,
    )
    return sorted(int(row["id"]) for row in found)


class Outbox(Part):
    ids_in_commit_order = False
    """Instances commit side by side: a row committed now may have a lower id than one seen before, so the sender
    looks at every pending row each time (bot/telegram/sender.py)."""

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> list[int]:
        now = self._clock()

        async def apply(db: Connection) -> list[int]:
            ids = await insert_outbox(db, outbox, now)
            await mark_processed(db, update_id, now)
            return ids

        return await self._database.write(apply, kind="enqueue", notify=chats_of(outbox))

    async def fetch_outbox(
        self,
        now: float,
        limit: int = 100,
        skip: Collection[int] = (),
        after: int = 0,
        chats: Collection[int] | None = None,
    ) -> list[OutboxItem]:
        me, skipped = self._instance, sorted(skip)
        if chats is None:
            rows = await self._database.read(lambda db: db.fetch(_DUE_ALL, after, now, skipped, me, limit))
        else:
            wanted = sorted(chats)
            rows = await self._database.read(lambda db: db.fetch(_DUE_OF_CHATS, after, now, skipped, me, limit, wanted))
        held = {row["chat_id"] for row in rows if row["lease_owner"] == me and row["lease_until"] > now}
        wanted = sorted({row["chat_id"] for row in rows if row["chat_id"] not in held})
        renew = now - self._leases_renewed_at >= RENEW_EVERY
        if wanted or renew:
            held |= await self._database.write(lambda db: self._claim(db, wanted, now, renew), kind="lease")
            if renew:
                self._leases_renewed_at = now
        mine = [row for row in rows if row["chat_id"] in held]
        return [outbox_item_of({k: v for k, v in row.items() if not k.startswith("lease_")}) for row in mine]

    async def _claim(self, db: Connection, chats: list[int], now: float, renew: bool) -> set[int]:
        """Take the leases of these chats where nobody else holds one (and, with `renew`, renew every lease this
        instance holds); returns the chats taken."""
        me, until = self._instance, now + LEASE_SECONDS
        if renew:
            await db.execute("UPDATE chat_leases SET until = $2 WHERE owner = $1 AND until > $3", me, until, now)
        if not chats:
            return set()
        await db.execute(
            "INSERT INTO chat_leases (chat_id, owner, until) SELECT unnest($1::bigint[]), $2, $3"
            " ON CONFLICT DO NOTHING",
            chats,
            me,
            until,
        )
        rows = await db.fetch(
            "UPDATE chat_leases SET owner = $2, until = $3 WHERE chat_id IN ("
            " SELECT chat_id FROM chat_leases WHERE chat_id = ANY($1::bigint[]) AND (owner = $2 OR until <= $4)"
            " FOR UPDATE SKIP LOCKED) RETURNING chat_id",
            chats,
            me,
            until,
            now,
        )
        return {int(row["chat_id"]) for row in rows}

    async def release_leases(self) -> None:
        """Let go of every chat this instance delivers to (it is stopping): another one takes them at once."""
        me = self._instance
        await self._database.write(
            lambda db: db.execute("DELETE FROM chat_leases WHERE owner = $1", me), kind="lease", notify=True
        )

    async def outbox_depth(self) -> int:
        depth = await self._database.read(lambda db: db.fetchval("SELECT COUNT(*) FROM outbox WHERE NOT done"))
        return int(depth or 0)

    async def get_outbox_item(self, outbox_id: int) -> OutboxItem | None:
        row = await self._database.read(lambda db: db.fetchrow("SELECT * FROM outbox WHERE id = $1", outbox_id))
        return outbox_item_of(row) if row else None

    async def record_delivery(self, delivery: Delivery) -> None:
        item = (delivery, self._clock())
        await self._database.write(
            lambda db: record_deliveries(db, [item]),
            kind="delivery",
            notify=chats_of(delivery.then),
            merge=Merge("delivery", item, record_deliveries, apart=delivery.chat_id),
        )

    async def schedule_outbox_retry(self, outbox_id: int, next_attempt_at: float, error: str) -> int:
        async def apply(db: Connection) -> int:
            attempts = await db.fetchval(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2 WHERE id = $3"
                " RETURNING attempts",
                next_attempt_at,
                error,
                outbox_id,
            )
            return int(attempts or 0)

        return await self._database.write(apply, kind="retry")

    async def retry_chat_now(self, chat_id: int) -> int:
        now = self._clock()

        async def apply(db: Connection) -> int:
            rows = await db.fetch(
                "UPDATE outbox SET next_attempt_at = $1 WHERE chat_id = $2 AND NOT done AND next_attempt_at > $1"
                " RETURNING id",
                now,
                chat_id,
            )
            return len(rows)

        return await self._database.write(apply, kind="retry", notify={chat_id})

    async def cancel_outbox_for_chat(self, chat_id: int, reason: str) -> int:
        now = self._clock()

        async def apply(db: Connection) -> int:
            rows = await db.fetch(
                "UPDATE outbox SET done = TRUE, last_error = $1 WHERE chat_id = $2 AND NOT done RETURNING id",
                reason,
                chat_id,
            )
            await arm_timers(db, now, chat_id)
            return len(rows)

        return await self._database.write(apply, kind="cancel")

    async def get_message_ref(self, chat_id: int, purpose: str) -> MessageRef | None:
        row = await self._database.read(
            lambda db: db.fetchrow(
                "SELECT chat_id, purpose, message_id, content FROM message_refs WHERE chat_id = $1 AND purpose = $2",
                chat_id,
                purpose,
            )
        )
        return MessageRef.model_validate(dict(row)) if row is not None else None
