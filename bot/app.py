"""Running the bot: open the storage, build the Bot API client, deliver the outbox, and poll for updates or
receive them by webhook (WEBHOOK_URL)."""

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChat,
    GetChatAdministrators,
    GetChatMember,
    GetMe,
    GetUpdates,
    Response,
    SendMessage,
    SetMyCommands,
    SetWebhook,
    TelegramMethod,
)
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, Update, User
from aiohttp import web
from pydantic import ValidationError

from bot import metrics
from bot.config import Settings
from bot.dispatcher import create_dispatcher, invite_key
from bot.i18n import Translations
from bot.logs import configure_logging
from bot.services import TableService
from bot.services.computer import Thinker
from bot.services.privacy import Retention
from bot.startup import StartupError, open_storage
from bot.storage import SqliteStorage, Storage, StorageError
from bot.storage.postgres import PostgresStorage
from bot.telegram.api import BotApi, brief
from bot.telegram.calls import Unreachable, UnreachableCallback, bot_access_check, bot_api_call, bot_pin_check
from bot.telegram.handling import STOP_GRACE
from bot.telegram.pacer import Pacer
from bot.telegram.polling import Poller
from bot.telegram.sender import Sender
from bot.telegram.webhook import WebhookServer
from bot.webapp import server as webapp
from bot.webapp.links import MiniAppLinks

logger = logging.getLogger(__name__)
T = TypeVar("T")


STOP_SECONDS = 8.0  # the whole stop, from SIGTERM (Docker kills after 10 s)
EXIT_DEADLINE = 9.0  # from SIGTERM to the end of the process, whatever is stuck
SENDER_GRACE = 3.0  # of it, at most, for the calls under way to end and be recorded
GC_THRESHOLDS = (20_000, 20, 1000)  # Python's defaults: (700, 10, 10)
API_CONNECTIONS = 1000  # aiogram's default of 100 queued the answers behind the edits of a thousand tables


def create_bot(settings: Settings) -> Bot:
    """The Bot API client, talking to `TELEGRAM_API_BASE`. Texts are Telegram HTML unless a payload says else."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base), limit=API_CONNECTIONS)
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


CALLED_METHODS: tuple[type[TelegramMethod[Any]], ...] = (
    GetUpdates,
    AnswerCallbackQuery,
    SendMessage,
    EditMessageText,
    EditMessageReplyMarkup,
    DeleteMessage,
    GetMe,
    GetChat,
    GetChatMember,
    GetChatAdministrators,
    SetMyCommands,
    SetWebhook,
)


def response_models() -> tuple[type[Response[Any]], ...]:
    """aiogram parses every Bot API reply as ``Response[<the method's result type>]``, a generic pydantic model
    built on first use. pydantic keeps those builds in a weak cache only, so once the garbage collector drops
    one the next reply builds it again: 5-25 ms of CPU each time, hundreds of times a minute under load (seen
    in a profile of tests/benchmarks/load.py). Holding them for as long as the bot runs keeps them built."""
    return tuple(Response[method.__returning__] for method in CALLED_METHODS)  # type: ignore[name-defined]


def _unreachable_handler(tables: Callable[[], TableService]) -> UnreachableCallback:
    """The sender's report of a chat that blocked or removed the bot, passed on to the table service (made
    after the sender, which it needs: hence the late lookup)."""

    async def on_unreachable(report: Unreachable) -> None:
        logger.warning("chat %s is unreachable (table %s): %s", report.chat_id, report.table_id, report.description)
        if report.is_user:
            await tables().game.player_unreachable(report.chat_id)
        else:
            await tables().game.close_removed(report.chat_id)

    return on_unreachable


GROUP_COMMANDS = (
    "new",
    "addbot",
    "settings",
    "score",
    "stats",
    "top",
    "rating",
    "history",
    "seed",
    "verify",
    "stop",
    "rules",
    "help",
)
PRIVATE_COMMANDS = ("start", "play", "replay", "rating", "history", "verify", "rules", "help", "forget")


async def set_commands(bot: Bot, translations: Translations) -> None:
    """The command menus, in Russian for Russian readers and in English for everyone else."""
    for language, code in (("ru", "ru"), ("en", None)):
        tr = translations.get(language)
        for names, scope in (
            (GROUP_COMMANDS, BotCommandScopeAllGroupChats()),
            (PRIVATE_COMMANDS, BotCommandScopeAllPrivateChats()),
        ):
            commands = [BotCommand(command=name, description=tr.t(f"flow-command-{name}")) for name in names]
            await bot.set_my_commands(commands, scope=scope, language_code=code)


CHECKPOINT_SECONDS = 1.0
CONNECT_BACKOFF_CAP = 30.0
HEARTBEAT_SECONDS = 5.0  # an instance says it is alive this often (bot/storage/postgres ALIVE_SECONDS: 15)


async def keep_checkpointing(storage: SqliteStorage, interval: float = CHECKPOINT_SECONDS) -> None:
    """Copy the database's write-ahead log back into the file every second, off the event loop."""
    while True:
        await asyncio.sleep(interval)
        try:
            await storage.checkpoint()
        except sqlite3.Error as error:
            logger.warning("database checkpoint failed: %s", error)


async def keep_saying_alive(storage: PostgresStorage, pacer: Pacer, interval: float = HEARTBEAT_SECONDS) -> None:
    """Tell the other instances this one is alive, and take this instance's share of the bot-wide send budget
    (Telegram's ~30 a second is the bot's, however many processes deliver for it)."""
    while True:
        try:
            pacer.share(await storage.heartbeat())
        except StorageError as error:
            logger.warning("database: saying this instance is alive failed: %s", error)
        await asyncio.sleep(interval)


async def upkeep(storage: Storage, sender: Sender) -> list[asyncio.Task[None]]:
    """What the database engine needs beside the bot: SQLite's checkpoints; PostgreSQL's heartbeat, and the
    sender told of the rows other instances commit for the chats this one delivers."""
    if isinstance(storage, SqliteStorage):
        return [asyncio.create_task(keep_checkpointing(storage), name="checkpoints")]
    if isinstance(storage, PostgresStorage):
        await storage.listen(sender.notify)
        return [asyncio.create_task(keep_saying_alive(storage, sender.pacer), name="heartbeat")]
    return []


async def until_answered(settings: Settings, call: Callable[[], Awaitable[T]]) -> T:
    """`call` asked until Telegram answers: a network that is not up yet (a container that starts before its
    network) is waited for; a token Telegram rejects is one line and exit code 2."""
    failures = 0
    while True:
        try:
            return await call()
        except TelegramUnauthorizedError as error:
            raise StartupError("BOT_TOKEN was rejected by Telegram (401 Unauthorized)", exit_code=2) from error
        except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as error:
            failures += 1
            delay = min(CONNECT_BACKOFF_CAP, 2.0**failures)
            logger.warning(
                "cannot reach the Bot API at %s (%s); retrying in %.0f s",
                settings.telegram_api_base,
                brief(error),
                delay,
            )
            await asyncio.sleep(delay)


async def connect(bot: Bot, settings: Settings) -> User:
    """Who the bot is (getMe), asked until Telegram answers."""
    return await until_answered(settings, bot.get_me)


async def set_webhook(bot: Bot, settings: Settings, allowed_updates: list[str]) -> None:
    """Have Telegram post updates to WEBHOOK_URL with WEBHOOK_SECRET (setWebhook), asked until it answers; the
    updates Telegram holds stay. A URL Telegram refuses is one line and exit code 2."""
    url, secret = settings.webhook_url, settings.webhook_secret
    assert url is not None and secret is not None  # the settings require both together

    async def call() -> bool:
        return await bot.set_webhook(
            url,
            secret_token=secret.get_secret_value(),
            allowed_updates=allowed_updates,
            drop_pending_updates=False,
        )

    try:
        await until_answered(settings, call)
    except TelegramBadRequest as error:
        raise StartupError(f"WEBHOOK_URL {url} was refused by Telegram: {error.message}", exit_code=2) from error
    logger.info("webhook set: Telegram posts updates to %s", url)


def create_sender(
    settings: Settings, storage: Storage, api: BotApi, bot_id: int, tables: Callable[[], TableService]
) -> Sender:
    """The outbox's sender, paced at Telegram's limits (scaled by SEND_INTERVAL, as are its retries)."""
    scale = settings.send_interval if settings.send_interval > 0 else 1.0
    pacer = Pacer.scaled(time.time, asyncio.sleep, interval=settings.send_interval, group_pacing=settings.group_pacing)

    async def on_read_only(chat_id: int) -> None:
        await tables().game.pause(chat_id)

    async def on_writable(chat_id: int) -> None:
        await tables().game.resume(chat_id)

    async def on_pin_refused(chat_id: int) -> None:
        await tables().pin_refused(chat_id)

    return Sender(
        storage,
        bot_api_call(api),
        pacer=pacer,
        access=bot_access_check(api, bot_id),
        may_pin=bot_pin_check(api, bot_id),
        on_unreachable=_unreachable_handler(tables),
        on_read_only=on_read_only,
        on_writable=on_writable,
        on_pin_refused=on_pin_refused,
        backoff_base=1.0 * scale,
        backoff_cap=30.0 * scale,
        probe_interval=60.0 * scale,
    )


def update_handler(dispatcher: Dispatcher, bot: Bot) -> Callable[[str], Awaitable[None]]:
    """What the poller does with an update from the inbox: the dispatcher's routers, as aiogram would. (Read
    from its JSON text: a third cheaper than from the parsed dict, and a tap's update holds its whole hand.)"""

    async def handle(update: str) -> None:
        metrics.HANDLING_SINCE.set(time.monotonic())  # its tap's answer is timed from here (bot/metrics.py)
        try:
            parsed = Update.model_validate_json(update, context={"bot": bot})
        except ValidationError as error:
            # Telegram sends none such; whoever holds the webhook's secret might. Skipped (marked done), one line.
            where = ".".join(str(part) for part in error.errors(include_input=False)[0]["loc"])
            logger.warning(
                "an update the bot cannot read was skipped (%s errors, the first at %s)", error.error_count(), where
            )
            return
        await dispatcher.feed_update(bot, parsed)

    return handle


def end_by(seconds: float) -> None:
    """The stop's last resort: should the process still run `seconds` from now, log what keeps it, flush the logs
    and end it there (exit code 0: the stop was asked for). A thread stuck in a call to a hung disk or network
    can be cut short by nothing, and Python waits for it at exit (as `asyncio.run` waits for its executor's)."""

    def watch() -> None:
        time.sleep(seconds)
        me = threading.current_thread()
        running = [thread.name for thread in threading.enumerate() if thread is not me and not thread.daemon]
        logger.warning(
            "the process still runs %.1f s after the stop began (threads: %s): ending it now",
            seconds,
            ", ".join(running),
        )
        for handler in logging.getLogger().handlers:
            handler.flush()
        os._exit(0)

    threading.Thread(target=watch, name="stop-deadline", daemon=True).start()


def _stop_clock(seconds: float) -> Callable[[float], float]:
    """`left(cap)`: the seconds a step of the stop may take, at most `cap`, out of what remains of `seconds`."""
    until = time.monotonic() + seconds

    def left(cap: float) -> float:
        return max(0.0, min(cap, until - time.monotonic()))

    return left


def on_started() -> None:
    # aiogram's and pydantic's hundreds of thousands of objects live as long as the process: moved out of the
    # collector's sight, a full collection no longer walks them (it stalled the bot ~150 ms).
    gc.collect()
    gc.freeze()
    # A full collection still walks every live table's match (~100 ms with a thousand tables); the default
    # thresholds ran one every few seconds under load, and (20_000, 20, 20) still every ten or so (the p99 of a
    # tap's answer at a thousand tables: 130-185 ms, against 82-97 with a full one only every 1,000 of the
    # middle generation's). Cycles are rare in our own data (most garbage goes by reference counting), and the
    # younger generations still collect the cycles that die young; the peak RSS did not move (228 MB).
    gc.set_threshold(*GC_THRESHOLDS)


def warn_of_test_settings(settings: Settings) -> None:
    """Settings that make a bot unfit for people to play on say so at every start."""
    if settings.test_seed is not None:
        logger.warning(
            "BURA_TESTING_ONLY_FIXED_DECK_SEED is set: every table is dealt the same cards, known in advance to"
            " whoever knows the seed. For tests only: remove it from a bot people play on"
        )
    if settings.test_hooks is not None:
        logger.warning(
            "BURA_TEST_HOOKS is set: files in %s make the database fail on purpose (tests only)", settings.test_hooks
        )


@dataclass(frozen=True, slots=True)
class Receiver:
    """How updates come in: long polling (one instance) or a webhook server (any number of instances)."""

    receive: Callable[[], Coroutine[None, None, None]]
    problem: Callable[[], str | None]  # what keeps updates from coming, for /healthz
    poller: Poller | None = None
    webhook: WebhookServer | None = None


def create_receiver(settings: Settings, bot: Bot, api: BotApi, storage: Storage, dispatcher: Dispatcher) -> Receiver:
    handle = update_handler(dispatcher, bot)
    allowed = dispatcher.resolve_used_update_types()
    if settings.webhook_url is None:
        scale = settings.send_interval if settings.send_interval > 0 else 1.0
        poller = Poller(api, storage, handle, allowed_updates=allowed, backoff_cap=30.0 * scale)
        return Receiver(poller.run, poller.problem, poller=poller)
    assert settings.webhook_secret is not None  # the settings require it with a URL
    webhook = WebhookServer(storage, handle, settings.webhook_secret.get_secret_value(), settings.webhook_path)
    receive = partial(
        webhook.run, settings.webhook_host, settings.webhook_port, partial(set_webhook, bot, settings, allowed)
    )
    return Receiver(receive, webhook.problem, webhook=webhook)


def stop_on_signals() -> asyncio.Event:
    """SIGINT or SIGTERM sets the event, and starts the watchdog that ends the process if stopping hangs."""
    stopping = asyncio.Event()

    def stop() -> None:
        if not stopping.is_set():
            end_by(EXIT_DEADLINE)
        stopping.set()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)
    return stopping


async def run(settings: Settings) -> None:
    """Run until SIGINT/SIGTERM: poll Telegram (or receive its webhook) into the inbox and handle it; deliver the
    outbox; fire timers."""
    configure_logging(settings.log_level, settings.secrets())
    warn_of_test_settings(settings)
    try:
        translations = Translations(default_language=settings.default_language)
    except FileNotFoundError as error:
        raise StartupError(f"locales: {error} (run the bot from the project folder)") from error
    storage = await open_storage(settings)
    built = response_models()  # held until the bot stops (see there)
    bot = create_bot(settings)
    thinker = Thinker(processes=settings.computer_processes)
    tasks: list[asyncio.Task[None]] = []
    poller: Poller | None = None
    webhook: WebhookServer | None = None
    sender: Sender | None = None
    http: web.AppRunner | None = None
    webapp_http: web.AppRunner | None = None
    ran = False
    try:
        me = await connect(bot, settings)
        api = BotApi(bot)
        sender = create_sender(settings, storage, api, me.id, lambda: tables)
        tables = TableService(
            storage,
            translations,
            sender,
            test_seed=settings.test_seed,
            thinker=thinker,
            invite_key=invite_key(settings),
            time_scale=settings.time_scale,
            # The Mini App's links: the t.me one names the bot, whose username getMe has just told.
            mini_app=MiniAppLinks.from_settings(settings, me.username),
        )
        dispatcher = create_dispatcher(settings, storage, translations, sender, tables)

        receiver = create_receiver(settings, bot, api, storage, dispatcher)
        poller, webhook, problem = receiver.poller, receiver.webhook, receiver.problem
        try:
            await set_commands(bot, translations)
        except TelegramAPIError as error:
            logger.warning("setMyCommands failed: %s", error)
        on_started()
        stopping = stop_on_signals()

        receiving: asyncio.Task[None] | None = None

        def loop_alive() -> str | None:
            if receiving is None:
                return "not receiving updates yet"
            return "the update loop stopped" if receiving.done() else problem()

        health = metrics.Health(loop_alive, storage.ping, storage.outbox_depth)
        # The Mini App (WEBAPP_URL only): on the webhook's server, before it starts, or on a server of its own.
        is_member = webapp.member_check(bot, dispatcher["members"])
        webapp_http = await webapp.start(settings, tables, is_member, webhook.app if webhook is not None else None)
        if webhook is not None:
            # Before it starts (a running app takes no more routes); for this host only: a proxy exposes it.
            metrics.add_routes(webhook.app, health, local_only=True)
            # Listening before anything runs: a port in use is one line and exit code 2, as a bad setting is.
            await webhook.start(settings.webhook_host, settings.webhook_port)
        if settings.http_port is not None:
            http = await metrics.serve(health, settings.http_host, settings.http_port)
        receiving = asyncio.create_task(receiver.receive(), name="updates")
        tasks += [
            asyncio.create_task(sender.run(), name="sender"),
            # Timers live in the database: the ones that fell due while the bot was down fire at once.
            asyncio.create_task(tables.timers.run(), name="timers"),
            *await upkeep(storage, sender),
            asyncio.create_task(Retention(storage, settings.retention_days).run(), name="pruning"),
        ]
        logger.info("bot @%s is running", me.username)
        ran = True
        stopped = asyncio.create_task(stopping.wait())
        await asyncio.wait([receiving, stopped], return_when=asyncio.FIRST_COMPLETED)
        if receiving.done():
            stopped.cancel()
            receiving.result()  # a rejected token (or webhook) raises here
        else:
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiving
        logger.info("stopping")
    except TelegramUnauthorizedError as error:
        raise StartupError("BOT_TOKEN was rejected by Telegram (401 Unauthorized)", exit_code=2) from error
    finally:
        # However busy: `docker stop` kills after 10 s. What a stop cuts short is safe: a handler cut off leaves
        # its update unprocessed in the inbox (handled after the restart), a delivery cut off is the one a
        # restart may repeat, and a move not committed was never answered.
        left = _stop_clock(STOP_SECONDS)
        if http is not None:
            await http.cleanup()
        if webapp_http is not None:
            await webapp_http.cleanup()
        if poller is not None:
            await poller.stop(grace=left(STOP_GRACE))
        if webhook is not None:
            await webhook.stop(grace=left(STOP_GRACE))  # the webhook stays set: other instances may serve it
        if sender is not None:
            await sender.stop(grace=left(SENDER_GRACE))
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        thinker.close()
        await bot.session.close()
        try:
            await asyncio.wait_for(storage.close(), max(1.0, left(STOP_SECONDS)))
        except TimeoutError:
            logger.warning("the database did not close in time: what it had not committed was never answered")
        if ran:  # a start-up refusal is its one line, nothing more
            logger.info("stopped in %.1f s", STOP_SECONDS - left(STOP_SECONDS))
        del built
