"""Versioned schema migrations of the SQLite database, applied in order when it is opened.

Each migration is a tuple of SQL statements run in one transaction together with the row that records it in
`schema_version`, so a crash mid-way leaves the previous version intact. Never edit a released migration:
append a new one. A database whose schema is newer than the last migration here was written by a newer bot:
it is refused, untouched (an older bot would misread it).
"""

import sqlite3
from collections.abc import Sequence

from bot.storage.base import SchemaTooNew, StartupRefused
from bot.storage.sql import TALLIES_FROM_STATS

Migration = tuple[int, str, Sequence[str]]

MIGRATIONS: tuple[Migration, ...] = (
    (
        1,
        "initial schema",
        (
            """
            CREATE TABLE chats (
                chat_id      INTEGER PRIMARY KEY,
                language     TEXT,
                settings     TEXT    NOT NULL DEFAULT '{}',
                migrated_to  INTEGER,
                bot_removed  INTEGER NOT NULL DEFAULT 0,
                created_at   REAL    NOT NULL,
                updated_at   REAL    NOT NULL
            )
            """,
            """
            CREATE TABLE users (
                user_id      INTEGER PRIMARY KEY,
                name         TEXT    NOT NULL,
                language     TEXT,
                started_bot  INTEGER NOT NULL DEFAULT 0,
                blocked      INTEGER NOT NULL DEFAULT 0,
                created_at   REAL    NOT NULL,
                updated_at   REAL    NOT NULL
            )
            """,
            """
            CREATE TABLE tables (
                table_id     INTEGER PRIMARY KEY AUTOINCREMENT,
                chat_id      INTEGER NOT NULL REFERENCES chats(chat_id) ON UPDATE CASCADE,
                status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
                creator_id   INTEGER NOT NULL,
                settings     TEXT    NOT NULL DEFAULT '{}',
                state        TEXT,
                version      INTEGER NOT NULL DEFAULT 0,
                created_at   REAL    NOT NULL,
                updated_at   REAL    NOT NULL
            )
            """,
            # One live table per group: the group sees one table message, edited in place (UX.md).
            "CREATE UNIQUE INDEX tables_one_open_per_chat ON tables(chat_id) WHERE status != 'finished'",
            """
            CREATE TABLE seats (
                table_id     INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
                seat         INTEGER NOT NULL,
                user_id      INTEGER,
                name         TEXT    NOT NULL,
                joined_at    REAL    NOT NULL,
                PRIMARY KEY (table_id, seat)
            )
            """,
            "CREATE UNIQUE INDEX seats_user_once ON seats(table_id, user_id) WHERE user_id IS NOT NULL",
            """
            CREATE TABLE events (
                table_id     INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
                seq          INTEGER NOT NULL,
                payload      TEXT    NOT NULL,
                created_at   REAL    NOT NULL,
                PRIMARY KEY (table_id, seq)
            )
            """,
            """
            CREATE TABLE outbox (
                id              INTEGER PRIMARY KEY AUTOINCREMENT,
                table_id        INTEGER REFERENCES tables(table_id) ON DELETE SET NULL,
                chat_id         INTEGER NOT NULL,
                kind            TEXT    NOT NULL CHECK (kind IN ('send', 'edit', 'delete')),
                ref             TEXT,
                payload         TEXT    NOT NULL DEFAULT '{}',
                key             TEXT,
                created_at      REAL    NOT NULL,
                attempts        INTEGER NOT NULL DEFAULT 0,
                next_attempt_at REAL    NOT NULL,
                done            INTEGER NOT NULL DEFAULT 0,
                last_error      TEXT
            )
            """,
            "CREATE INDEX outbox_pending ON outbox(done, chat_id, id)",
            "CREATE INDEX outbox_pending_key ON outbox(key) WHERE done = 0 AND key IS NOT NULL",
            """
            CREATE TABLE processed_updates (
                update_id    INTEGER PRIMARY KEY,
                processed_at REAL    NOT NULL
            )
            """,
            """
            CREATE TABLE message_refs (
                chat_id      INTEGER NOT NULL,
                purpose      TEXT    NOT NULL,
                message_id   INTEGER NOT NULL,
                updated_at   REAL    NOT NULL,
                PRIMARY KEY (chat_id, purpose)
            )
            """,
            """
            CREATE TABLE stats (
                chat_id        INTEGER NOT NULL,
                user_id        INTEGER NOT NULL,
                deals_played   INTEGER NOT NULL DEFAULT 0,
                deals_won      INTEGER NOT NULL DEFAULT 0,
                matches_played INTEGER NOT NULL DEFAULT 0,
                matches_won    INTEGER NOT NULL DEFAULT 0,
                buras          INTEGER NOT NULL DEFAULT 0,
                false_claims   INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (chat_id, user_id)
            )
            """,
            """
            CREATE TABLE timers (
                table_id     INTEGER PRIMARY KEY REFERENCES tables(table_id) ON DELETE CASCADE,
                due_at       REAL    NOT NULL,
                move_no      INTEGER NOT NULL
            )
            """,
            "CREATE INDEX timers_due ON timers(due_at)",
        ),
    ),
    (
        2,
        "the outbox's pending rows in delivery order",
        # The sender reads the oldest pending rows after every commit: without this it sorted every pending
        # row each time (a tenth of the bot's CPU with a thousand tables in full swing).
        ("CREATE INDEX outbox_due ON outbox(id, next_attempt_at) WHERE done = 0",),
    ),
    (
        3,
        "the inbox of updates; move timers that start when the turn is shown; what each live message shows",
        (
            # Updates are kept from the moment they are received until they are handled (exactly once): the
            # processed ones keep only their id, for as long as Telegram could send them again.
            """
            CREATE TABLE inbox (
                update_id    INTEGER PRIMARY KEY,
                payload      TEXT,
                received_at  REAL    NOT NULL,
                processed_at REAL
            )
            """,
            "CREATE INDEX inbox_pending ON inbox(update_id) WHERE processed_at IS NULL",
            "CREATE INDEX inbox_processed ON inbox(processed_at) WHERE processed_at IS NOT NULL",
            "INSERT INTO inbox (update_id, payload, received_at, processed_at)"
            " SELECT update_id, NULL, processed_at, processed_at FROM processed_updates",
            "DROP TABLE processed_updates",
            # A move timer waits for the player's hand to be shown (wait_*), then counts `seconds`.
            "ALTER TABLE timers ADD COLUMN seconds REAL NOT NULL DEFAULT 0",
            "ALTER TABLE timers ADD COLUMN wait_chat INTEGER",
            "ALTER TABLE timers ADD COLUMN wait_ref TEXT",
            "ALTER TABLE timers ADD COLUMN wait_from INTEGER",
            "CREATE INDEX timers_waiting ON timers(wait_chat, wait_ref) WHERE wait_chat IS NOT NULL",
            # A digest of what the live message shows: an edit that would change nothing is not sent.
            "ALTER TABLE message_refs ADD COLUMN content TEXT",
            "ALTER TABLE outbox ADD COLUMN digest TEXT",
        ),
    ),
    (
        4,
        "what players see: pins, a hand sent anew in place of the old one, tables in forum topics",
        (
            # The outbox again, for two more kinds (pin, unpin: the table pinned while it is live) and a send that
            # replaces its live message (a hand sent anew, so that it rings, the old one deleted); SQLite changes
            # a CHECK only by building the table anew.
            """
            CREATE TABLE outbox_new (
                id              INTEGER PRIMARY KEY AUTOINCREMENT,
                table_id        INTEGER REFERENCES tables(table_id) ON DELETE SET NULL,
                chat_id         INTEGER NOT NULL,
                kind            TEXT    NOT NULL CHECK (kind IN ('send', 'edit', 'delete', 'pin', 'unpin')),
                ref             TEXT,
                payload         TEXT    NOT NULL DEFAULT '{}',
                key             TEXT,
                created_at      REAL    NOT NULL,
                attempts        INTEGER NOT NULL DEFAULT 0,
                next_attempt_at REAL    NOT NULL,
                done            INTEGER NOT NULL DEFAULT 0,
                last_error      TEXT,
                digest          TEXT,
                replaces        INTEGER NOT NULL DEFAULT 0
            )
            """,
            "INSERT INTO outbox_new (id, table_id, chat_id, kind, ref, payload, key, created_at, attempts,"
            " next_attempt_at, done, last_error, digest) SELECT id, table_id, chat_id, kind, ref, payload, key,"
            " created_at, attempts, next_attempt_at, done, last_error, digest FROM outbox",
            "DROP TABLE outbox",
            "ALTER TABLE outbox_new RENAME TO outbox",
            "CREATE INDEX outbox_pending ON outbox(done, chat_id, id)",
            "CREATE INDEX outbox_pending_key ON outbox(key) WHERE done = 0 AND key IS NOT NULL",
            "CREATE INDEX outbox_due ON outbox(id, next_attempt_at) WHERE done = 0",
            # A table opened in a forum topic lives in that topic.
            "ALTER TABLE tables ADD COLUMN thread_id INTEGER",
        ),
    ),
    (
        5,
        "tallies per game: a row a counter, so that each game keeps the counters it has",
        (
            # A player's tally is kept per game (what the lobby calls it: Бура, Буркозёл, Козёл, Бурако) and each
            # game counts what it has (Бура its buras and false claims, Бурако its canastras and going out), so a
            # new game brings new counters without a migration. The old rows were all counted as Бура: the
            # only game there was until Buraco came, days before this.
            """
            CREATE TABLE tallies (
                chat_id      INTEGER NOT NULL,
                user_id      INTEGER NOT NULL,
                game         TEXT    NOT NULL,
                name         TEXT    NOT NULL,
                value        INTEGER NOT NULL,
                PRIMARY KEY (chat_id, user_id, game, name)
            )
            """,
            TALLIES_FROM_STATS,
            "DROP TABLE stats",
        ),
    ),
    (
        6,
        "a chat's tables and a player's tallies found without a scan",
        (
            # /score after a match reads the chat's last finished table; /stats in private a player's tallies in
            # every chat (issue 37).
            "CREATE INDEX tables_by_chat ON tables(chat_id, table_id)",
            "CREATE INDEX tallies_by_user ON tallies(user_id)",
        ),
    ),
    (
        7,
        "ratings: a row a person and board, the changes matches made, who shows his",
        (
            # Issue 38: OpenSkill ratings, written by the commit of a match's last move.
            """
            CREATE TABLE ratings (
                user_id      INTEGER NOT NULL,
                game         TEXT    NOT NULL,
                mu           REAL    NOT NULL,
                sigma        REAL    NOT NULL,
                matches      INTEGER NOT NULL,
                updated_at   REAL    NOT NULL,
                PRIMARY KEY (user_id, game)
            )
            """,
            "CREATE INDEX ratings_by_game ON ratings(game, (mu - 3 * sigma))",
            """
            CREATE TABLE rating_changes (
                table_id       INTEGER NOT NULL,
                chat_id        INTEGER NOT NULL,
                user_id        INTEGER NOT NULL,
                game           TEXT    NOT NULL,
                rating_before  INTEGER NOT NULL,
                rating_after   INTEGER NOT NULL,
                at             REAL    NOT NULL,
                PRIMARY KEY (table_id, user_id)
            )
            """,
            # /top of a chat: who played a rated match of a game there; /forget: a person's history.
            "CREATE INDEX rating_changes_by_chat ON rating_changes(chat_id, game, user_id)",
            "CREATE INDEX rating_changes_by_user ON rating_changes(user_id)",
            "ALTER TABLE users ADD COLUMN rating_public INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    (
        8,
        "a finished match's result, for /history; rating changes follow their group to its supergroup",
        (
            # Issue 38: the match-end commit records the match's result on its table.
            "ALTER TABLE tables ADD COLUMN result TEXT",
            "CREATE INDEX tables_history ON tables(chat_id, table_id) WHERE result IS NOT NULL",
            # A group that became a supergroup took its tables along but left its rating changes behind.
            "UPDATE rating_changes SET chat_id = (SELECT t.chat_id FROM tables AS t WHERE t.table_id ="
            " rating_changes.table_id) WHERE table_id IN (SELECT table_id FROM tables)",
        ),
    ),
)

LATEST = max(number for number, _, _ in MIGRATIONS)


def check_schema(db: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> None:
    """Refuse, before anything is written, a file this bot must not touch: a schema newer than its migrations,
    or tables without a schema version."""
    names = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in names:
        if names - {"sqlite_sequence"}:
            raise StartupRefused(
                "the file holds tables but no schema version: it is not a database of this bot, or one that a"
                " newer bot reshaped; give DATABASE_PATH a file of its own"
            )
        return
    row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    version = int(row[0]) if row else 0
    known = max((number for number, _, _ in migrations), default=0)
    if version > known:
        raise SchemaTooNew(version, known)


def current_version(db: sqlite3.Connection) -> int:
    """The schema version of an open database; 0 for a new file. A file with tables but no version is not
    a database of this bot (or one a newer bot reshaped beyond what we can read): refused."""
    names = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in names:
        if names - {"sqlite_sequence"}:
            raise StartupRefused("the file holds tables but no schema version: it is not a database of this bot")
        db.execute(
            "CREATE TABLE schema_version ("
            " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
    row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(db: sqlite3.Connection, now: float, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Apply every migration newer than the database; returns the versions applied (empty when up to date).

    The connection must be in autocommit mode (`isolation_level=None`): each migration opens its own
    transaction so that it is applied whole or not at all.
    """
    applied: list[int] = []
    version = current_version(db)
    known = max((number for number, _, _ in migrations), default=0)
    if version > known:
        raise SchemaTooNew(version, known)
    for number, description, statements in sorted(migrations, key=lambda migration: migration[0]):
        if number <= version:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                (number, description, now),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        applied.append(number)
    return applied
