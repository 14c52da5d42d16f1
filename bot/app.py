"""Running the bot: open the storage, build the Bot API client, deliver the outbox and poll for updates."""

import asyncio
import contextlib
import logging

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError

from bot.config import Settings
from bot.dispatcher import create_dispatcher
from bot.i18n import Translations
from bot.sender import Sender, Unreachable, aiogram_api_call
from bot.startup import StartupError, open_storage

logger = logging.getLogger(__name__)


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def create_bot(settings: Settings) -> Bot:
    """The Bot API client, talking to `TELEGRAM_API_BASE`. Texts are Telegram HTML unless a payload says else."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


async def _log_unreachable(report: Unreachable) -> None:
    # Until the game service reacts (pausing the table, telling the group), the fact is at least on record.
    logger.warning("chat %s is unreachable (table %s): %s", report.chat_id, report.table_id, report.description)


async def run(settings: Settings) -> None:
    """Run until SIGINT/SIGTERM: the outbox sender in the background, aiogram long polling in front."""
    configure_logging(settings.log_level)
    try:
        translations = Translations(default_language=settings.default_language)
    except FileNotFoundError as error:
        raise StartupError(f"locales: {error} (run the bot from the project folder)") from error
    storage = await open_storage(settings)
    try:
        bot = create_bot(settings)
        sender = Sender(storage, aiogram_api_call(bot), on_unreachable=_log_unreachable)
        dispatcher = create_dispatcher(settings, storage, translations, sender)
        delivering = asyncio.create_task(sender.run(), name="sender")
        try:
            await dispatcher.start_polling(bot, handle_signals=True, close_bot_session=True)
        except TelegramUnauthorizedError as error:
            raise StartupError("BOT_TOKEN was rejected by Telegram (401 Unauthorized)", exit_code=2) from error
        except TelegramNetworkError as error:
            raise StartupError(f"cannot reach the Bot API at {settings.telegram_api_base}: {error.message}") from error
        finally:
            delivering.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await delivering
            await bot.session.close()
    finally:
        await storage.close()
