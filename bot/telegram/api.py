"""The lean path to the Bot API, for the calls the bot makes by the thousand: delivering the outbox and
answering taps.

aiogram's ``bot(method)`` validates the parameters into pydantic models, serialises them again as a form, and
validates the reply into models once more (an edited hand comes back with its whole keyboard). Under load
that was the larger part of the bot's CPU (BENCHMARKS.md, "The bot under load"). The outbox already holds
Bot API JSON and the sender reads one number of the reply, so `BotApi.call` posts the parameters as a JSON
body, as Telegram accepts them, and returns the reply's ``result`` as JSON.

A file goes up the same way, as a multipart/form-data body (`BotApi.upload`), Telegram's only way to take one:
the parameters as form fields, the file as a part of its own.

A refused call raises aiogram's own exceptions, built by aiogram's session from the same reply, so callers
handle errors exactly as around ``bot(method)``. aiogram's request middlewares do not run on this path (the
bot registers none).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramNetworkError
from aiogram.methods import TelegramMethod
from aiohttp import ClientError, ClientTimeout, FormData

JSON_HEADERS = {"Content-Type": "application/json"}
BRIEF = 200


def brief(error: BaseException) -> str:
    """An error as one short log line (aiogram's decode errors carry the whole reply, over several lines)."""
    text = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")
    return line if len(line) <= BRIEF else line[: BRIEF - 1] + "…"


@dataclass(frozen=True, slots=True)
class Upload:
    """A file to upload with a call: the parameter it is (``document``), its name, MIME type and bytes."""

    field: str
    filename: str
    mime_type: str
    content: bytes


class BotApi:
    """Bot API calls with JSON parameters and JSON results, over the bot's own aiohttp session."""

    def __init__(self, bot: Bot) -> None:
        if not isinstance(bot.session, AiohttpSession):
            raise TypeError(f"BotApi needs aiogram's AiohttpSession, not {type(bot.session).__name__}")
        self._bot = bot
        self._session = bot.session

    async def call(self, method: type[TelegramMethod[Any]], params: Mapping[str, Any]) -> Any:
        """Call `method` with `params` (Bot API names and JSON values; None values are left out) and return
        the reply's ``result`` as JSON. Raises what ``bot(method)`` raises for the same reply."""
        body = {name: value for name, value in params.items() if value is not None}
        return await self._post(method, body, self._session.json_dumps(body), JSON_HEADERS)

    async def upload(self, method: type[TelegramMethod[Any]], params: Mapping[str, Any], file: Upload) -> Any:
        """Call `method` with `params` as `call` does, and `file` uploaded as the parameter `file.field`
        (sendDocument's ``document``): a multipart/form-data body, a string per parameter (JSON for the others,
        as aiogram sends them) and the file as a part with its name and MIME type."""
        body = {name: value for name, value in params.items() if value is not None}
        form = FormData(quote_fields=False)
        for name, value in body.items():
            form.add_field(name, value if isinstance(value, str) else self._session.json_dumps(value))
        form.add_field(file.field, file.content, filename=file.filename, content_type=file.mime_type)
        return await self._post(method, body, form, None)

    async def _post(
        self,
        method: type[TelegramMethod[Any]],
        body: dict[str, Any],
        data: str | FormData,
        headers: dict[str, str] | None,
    ) -> Any:
        session = self._session
        http = await session.create_session()
        url = session.api.api_url(token=self._bot.token, method=method.__api_method__)
        try:
            async with http.post(
                url, data=data, headers=headers, timeout=ClientTimeout(total=session.timeout)
            ) as response:
                status, content = response.status, await response.text()
        except TimeoutError as error:
            raise TelegramNetworkError(method=_method(method, body), message="Request timeout error") from error
        except ClientError as error:
            message = f"{type(error).__name__}: {error}"
            raise TelegramNetworkError(method=_method(method, body), message=message) from error
        if HTTPStatus.OK <= status <= HTTPStatus.IM_USED:
            try:
                reply = session.json_loads(content)
            except ValueError:
                reply = None
            if isinstance(reply, dict) and reply.get("ok") is True and "result" in reply:
                return reply["result"]
        # Refused, or not a reply we can read: aiogram raises the error the reply describes.
        session.check_response(bot=self._bot, method=_method(method, body), status_code=status, content=content)
        raise ClientDecodeError("a Bot API reply without a result", ValueError(content), content)


def _method(method: type[TelegramMethod[Any]], body: dict[str, Any]) -> TelegramMethod[Any]:
    """The method object aiogram's exceptions carry, built without validation (only on errors)."""
    return method.model_construct(**body)
