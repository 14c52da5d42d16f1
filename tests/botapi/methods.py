"""The bot's side of the fake Telegram: one handler per Bot API method, as strict as Telegram.

Handlers take typed parameters (see `params.coerce`) and return the `result` of a successful call, or raise
`ApiError` with Telegram's status and description. Checks run in the order Telegram reports them: the chat
(unknown, migrated, blocked, bot not a member), then the content (text, entities, keyboard), then flood
control, so a refused request never counts against the limits.

Ephemeral messages (Bot API 10.2/10.3) are sendMessage with `ephemeral_message_parameters` in a group: one
member alone sees it, it has message_id 0 and an `ephemeral_message_id` the chat reuses once it is gone, and
the bot gets no update for it. Telegram documents no error descriptions for them; ours follow its style.

sendDocument takes the file as Telegram does: uploaded as a part of a multipart/form-data request (by its own name
or ``attach://<part>``), or as the file_id of a file uploaded before (a URL Telegram would fetch; the fake fetches
nothing and knows no such file). The file is kept (`World.files`), so a test can read back what the bot sent.
"""

import asyncio
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tests.botapi.clock import Clock
from tests.botapi.errors import ApiError, bad_request, forbidden, migrated
from tests.botapi.html import Entity
from tests.botapi.limits import FloodControl
from tests.botapi.params import formatted_caption, formatted_text, inline_keyboard, require
from tests.botapi.state import (
    CallbackAnswer,
    CallbackQuery,
    Chat,
    ChatType,
    Json,
    Message,
    Status,
    StoredFile,
    Upload,
    User,
    Webhook,
    World,
    chat_member,
    member_update,
)

Handler = Callable[[Json], Awaitable[Any]]

MAX_ANSWER_TEXT = 200
MAX_UPLOAD = 50 * 1024 * 1024  # bytes of a file a bot uploads (sendDocument: "up to 50 MB")
MAX_COMMANDS = 100
MAX_DELETE = 100
MAX_DESCRIPTION = 512
MAX_SHORT_DESCRIPTION = 120
# Bots may delete any message for 48 hours (deleteMessage in the spec); admins of supergroups for longer.
DELETE_WINDOW = 48 * 3600
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_USER_LINK = re.compile(r"tg://user\?id=(\d+)")
# Without a game, answerCallbackQuery may only open the bot's own t.me link (a deep link such as ?start=).
_ANSWER_URL = re.compile(r"(https?://)?t\.me/\w+(\?start=[\w-]{0,64})?")
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same as a "
    "current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
CONFLICT = ApiError(
    409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)
WEBHOOK_ACTIVE = ApiError(
    409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
EPHEMERAL_BOTH_FORMS = "ephemeral_message_parameters can't be used together with receiver_user_id or callback_query_id"
EPHEMERAL_GROUPS_ONLY = "ephemeral messages can be sent only to group and supergroup chats"
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
WEBHOOK_PORTS = (80, 88, 443, 8443)  # Telegram posts to these only
ENTITY_TOO_LARGE = ApiError(413, "Request Entity Too Large")


class BotApi:
    """Serves the bot: reads and changes the `World`, counts messages against `FloodControl`."""

    def __init__(self, world: World, clock: Clock, flood: FloodControl, callback_window: float) -> None:
        self.world = world
        self.clock = clock
        self.flood = flood
        self.callback_window = callback_window
        self.closing = False
        self.pin_notified: dict[int, int] = {}  # chat id -> pins made with a notification
        self._polls = 0
        self.handlers: dict[str, Handler] = {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "sendMessage": self.send_message,
            "sendDocument": self.send_document,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "editEphemeralMessageText": self.edit_ephemeral_message_text,
            "editEphemeralMessageReplyMarkup": self.edit_ephemeral_message_reply_markup,
            "deleteEphemeralMessage": self.delete_ephemeral_message,
            "deleteMessages": self.delete_messages,
            "pinChatMessage": self.pin_chat_message,
            "unpinChatMessage": self.unpin_chat_message,
            "setMyDescription": self.set_my_description,
            "getMyDescription": self.get_my_description,
            "setMyShortDescription": self.set_my_short_description,
            "getMyShortDescription": self.get_my_short_description,
            "answerCallbackQuery": self.answer_callback_query,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_chat_administrators,
            "getChatMemberCount": self.get_chat_member_count,
            "leaveChat": self.leave_chat,
            "sendChatAction": self.send_chat_action,
        }
        # Telegram matches method names without regard to case.
        self.by_lower_name = {name.lower(): name for name in self.handlers}

    def now(self) -> int:
        return int(self.clock.now())

    # --- the chat and message a request points at -------------------------------------------------

    def chat(self, params: Json, writing: bool, sending: str = "text messages") -> Chat:
        """The chat a request points at, checked as Telegram checks it first; `writing`: the bot writes there
        (`sending` what, as a restricted bot's refusal names it: "text messages", "documents")."""
        chat_id = params.get("chat_id")
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        chat = self._find_chat(chat_id)
        if chat.migrated_to is not None:
            raise migrated(chat.migrated_to)
        if chat.type is ChatType.PRIVATE:
            if writing and chat.id in self.world.blocked:
                raise forbidden("bot was blocked by the user")
            if writing and chat.id not in self.world.started:
                raise forbidden("bot can't initiate conversation with a user")
            return chat
        status = chat.status(self.world.bot.id)
        if not status.is_member:
            kind = str(chat.type)
            if status is Status.KICKED:
                raise forbidden(f"bot was kicked from the {kind} chat")
            raise forbidden(f"bot is not a member of the {kind} chat")
        if writing and status is Status.RESTRICTED:
            raise bad_request(f"not enough rights to send {sending} to the chat")
        return chat

    def _find_chat(self, chat_id: int | str) -> Chat:
        if isinstance(chat_id, str):
            name = chat_id.removeprefix("@").lower()
            for chat in self.world.chats.values():
                if chat.type is not ChatType.PRIVATE and (chat.username or "").lower() == name:
                    return chat
            raise bad_request("chat not found")
        found = self.world.chats.get(chat_id)
        if found is not None:
            return found
        if chat_id in self.world.users and chat_id != self.world.bot.id:
            # The bot knows this person (from a group, say) but they never opened the private chat.
            return self.world.private_chat(self.world.users[chat_id])
        raise bad_request("chat not found")

    @staticmethod
    def message(chat: Chat, params: Json, missing: str) -> Message:
        message_id = params.get("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request(missing)
        return message

    def _reply_target(self, chat: Chat, params: Json) -> Message | None:
        reply = params.get("reply_parameters")
        if isinstance(reply, dict) and reply.get("ephemeral_message_id") is not None:
            # Only an incoming ephemeral message (a member's ephemeral command) can be replied to, never the bot's
            # own, and allow_sending_without_reply does not apply to them. The fake has no incoming ones.
            raise bad_request("message to be replied not found")
        if isinstance(reply, dict):
            message_id, lenient = reply.get("message_id"), bool(reply.get("allow_sending_without_reply"))
        elif params.get("reply_to_message_id") is not None:
            message_id = params["reply_to_message_id"]
            lenient = bool(params.get("allow_sending_without_reply"))
        else:
            return None
        target = chat.messages.get(message_id) if isinstance(message_id, int) else None
        if target is None or target.deleted:
            if lenient:
                return None
            raise bad_request("message to be replied not found")
        return target

    # --- methods ------------------------------------------------------------------------------------

    async def get_me(self, params: Json) -> Json:
        return self.world.bot.to_api() | {
            "can_join_groups": True,
            "can_read_all_group_messages": not self.world.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def get_updates(self, params: Json) -> list[Json]:
        """Long polling: confirm by offset, then wait up to `timeout` real seconds for the first update."""
        if self.world.webhook is not None:
            raise WEBHOOK_ACTIVE
        allowed = params.get("allowed_updates")
        if allowed is not None:
            if not isinstance(allowed, list) or not all(isinstance(kind, str) for kind in allowed):
                raise bad_request("can't parse allowed_updates JSON object")
            self.world.allowed_updates = frozenset(allowed)
        self._confirm(params.get("offset"))
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(int(params.get("timeout") or 0), 0)
        self._polls += 1
        poll = self._polls
        self.world.changed.fire()  # an older poll still waiting learns that it lost
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.world.updates and not self.closing:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                break
            await self.world.changed.wait(remaining)
            if poll != self._polls:
                raise CONFLICT
        return [update.to_api() for update in self.world.updates[:limit]]

    def _confirm(self, offset: int | None) -> None:
        if offset is None or offset == 0:
            return
        if offset < 0:
            self.world.updates = self.world.updates[offset:]
        else:
            self.world.updates = [update for update in self.world.updates if update.update_id >= offset]

    async def set_webhook(self, params: Json) -> bool:
        """Updates go to `url` from now on (tests/botapi/webhook.py delivers them). Telegram wants HTTPS on
        port 443, 80, 88 or 8443; the fake, which has no certificates, takes plain HTTP on the loopback only."""
        url = str(params.get("url") or "")
        parsed = urlsplit(url)
        if not url:
            return await self.delete_webhook(params)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if parsed.scheme == "http" and parsed.hostname not in ("127.0.0.1", "localhost"):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        try:
            port = parsed.port
        except ValueError:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook") from None
        if parsed.scheme == "https" and (port or 443) not in WEBHOOK_PORTS:
            raise bad_request("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        connections = int(params.get("max_connections") or 40)
        if not 1 <= connections <= 100:
            raise bad_request("bad webhook: max_connections must be between 1 and 100")
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self.world.allowed_updates = frozenset(allowed)
        if params.get("drop_pending_updates"):
            self.world.updates.clear()
        self.world.webhook = Webhook(url, None if secret is None else str(secret), connections)
        self._polls += 1
        self.world.changed.fire()  # a long poll under way ends with a 409, as in Telegram
        return True

    async def delete_webhook(self, params: Json) -> bool:
        if params.get("drop_pending_updates"):
            self.world.updates.clear()
        self.world.webhook = None
        self.world.changed.fire()
        return True

    async def get_webhook_info(self, params: Json) -> Json:
        hook = self.world.webhook
        info: Json = {"url": hook.url if hook else "", "has_custom_certificate": False}
        info["pending_update_count"] = len(self.world.updates)
        if hook is not None:
            info["max_connections"] = hook.max_connections
            if hook.last_error_date is not None:
                info["last_error_date"] = hook.last_error_date
                info["last_error_message"] = hook.last_error_message
            if self.world.allowed_updates:
                info["allowed_updates"] = sorted(self.world.allowed_updates)
        return info

    def text(self, params: Json) -> tuple[str, list[Entity]]:
        """The text and entities as Telegram stores them; tg://user?id= links become text_mention."""
        text, entities = formatted_text(params)
        resolved: list[Entity] = []
        for entity in entities:
            url = entity.get("url", "") if entity["type"] == "text_link" else ""
            match = _USER_LINK.fullmatch(url)
            if match is None:
                resolved.append(entity)
                continue
            user = self.world.users.get(int(match.group(1)))
            if user is not None:  # a mention of someone the bot has never seen is dropped
                mention = {"type": "text_mention", "offset": entity["offset"], "length": entity["length"]}
                resolved.append(mention | {"user": user.to_api()})
        return text, resolved

    async def send_message(self, params: Json) -> Json:
        chat = self.chat(params, writing=True)
        ephemeral = self._ephemeral(chat, params)
        text, entities = self.text(params)
        # An ephemeral message is a bubble in one member's client: an inline keyboard or none.
        markup = (
            inline_keyboard(params.get("reply_markup"), private=chat.is_private)
            if ephemeral is None
            else _inline_only(params.get("reply_markup"), private=False)
        )
        reply_to = self._reply_target(chat, params)
        thread = self._thread(chat, params, reply_to)
        self.flood.check(chat.id, chat.is_group, None if ephemeral is None else ephemeral.receiver.id)
        message_id = chat.next_message_id() if ephemeral is None else 0
        message = Message(chat, message_id, self.world.bot, self.now(), text, entities, markup)
        message.reply_to = reply_to
        message.thread_id = thread
        message.notified = not params.get("disable_notification")
        message.protected = bool(params.get("protect_content"))
        if ephemeral is None:
            chat.messages[message.message_id] = message
        else:
            message.receiver = ephemeral.receiver
            message.ephemeral_id = chat.next_ephemeral_id()
            if ephemeral.replace and ephemeral.query is not None:
                message.replaces = ephemeral.query.message
            chat.ephemerals.append(message)
        return message.to_api()

    async def send_document(self, params: Json) -> Json:
        """A file with an optional caption: the chat first, then the file, the caption, the keyboard, the reply,
        and flood control last (a document counts as a message against the limits)."""
        chat = self.chat(params, writing=True, sending="documents")
        document = self._document(params.get("document"))
        caption, entities = formatted_caption(params)
        markup = inline_keyboard(params.get("reply_markup"), private=chat.is_private)
        reply_to = self._reply_target(chat, params)
        thread = self._thread(chat, params, reply_to)
        self.flood.check(chat.id, chat.is_group)
        message = Message(chat, chat.next_message_id(), self.world.bot, self.now(), None, [], markup)
        message.document, message.caption, message.caption_entities = document, caption, entities
        message.reply_to = reply_to
        message.thread_id = thread
        message.notified = not params.get("disable_notification")
        message.protected = bool(params.get("protect_content"))
        chat.messages[message.message_id] = message
        return message.to_api()

    def _document(self, value: Any) -> StoredFile:
        """The file of a sendDocument: uploaded now (kept under a new file_id), or one Telegram has already."""
        if value is None or value == "":
            raise bad_request("there is no document in the request")
        if isinstance(value, Upload):
            if not value.content:
                raise bad_request("file must be non-empty")
            if len(value.content) > MAX_UPLOAD:
                raise ENTITY_TOO_LARGE
            # Telegram names the file as the part did, and takes its type from the part, else from the name.
            mime = value.content_type if value.content_type not in (None, "application/octet-stream") else None
            if mime is None and value.filename:
                mime = mimetypes.guess_type(value.filename)[0]
            return self.world.store_file(value.content, value.filename, mime or "application/octet-stream")
        if isinstance(value, str) and value in self.world.files:
            return self.world.files[value]
        # A string that is no file_id we gave out: Telegram would take an HTTP URL, which the fake never fetches.
        raise bad_request("wrong file identifier/HTTP URL specified")

    def _ephemeral(self, chat: Chat, params: Json) -> "_Ephemeral | None":
        """sendMessage's ephemeral parameters, checked; None for an ordinary message. 10.3 moved them into
        `ephemeral_message_parameters`; the top-level `receiver_user_id` and `callback_query_id` still work."""
        nested = params.get("ephemeral_message_parameters")
        legacy: Json = {name: params[name] for name in ("receiver_user_id", "callback_query_id") if name in params}
        if nested is None and not legacy:
            return None
        if nested is not None and legacy:
            raise bad_request(EPHEMERAL_BOTH_FORMS)
        if nested is not None and not isinstance(nested, dict):
            raise bad_request("can't parse ephemeral_message_parameters JSON object")
        given: Json = legacy if nested is None else nested
        receiver_id = _integer(given.get("receiver_user_id"), "receiver_user_id")
        query_id = given.get("callback_query_id")
        if query_id is not None and not isinstance(query_id, str):
            raise bad_request('field "callback_query_id" must be of type String')
        replace = given.get("replace_callback_query_message") or False
        if not isinstance(replace, bool):
            raise bad_request('field "replace_callback_query_message" must be of type Boolean')
        if not chat.is_group:
            raise bad_request(EPHEMERAL_GROUPS_ONLY)
        receiver = self.world.users.get(receiver_id)
        if receiver is None:
            raise bad_request("user not found")
        if receiver.is_bot:
            raise bad_request("USER_IS_BOT")
        if not chat.status(receiver.id).is_member:
            raise bad_request("USER_NOT_PARTICIPANT")
        query = None if query_id is None else self._triggering_query(chat, receiver, query_id)
        if replace:
            if query is None:
                raise bad_request("callback_query_id must be specified to replace the callback query message")
            if query.message.is_ephemeral:
                raise bad_request(
                    "an ephemeral message can't be replaced; edit it with editEphemeralMessageText instead"
                )
            if query.message.gone:
                raise bad_request("message to replace not found")
        return _Ephemeral(receiver, query, replace)

    def _triggering_query(self, chat: Chat, receiver: User, query_id: str) -> CallbackQuery:
        """The callback query an ephemeral message answers: a tap by its receiver, in its chat, still fresh."""
        query = self.world.queries.get(query_id)
        if query is None or self.clock.now() - query.created > self.callback_window:
            raise bad_request(QUERY_TOO_OLD)
        if query.user.id != receiver.id:
            raise bad_request("the callback query was sent by another user")
        if query.message.chat.id != chat.id:
            raise bad_request("the callback query was sent from another chat")
        return query

    @staticmethod
    def _thread(chat: Chat, params: Json, reply_to: Message | None) -> int | None:
        """The forum topic a new message goes to: the one named, else the one of the message it replies to, else
        General. A topic in a chat that has none (or no such topic) is refused, as Telegram refuses it."""
        thread = params.get("message_thread_id")
        if thread is None:
            return reply_to.thread_id if reply_to is not None and chat.is_forum else None
        if not chat.is_forum or thread not in chat.topics:
            raise bad_request("message thread not found")
        if reply_to is not None and reply_to.thread_id != thread:
            raise bad_request("message to be replied not found")  # a reply stays in its topic
        return int(thread)

    def _editable(self, params: Json) -> Message:
        if params.get("inline_message_id"):
            raise bad_request("fake Bot API has no inline messages")
        chat = self.chat(params, writing=True)
        message = self.message(chat, params, "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    async def edit_message_text(self, params: Json) -> Json:
        message = self._editable(params)
        text, entities = self.text(params)
        markup = _inline_only(params.get("reply_markup"), private=message.chat.is_private)
        # Without reply_markup an edit removes the keyboard, as in Telegram.
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self.flood.check(message.chat.id, message.chat.is_group)
        message.text, message.entities, message.reply_markup = text, entities, markup
        message.edit_date = self.now()
        return message.to_api()

    async def edit_message_reply_markup(self, params: Json) -> Json:
        message = self._editable(params)
        markup = _inline_only(params.get("reply_markup"), private=message.chat.is_private)
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        self.flood.check(message.chat.id, message.chat.is_group)
        message.reply_markup = markup
        message.edit_date = self.now()
        return message.to_api()

    def _ephemeral_message(self, params: Json, writing: bool, missing: str) -> Message:
        """The live ephemeral message that editEphemeral*/deleteEphemeralMessage point at. One that was deleted
        or expired, or whose id now belongs to a message for someone else, is not found."""
        chat = self.chat(params, writing=writing)
        receiver_id = _integer(params.get("receiver_user_id"), "receiver_user_id")
        ephemeral_id = params.get("ephemeral_message_id")
        if ephemeral_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.ephemeral(ephemeral_id)
        if message is None or message.receiver is None or message.receiver.id != receiver_id:
            raise bad_request(missing)
        return message

    def _count_ephemeral(self, message: Message) -> None:
        assert message.receiver is not None
        self.flood.check(message.chat.id, message.chat.is_group, message.receiver.id)

    async def edit_ephemeral_message_text(self, params: Json) -> bool:
        message = self._ephemeral_message(params, True, "message to edit not found")
        if params.get("rich_message") is not None:
            raise bad_request("fake Bot API has no rich messages")  # loud: a silent pass would hide mistakes
        text, entities = self.text(params)
        markup = _inline_only(params.get("reply_markup"), private=False)  # an ephemeral message is the group's
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self._count_ephemeral(message)
        message.text, message.entities, message.reply_markup = text, entities, markup
        message.edit_date = self.now()
        return True

    async def edit_ephemeral_message_reply_markup(self, params: Json) -> bool:
        message = self._ephemeral_message(params, True, "message to edit not found")
        markup = _inline_only(params.get("reply_markup"), private=False)  # an ephemeral message is the group's
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        self._count_ephemeral(message)
        message.reply_markup = markup
        message.edit_date = self.now()
        return True

    async def delete_ephemeral_message(self, params: Json) -> bool:
        message = self._ephemeral_message(params, False, "message to delete not found")
        self._count_ephemeral(message)
        message.deleted = True
        return True

    async def delete_message(self, params: Json) -> bool:
        chat = self.chat(params, writing=False)
        message = self.message(chat, params, "message to delete not found")
        if not self._deletable(message):
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def delete_messages(self, params: Json) -> bool:
        """Deletes what it may and skips the rest, failing only when nothing could be deleted."""
        chat = self.chat(params, writing=False)
        ids = require(params, "message_ids")
        if not isinstance(ids, list) or not all(isinstance(item, int) for item in ids):
            raise bad_request("can't parse message_ids JSON object")
        if len(ids) > MAX_DELETE:
            raise bad_request("too many messages to delete")
        found = [chat.messages.get(message_id) for message_id in ids]
        doomed = [m for m in found if m is not None and not m.deleted and self._deletable(m)]
        if not doomed:
            raise bad_request("message to delete not found")
        for message in doomed:
            message.deleted = True
        return True

    def _deletable(self, message: Message) -> bool:
        bot_status = message.chat.status(self.world.bot.id)
        if message.chat.is_group and not message.from_bot and not bot_status.is_admin:
            return False
        too_old = self.now() - message.date > DELETE_WINDOW
        return not too_old or (message.chat.type is ChatType.SUPERGROUP and bot_status.is_admin)

    def _pin_rights(self, params: Json) -> Chat:
        chat = self.chat(params, writing=True)
        # A bot pins only as an admin, in a basic group as in a supergroup (the Bot API's pinChatMessage: "the bot
        # must be an administrator with the 'can_pin_messages' right"); a bot just added to a group is a member.
        if chat.is_group and not chat.status(self.world.bot.id).is_admin:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        return chat

    async def pin_chat_message(self, params: Json) -> bool:
        chat = self._pin_rights(params)
        message = self.message(chat, params, "message to pin not found")
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        self.pin_notified[chat.id] = self.pin_notified.get(chat.id, 0) + (not params.get("disable_notification"))
        return True

    async def unpin_chat_message(self, params: Json) -> bool:
        chat = self._pin_rights(params)
        message_id = params.get("message_id") or (chat.pinned[-1] if chat.pinned else None)
        if message_id not in chat.pinned:
            raise bad_request("message to unpin not found")
        chat.pinned.remove(message_id)
        return True

    async def set_my_description(self, params: Json) -> bool:
        return self._describe(params, "description", MAX_DESCRIPTION)

    async def set_my_short_description(self, params: Json) -> bool:
        return self._describe(params, "short_description", MAX_SHORT_DESCRIPTION)

    def _describe(self, params: Json, kind: str, limit: int) -> bool:
        text = str(params.get(kind) or "")
        if len(text) > limit:
            raise bad_request(f"{kind.replace('_', ' ')} is too long")
        self.world.descriptions[kind, str(params.get("language_code") or "")] = text
        return True

    async def get_my_description(self, params: Json) -> Json:
        return {"description": self._description(params, "description")}

    async def get_my_short_description(self, params: Json) -> Json:
        return {"short_description": self._description(params, "short_description")}

    def _description(self, params: Json, kind: str) -> str:
        language = str(params.get("language_code") or "")
        return self.world.descriptions.get((kind, language)) or self.world.descriptions.get((kind, ""), "")

    async def answer_callback_query(self, params: Json) -> bool:
        query = self.world.queries.get(str(params.get("callback_query_id", "")))
        expired = query is not None and self.clock.now() - query.created > self.callback_window
        if query is None or query.answer is not None or expired:
            raise bad_request(QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and len(text) > MAX_ANSWER_TEXT:
            raise bad_request("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url is not None and not _ANSWER_URL.fullmatch(url):
            raise bad_request("URL_INVALID")
        query.answer = CallbackAnswer(
            text=text or None,
            show_alert=bool(params.get("show_alert")),
            url=url,
            cache_time=int(params.get("cache_time") or 0),
        )
        return True

    @staticmethod
    def _commands_key(params: Json) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), str(params.get("language_code") or "")

    async def set_my_commands(self, params: Json) -> bool:
        commands = require(params, "commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND.fullmatch(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            if not isinstance(command.get("is_ephemeral", False), bool):
                raise bad_request("can't parse commands JSON object")
        self.world.commands[self._commands_key(params)] = [
            {"command": item["command"], "description": item["description"]}
            | ({"is_ephemeral": True} if item.get("is_ephemeral") else {})
            for item in commands
        ]
        return True

    async def get_my_commands(self, params: Json) -> list[Json]:
        return list(self.world.commands.get(self._commands_key(params), []))

    async def delete_my_commands(self, params: Json) -> bool:
        self.world.commands.pop(self._commands_key(params), None)
        return True

    async def get_chat(self, params: Json) -> Json:
        return self.chat(params, writing=False).full_info()

    async def get_chat_member(self, params: Json) -> Json:
        chat = self.chat(params, writing=False)
        user = self.world.users.get(require(params, "user_id"))
        if user is None:
            raise bad_request("user not found")
        return chat_member(user, chat.status(user.id))

    async def get_chat_administrators(self, params: Json) -> list[Json]:
        chat = self.chat(params, writing=False)
        if chat.type is ChatType.PRIVATE:
            raise bad_request("there are no administrators in the private chat")
        return [
            chat_member(self.world.users[user_id], status)
            for user_id, status in chat.members.items()
            if status.is_admin
        ]

    async def get_chat_member_count(self, params: Json) -> int:
        chat = self.chat(params, writing=False)
        if chat.type is ChatType.PRIVATE:
            return 2
        return sum(1 for status in chat.members.values() if status.is_member)

    async def leave_chat(self, params: Json) -> bool:
        chat = self.chat(params, writing=False)
        if chat.type is ChatType.PRIVATE:
            raise bad_request("chat member status can't be changed in private chats")
        old = chat.status(self.world.bot.id)
        chat.members[self.world.bot.id] = Status.LEFT
        bot = self.world.bot
        self.world.push("my_chat_member", member_update(chat, bot, bot, old, Status.LEFT, self.now()))
        return True

    async def send_chat_action(self, params: Json) -> bool:
        self.chat(params, writing=True)
        if params.get("action") not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True


@dataclass(frozen=True)
class _Ephemeral:
    """Whom an ephemeral message is for, the tap that triggered it, and whether it replaces that tap's message."""

    receiver: User
    query: CallbackQuery | None
    replace: bool


def _integer(value: Any, name: str) -> int:
    """A required Integer inside a JSON object (coerce types top-level fields only)."""
    if value is None or value == "":
        raise bad_request(f"{name} is empty")
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise bad_request(f'field "{name}" must be of type Integer')
    try:
        return int(value)
    except ValueError:
        raise bad_request(f'field "{name}" must be of type Integer') from None


def _inline_only(value: Any, *, private: bool) -> Json | None:
    markup = inline_keyboard(value, private=private)
    if markup is not None and "inline_keyboard" not in markup:
        raise bad_request("inline keyboard expected")
    return markup
