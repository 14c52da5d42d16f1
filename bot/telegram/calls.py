"""The Bot API requests the outbox makes: an outbox row resolved into one request (`ApiRequest`), the production
call that posts it (`bot_api_call`: a message, an edit, a pin, a message shown to one member (`EPHEMERAL`), a file
(`UPLOAD`)), and the bot's own rights in a chat (`bot_access_check`). The `Sender`
(bot/telegram/sender.py) takes them injected, so its delivery rules are tested without a network.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramNotFound
from aiogram.methods import (
    DeleteEphemeralMessage,
    DeleteMessage,
    EditEphemeralMessageReplyMarkup,
    EditEphemeralMessageText,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    PinChatMessage,
    SendDocument,
    SendMessage,
    UnpinChatMessage,
)
from pydantic import BaseModel, ConfigDict

from bot.storage import JsonObject, OutboxKind
from bot.telegram.api import BotApi, Upload


class ApiRequest(BaseModel):
    """One Bot API call, resolved from an outbox row: the chat and message ids are final."""

    model_config = ConfigDict(frozen=True)

    kind: OutboxKind
    chat_id: int
    message_id: int | None = None
    payload: JsonObject = {}


ApiCall = Callable[[ApiRequest], Awaitable[int | None]]
"""Performs a request; returns the id of the message sent (or edited), None for a delete."""


class Access(enum.Enum):
    """What the bot may do in a chat, as Telegram tells it (`getChatMember` of the bot itself)."""

    WRITE = "write"
    READ_ONLY = "read-only"  # still a member, but may not send (rights taken away)
    GONE = "gone"  # not a member any more, or no such chat
    UNKNOWN = "unknown"  # Telegram could not be asked


AccessCheck = Callable[[int], Awaitable[Access]]
PinCheck = Callable[[int], Awaitable[bool | None]]
"""Whether the bot may pin messages in a group (None: Telegram could not be asked)."""


class Unreachable(BaseModel):
    """The bot may no longer write to a chat: a user blocked it (private chat) or a group removed it."""

    model_config = ConfigDict(frozen=True)

    chat_id: int
    table_id: int | None
    description: str

    @property
    def is_user(self) -> bool:
        return self.chat_id > 0


UnreachableCallback = Callable[[Unreachable], Awaitable[None]]
ChatCallback = Callable[[int], Awaitable[None]]


SEND_ONLY = frozenset({"message_thread_id", "disable_notification", "protect_content", "reply_parameters"})
"""Parameters of a new message that an edit does not take (a live message's payload keeps them for its sends)."""

EPHEMERAL = "ephemeral"
"""The payload key of a message shown in a group to one member alone (Bot API 10.2 ephemeral messages): its row
is queued in the member's own chat (`chat_id` is his id, so his messages keep their order and his pace), and
``{"chat_id": <the group>, "callback_query_id": <the tap that asked for it, on a send>}`` says where it shows.
Not a Bot API parameter: the call takes it out."""


UPLOAD = "upload"
"""The payload key of a message that is a file, sent with sendDocument: ``{"filename": ..., "mime_type": ...,
"text": <the file's content>}``; the payload's other keys are sendDocument's own (caption, parse_mode,
reply_parameters...). The file travels in the row as text, so that the outbox stays JSON and its storage as it
is: small text files only (a match's export for the verifier: tens of KB), at most `UPLOAD_MOST` bytes of UTF-8,
which `document_message` in bot/services/messages.py holds a file to. Telegram would take 50 MB from a bot, but
every read of the outbox would carry a row that large. Not a Bot API parameter: the call takes it out and uploads
the file as a part of a multipart/form-data request (bot/telegram/api.py `BotApi.upload`). A file is only ever
sent (a SEND row), never edited, and never ephemeral."""
UPLOAD_MOST = 1024 * 1024  # bytes of UTF-8 a file in the outbox takes at most


def ephemeral_in(payload: JsonObject) -> int | None:
    """The group a row's message is shown in to one member alone (None: an ordinary message)."""
    where = payload.get(EPHEMERAL)
    return int(where["chat_id"]) if isinstance(where, dict) else None


def bot_api_call(api: BotApi) -> ApiCall:
    """The production `ApiCall`: the payload holds the Bot API parameters of sendMessage / editMessageText,
    posted as they are (see bot/telegram/api.py); a file's, sendDocument's with the file beside them."""

    async def call(request: ApiRequest) -> int | None:
        if UPLOAD in request.payload:
            return await _document_call(api, request)
        if ephemeral_in(request.payload) is not None:
            return await _ephemeral_call(api, request)
        payload = without_message_id(request.payload)
        if "text" in payload:
            payload.setdefault("parse_mode", "HTML")  # as the bot's default (bot/app.py create_bot)
        if request.kind is OutboxKind.SEND:
            sent = await api.call(SendMessage, {**payload, "chat_id": request.chat_id})
            return int(sent["message_id"])
        if request.message_id is None:
            raise ValueError(f"{request.kind} needs a message id")
        target = {"chat_id": request.chat_id, "message_id": request.message_id}
        if request.kind is OutboxKind.DELETE:
            await api.call(DeleteMessage, target)
            return None
        if request.kind is OutboxKind.PIN:
            await api.call(PinChatMessage, {**target, "disable_notification": True})  # silently
            return None
        if request.kind is OutboxKind.UNPIN:
            await api.call(UnpinChatMessage, target)
            return None
        method = EditMessageText if "text" in payload else EditMessageReplyMarkup
        edit = {name: value for name, value in payload.items() if name not in SEND_ONLY}
        edited = await api.call(method, {**edit, **target})
        # Telegram answers an edit with the message, or with True for a message sent via inline mode.
        return int(edited["message_id"]) if isinstance(edited, dict) else request.message_id

    return call


async def _document_call(api: BotApi, request: ApiRequest) -> int:
    """A file (`UPLOAD`), uploaded with sendDocument; its caption is HTML, as a text is."""
    payload = without_message_id(request.payload)
    file = payload.pop(UPLOAD)
    if request.kind is not OutboxKind.SEND or EPHEMERAL in payload:
        raise ValueError(f"a file is only sent, in its chat, not {request.kind}")
    if "caption" in payload:
        payload.setdefault("parse_mode", "HTML")
    upload = Upload(
        field="document",
        filename=str(file["filename"]),
        mime_type=str(file["mime_type"]),
        content=str(file["text"]).encode(),
    )
    sent = await api.upload(SendDocument, {**payload, "chat_id": request.chat_id}, upload)
    return int(sent["message_id"])


async def _ephemeral_call(api: BotApi, request: ApiRequest) -> int | None:
    """A message one member sees in a group: `request.chat_id` is the member (the row's chat), the payload's
    `EPHEMERAL` the group. A send answers the `ephemeral_message_id` (its message_id is always 0)."""
    payload = without_message_id(request.payload)
    where = payload.pop(EPHEMERAL)
    group, receiver = int(where["chat_id"]), request.chat_id
    if "text" in payload:
        payload.setdefault("parse_mode", "HTML")
    if request.kind is OutboxKind.SEND:
        parameters: dict[str, Any] = {"receiver_user_id": receiver}
        if where.get("callback_query_id"):
            parameters["callback_query_id"] = where["callback_query_id"]
        sent = await api.call(SendMessage, {**payload, "chat_id": group, "ephemeral_message_parameters": parameters})
        return int(sent["ephemeral_message_id"])
    if request.message_id is None:
        raise ValueError(f"{request.kind} needs a message id")
    target = {"chat_id": group, "receiver_user_id": receiver, "ephemeral_message_id": request.message_id}
    if request.kind is OutboxKind.DELETE:
        await api.call(DeleteEphemeralMessage, target)
        return None
    if request.kind is not OutboxKind.EDIT:
        raise ValueError(f"an ephemeral message cannot be {request.kind}")
    method = EditEphemeralMessageText if "text" in payload else EditEphemeralMessageReplyMarkup
    edit = {name: value for name, value in payload.items() if name not in SEND_ONLY}
    await api.call(method, {**edit, **target})
    return request.message_id


def bot_access_check(api: BotApi, bot_id: int) -> AccessCheck:
    """The production `AccessCheck`: the bot's own membership of the chat (getChatMember)."""

    async def check(chat_id: int) -> Access:
        try:
            member = await api.call(GetChatMember, {"chat_id": chat_id, "user_id": bot_id})
        except (TelegramBadRequest, TelegramForbiddenError, TelegramNotFound):
            return Access.GONE  # no such chat, or not one the bot is in
        status = member.get("status") if isinstance(member, dict) else None
        if status in {"left", "kicked"}:
            return Access.GONE
        if status == "restricted":
            if not member.get("is_member", True):
                return Access.GONE
            return Access.WRITE if member.get("can_send_messages") else Access.READ_ONLY
        return Access.WRITE if status in {"member", "administrator", "creator"} else Access.UNKNOWN

    return check


def bot_pin_check(api: BotApi, bot_id: int) -> PinCheck:
    """The production `PinCheck`: the bot pins in a group only as its creator or as an admin with the right to
    (pinChatMessage: "the bot must be an administrator with the 'can_pin_messages' right"); a bot just added to a
    group is a member. Asking costs no message of the group's budget, and a pin that cannot succeed is not made."""

    async def check(chat_id: int) -> bool | None:
        try:
            member = await api.call(GetChatMember, {"chat_id": chat_id, "user_id": bot_id})
        except (TelegramBadRequest, TelegramForbiddenError, TelegramNotFound):
            return False
        except Exception:
            return None  # try the pin: its own answer tells
        status = member.get("status") if isinstance(member, dict) else None
        if status == "creator":
            return True
        return status == "administrator" and bool(member.get("can_pin_messages", True))

    return check


def without_message_id(payload: JsonObject) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key != "message_id"}
