"""Reading a request as the Bot API does, and the checks every sending method shares.

Telegram takes parameters from the query string, an urlencoded or multipart form, or a JSON body. In forms
every value is a string and nested objects (reply_markup, entities, allowed_updates...) are JSON strings;
that is how aiogram sends them (`BaseSession.prepare_value`). `coerce` turns them into typed values by the
types the spec gives each field, so a method sees the same thing whichever way the bot sent it.
"""

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from tests.botapi.errors import bad_request
from tests.botapi.html import Entity, HtmlError, parse_html, strip_text, utf16_len

Json = dict[str, Any]

MAX_TEXT = 4096
MAX_CAPTION = 1024  # a media message's caption, after entity parsing (sendDocument in the spec)
MAX_CALLBACK_DATA = 64
# The Bot API docs state no button limits. 100 buttons in all is the server's known bound (beyond it,
# REPLY_MARKUP_TOO_LONG); 8 per row is what clients still show on a phone, and what we hold bots to.
MAX_BUTTONS = 100
MAX_BUTTONS_PER_ROW = 8
# Exactly one of these must accompany a button's text (InlineKeyboardButton in the spec).
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


def coerce(raw: Json, fields: dict[str, list[str]]) -> Json:
    """Typed parameters: integers, booleans and JSON decoded; unknown names dropped, as Telegram does."""
    params: Json = {}
    for name, value in raw.items():
        types = fields.get(name)
        if types is None or value is None:
            continue
        params[name] = _coerce_value(name, value, types)
    return params


def _coerce_value(name: str, value: Any, types: list[str]) -> Any:
    if not isinstance(value, str):
        return value
    if types == ["Integer", "String"]:
        try:
            return int(value)
        except ValueError:
            return value
    if types == ["Integer"]:
        try:
            return int(value)
        except ValueError:
            raise bad_request(f'field "{name}" must be of type Integer') from None
    if types == ["Float"]:
        try:
            return float(value)
        except ValueError:
            raise bad_request(f'field "{name}" must be of type Float') from None
    if types == ["Boolean"]:
        lowered = value.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0", ""):
            return False
        raise bad_request(f'field "{name}" must be of type Boolean')
    if "String" in types:
        return value
    try:
        return json.loads(value)
    except ValueError:
        raise bad_request(f"can't parse {name} JSON object") from None


def require(params: Json, name: str) -> Any:
    value = params.get(name)
    if value is None or value == "":
        raise bad_request(f"{name} is empty")
    return value


def formatted_text(params: Json) -> tuple[str, list[Entity]]:
    """The message text and entities after parsing, trimmed and length-checked as Telegram does."""
    text = params.get("text")
    if not isinstance(text, str) or not text:
        raise bad_request("message text is empty")
    text, entities = _formatted(text, params.get("parse_mode"), params.get("entities"))
    if not text:
        raise bad_request("message text is empty")
    if len(text) > MAX_TEXT:
        raise bad_request("message is too long")
    return text, entities


def formatted_caption(params: Json) -> tuple[str | None, list[Entity]]:
    """A media message's caption and its entities, parsed as a text is (`parse_mode`, or `caption_entities`);
    None when there is none. Its length counts after parsing: the tags are not the caption's."""
    caption = params.get("caption")
    if caption is None or caption == "":
        return None, []
    if not isinstance(caption, str):
        raise bad_request('field "caption" must be of type String')
    caption, entities = _formatted(caption, params.get("parse_mode"), params.get("caption_entities"))
    if len(caption) > MAX_CAPTION:
        raise bad_request("message caption is too long")
    return caption or None, entities


def _formatted(text: str, parse_mode: Any, given: Any) -> tuple[str, list[Entity]]:
    """A text and its entities from `parse_mode` (HTML only here) or from the entities given, trimmed."""
    parse_mode = parse_mode or ""
    entities: list[Entity]
    if parse_mode.lower() == "html":
        try:
            text, entities = parse_html(text)
        except HtmlError as error:
            raise bad_request(f"can't parse entities: {error}") from None
    elif parse_mode:
        if parse_mode.lower() in ("markdown", "markdownv2"):
            # Loud rather than lenient: a silent pass-through would hide real parse errors.
            raise bad_request(f"fake Bot API parses HTML only, not {parse_mode}")
        raise bad_request("unsupported parse_mode")
    else:
        entities = _given_entities(given, text)
    return strip_text(text, entities)


def _given_entities(value: Any, text: str) -> list[Entity]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise bad_request("can't parse entities JSON object")
    length = utf16_len(text)
    entities: list[Entity] = []
    for item in value:
        offset, size = item.get("offset"), item.get("length")
        if not isinstance(item.get("type"), str) or not isinstance(offset, int) or not isinstance(size, int):
            raise bad_request("can't parse MessageEntity")
        if offset < 0 or size <= 0 or offset + size > length:
            continue  # Telegram quietly drops entities that point outside the text
        entities.append(dict(item))
    return entities


def inline_keyboard(value: Any, *, private: bool) -> Json | None:
    """A checked reply_markup, or None. Non-inline keyboards are accepted but kept as they came. `private`: the
    message is in a private chat, the only place Telegram takes a web_app button (a group's ephemeral message is
    the group's)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in value:
        return value
    rows = value["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" must be of type Array')
    total = sum(len(row) for row in rows)
    if total > MAX_BUTTONS or any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
        raise bad_request("REPLY_MARKUP_TOO_LONG")
    for row in rows:
        for button in row:
            _check_button(button, private)
    return {"inline_keyboard": [[dict(button) for button in row] for row in rows if row]}


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _web_app_url(value: Any) -> bool:
    """A Mini App's page as Telegram opens it: https://, or (our tests' pages, as WEBAPP_URL allows) http:// to
    a loopback host."""
    if not isinstance(value, str):
        return False
    try:
        url = urlsplit(value)
        host = url.hostname
    except ValueError:
        return False
    return bool(host) and (url.scheme == "https" or (url.scheme == "http" and _is_loopback(host or "")))


def _link_url(value: Any) -> bool:
    """A URL button's link: http(s) to a host, or tg://."""
    if not isinstance(value, str):
        return False
    try:
        url = urlsplit(value)
    except ValueError:
        return False
    return (url.scheme in ("http", "https") and bool(url.hostname)) or (url.scheme == "tg" and len(value) > 5)


def _check_button(button: Any, private: bool) -> None:
    if not isinstance(button, dict):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
    if not isinstance(button.get("text"), str):
        raise bad_request('can\'t parse inline keyboard button: Field "text" must be of type String')
    if not button["text"].strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    actions = [name for name in _BUTTON_ACTIONS if name in button]
    if not actions:
        raise bad_request("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:  # Telegram would take one and drop the rest: a bot that sends both means neither
        raise bad_request("can't parse inline keyboard button: exactly one of the optional fields must be used")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str):
            raise bad_request('can\'t parse inline keyboard button: Field "callback_data" must be of type String')
        if not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button and not _link_url(button["url"]):
        raise bad_request("BUTTON_URL_INVALID")
    if "web_app" in button:
        web_app = button["web_app"]
        if not isinstance(web_app, dict) or not isinstance(web_app.get("url"), str):
            raise bad_request('can\'t parse inline keyboard button: Field "url" must be of type String')
        if not private:
            raise bad_request("BUTTON_TYPE_INVALID")  # web_app buttons are for private chats only
        if not _web_app_url(web_app["url"]):
            raise bad_request("BUTTON_URL_INVALID")
