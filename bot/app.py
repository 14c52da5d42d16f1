"""Running the bot: open the storage, build the Bot API client, deliver the outbox and poll for updates."""

import asyncio
import contextlib
import gc
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramAPIError, TelegramNetworkError, TelegramUnauthorizedError
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
    TelegramMethod,
)
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.api import BotApi
from bot.config import Settings
from bot.dispatcher import create_dispatcher
from bot.i18n import Translations
from bot.sender import Pacer, Sender, Unreachable, UnreachableCallback, bot_api_call
from bot.services import TableService
from bot.services.computer import Thinker
from bot.startup import StartupError, open_storage
from bot.storage import SqliteStorage

logger = logging.getLogger(__name__)


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


GC_THRESHOLDS = (20_000, 20, 20)  # Python's defaults: (700, 10, 10)
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


GROUP_COMMANDS = ("new", "addbot", "settings", "score", "stats", "top", "stop", "help")
PRIVATE_COMMANDS = ("start", "play", "help")


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


async def keep_checkpointing(storage: SqliteStorage, interval: float = CHECKPOINT_SECONDS) -> None:
    """Copy the database's write-ahead log back into the file every second, off the event loop."""
    while True:
        await asyncio.sleep(interval)
        try:
            await storage.checkpoint()
        except sqlite3.Error as error:
            logger.warning("database checkpoint failed: %s", error)


async def run(settings: Settings) -> None:
    """Run until SIGINT/SIGTERM: the outbox sender in the background, aiogram long polling in front."""
    configure_logging(settings.log_level)
    try:
        translations = Translations(default_language=settings.default_language)
    except FileNotFoundError as error:
        raise StartupError(f"locales: {error} (run the bot from the project folder)") from error
    storage = await open_storage(settings)
    built = response_models()  # held until the bot stops (see there)
    try:
        bot = create_bot(settings)
        pacer = Pacer.scaled(
            time.time, asyncio.sleep, interval=settings.send_interval, group_pacing=settings.group_pacing
        )
        sender = Sender(
            storage, bot_api_call(BotApi(bot)), pacer=pacer, on_unreachable=_unreachable_handler(lambda: tables)
        )
        thinker = Thinker(processes=settings.computer_processes)
        tables = TableService(storage, translations, sender, test_seed=settings.test_seed, thinker=thinker)
        dispatcher = create_dispatcher(settings, storage, translations, sender, tables)

        async def on_startup() -> None:
            try:
                await set_commands(bot, translations)
            except TelegramAPIError as error:
                logger.warning("setMyCommands failed: %s", error)
            # aiogram's and pydantic's hundreds of thousands of objects live as long as the process: moved out
            # of the collector's sight, a full collection no longer walks them (it stalled the bot ~150 ms).
            gc.collect()
            gc.freeze()
            # A full collection still walks every live table's match (~100 ms with a thousand tables); the
            # default thresholds ran one every few seconds under load. Cycles are rare in our own data (most
            # garbage goes by reference counting), so collect far less often.
            gc.set_threshold(*GC_THRESHOLDS)

        dispatcher.startup.register(on_startup)
        delivering = asyncio.create_task(sender.run(), name="sender")
        # Timers live in the database: the ones that fell due while the bot was down fire at once.
        timing = asyncio.create_task(tables.timers.run(), name="timers")
        checkpointing = asyncio.create_task(keep_checkpointing(storage), name="checkpoints")
        try:
            await dispatcher.start_polling(bot, handle_signals=True, close_bot_session=True)
        except TelegramUnauthorizedError as error:
            raise StartupError("BOT_TOKEN was rejected by Telegram (401 Unauthorized)", exit_code=2) from error
        except TelegramNetworkError as error:
            raise StartupError(f"cannot reach the Bot API at {settings.telegram_api_base}: {error.message}") from error
        finally:
            for task in (checkpointing, timing, delivering):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            thinker.close()
            await bot.session.close()
    finally:
        await storage.close()
        del built
