"""The slice of the Bot API spec this server implements, to coerce parameters and check our objects.

`spec.json` was cut from the machine-readable Bot API spec (Bot API 10.1) down to the methods served here and
the types they return, keeping each field's name, types and whether it is required. It lives in the
repository so that CI on a fresh clone needs nothing from outside.

The ephemeral messages of Bot API 10.2/10.3 were added by hand from aiogram 3.31's definitions of them (its
`EphemeralMessageParameters`, `SendMessage`, `EditEphemeralMessageText`, `EditEphemeralMessageReplyMarkup`,
`DeleteEphemeralMessage`, `Message.receiver_user` / `ephemeral_message_id`, `BotCommand.is_ephemeral`): the
three methods, the type, and sendMessage's `ephemeral_message_parameters` with the top-level
`receiver_user_id` and `callback_query_id` that 10.3 deprecated but Telegram still takes.

sendDocument and the Document type were added from the same 10.1 spec when the bot began to send files (the
match's export, issue 38): every parameter as the spec lists it, ``document`` an InputFile or a String.
"""

import json
from functools import cache
from pathlib import Path
from typing import Any

SPEC_PATH = Path(__file__).with_name("spec.json")


@cache
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return loaded


def method_fields(method: str) -> dict[str, list[str]]:
    """Parameter name -> its Bot API types ("Integer", "String", "Array of MessageEntity", ...)."""
    return {item["name"]: item["types"] for item in spec()["methods"][method]["fields"]}


def required_fields(type_name: str) -> list[str]:
    return [item["name"] for item in spec()["types"][type_name]["fields"] if item["required"]]


def method_names() -> list[str]:
    return list(spec()["methods"])
