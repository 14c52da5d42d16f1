"""Telegram's HTML parse mode, as strict as Telegram: the tags it knows, proper nesting, its four entities.

`parse_html` turns markup into plain text plus `MessageEntity` dicts (offsets in UTF-16 code units, as the
Bot API counts them) or raises `HtmlError` with the same wording Telegram puts after
"Bad Request: can't parse entities: ". The rules follow TDLib's `parse_html` (which is what the Bot API runs):
unknown named entities such as `&nbsp;` stay as literal text, `<br>` is not a tag, `span` must carry
`class="tg-spoiler"`, and a `<code class="language-x">` directly inside `<pre>` becomes the pre's language.
"""

from dataclasses import dataclass, field
from typing import Any

Entity = dict[str, Any]

# Tag -> entity type; span, a, code, blockquote and tg-emoji get their details from attributes.
_TAG_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SPACES = " \t\r\n\f\v"


class HtmlError(ValueError):
    """Markup Telegram would refuse; the message is Telegram's own."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: characters beyond the BMP count twice, as in every Bot API offset."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Open:
    tag: str
    start: int  # UTF-16 offset in the output where the tag's content begins
    byte_offset: int
    chars: int  # code points in the output before the tag, to slice the text of an `a` without href
    attributes: dict[str, str] = field(default_factory=dict)


class _Parser:
    def __init__(self, markup: str) -> None:
        self.src = markup
        self.pos = 0
        self.out: list[str] = []
        self.out_len = 0  # UTF-16 length of what is in `out`
        self.out_chars = 0
        self.stack: list[_Open] = []
        self.entities: list[tuple[int, Entity]] = []  # (byte offset of the start tag, entity)

    def byte_offset(self, index: int) -> int:
        return len(self.src[:index].encode("utf-8"))

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.out_len += utf16_len(text)
        self.out_chars += len(text)

    def peek(self, ahead: int = 0) -> str:
        index = self.pos + ahead
        return self.src[index] if index < len(self.src) else ""

    def decode_entity(self) -> str | None:
        """At '&': the decoded character and the position advanced past it, or None for a literal '&'."""
        src, start = self.src, self.pos
        end = start + 1
        if self.peek(1) == "#":
            end += 1
            digits_start = end
            hexadecimal = end < len(src) and src[end] in "xX"
            if hexadecimal:
                end += 1
                digits_start = end
                while end < len(src) and src[end] in "0123456789abcdefABCDEF":
                    end += 1
            else:
                while end < len(src) and src[end].isdigit() and src[end].isascii():
                    end += 1
            digits = src[digits_start:end]
            if not digits or end - start >= 10:
                return None
            code = int(digits, 16 if hexadecimal else 10)
            if code == 0 or code >= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return None
            char = chr(code)
        else:
            while end < len(src) and src[end].isascii() and src[end].isalpha():
                end += 1
            named = _NAMED_ENTITIES.get(src[start + 1 : end])
            if named is None:
                return None
            char = named
        self.pos = end + 1 if end < len(src) and src[end] == ";" else end
        return char

    def parse(self) -> tuple[str, list[Entity]]:
        while self.pos < len(self.src):
            char = self.src[self.pos]
            if char == "&":
                decoded = self.decode_entity()
                if decoded is not None:
                    self.emit(decoded)
                    continue
            if char != "<":
                self.emit(char)
                self.pos += 1
                continue
            if self.peek(1) == "/":
                self.end_tag()
            else:
                self.start_tag()
        if self.stack:
            raise HtmlError(f'Can\'t find end tag corresponding to start tag "{self.stack[-1].tag}"')
        # Telegram lists entities by offset, the outer (longer) one first.
        self.entities.sort(key=lambda item: (item[1]["offset"], -item[1]["length"], item[0]))
        return "".join(self.out), [entity for _, entity in self.entities]

    def read_while(self, stop: str) -> str:
        start = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in stop:
            self.pos += 1
        return self.src[start : self.pos]

    def skip_spaces(self) -> None:
        self.read_while_in(_SPACES)

    def read_while_in(self, allowed: str) -> str:
        start = self.pos
        while self.pos < len(self.src) and self.src[self.pos] in allowed:
            self.pos += 1
        return self.src[start : self.pos]

    def start_tag(self) -> None:
        begin = self.pos
        at = self.byte_offset(begin)
        self.pos += 1
        tag = self.read_while(_SPACES + ">").lower()
        if self.pos >= len(self.src):
            raise HtmlError(f"Unclosed start tag at byte offset {at}")
        if tag not in _TAG_TYPES:
            raise HtmlError(f'Unsupported start tag "{tag}" at byte offset {at}')
        attributes: dict[str, str] = {}
        while True:
            self.skip_spaces()
            if self.pos >= len(self.src):
                raise HtmlError(f"Unclosed start tag at byte offset {at}")
            if self.peek() == ">":
                self.pos += 1
                break
            name = self.read_while(_SPACES + "=>").lower()
            if not name:
                raise HtmlError(f'Empty attribute name in the tag "{tag}" at byte offset {at}')
            self.skip_spaces()
            if self.peek() != "=":
                attributes[name] = ""  # a bare attribute, like `expandable`
                continue
            self.pos += 1
            self.skip_spaces()
            if self.pos >= len(self.src):
                raise HtmlError(f"Unclosed start tag at byte offset {at}")
            attributes[name] = self.attribute_value(at)
        self.stack.append(_Open(tag, self.out_len, at, self.out_chars, attributes))
        self.check_start(self.stack[-1])

    def attribute_value(self, at: int) -> str:
        quote = self.peek()
        if quote not in ("'", '"'):
            token_at = self.byte_offset(self.pos)
            value = self.read_while_in("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
            if self.peek() not in (*_SPACES, ">"):
                raise HtmlError(f"Unexpected end of name token at byte offset {token_at}")
            return value.lower()
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(self.src) and self.src[self.pos] != quote:
            if self.src[self.pos] == "&":
                decoded = self.decode_entity()
                if decoded is not None:
                    chars.append(decoded)
                    continue
            chars.append(self.src[self.pos])
            self.pos += 1
        if self.pos >= len(self.src):
            raise HtmlError(f"Unclosed start tag at byte offset {at}")
        self.pos += 1
        return "".join(chars)

    def check_start(self, opened: _Open) -> None:
        if opened.tag == "span" and opened.attributes.get("class") != "tg-spoiler":
            raise HtmlError(f'Tag "span" must have class "tg-spoiler" at byte offset {opened.byte_offset}')
        if opened.tag == "tg-emoji" and not opened.attributes.get("emoji-id", "").isdigit():
            raise HtmlError(f'Tag "tg-emoji" must have attribute "emoji-id" at byte offset {opened.byte_offset}')

    def end_tag(self) -> None:
        begin = self.pos
        at = self.byte_offset(begin)
        self.pos += 2
        name = self.read_while(_SPACES + ">").lower()
        self.skip_spaces()
        if self.peek() != ">":
            raise HtmlError(f"Unclosed end tag at byte offset {at}")
        self.pos += 1
        if not self.stack:
            raise HtmlError(f"Unexpected end tag at byte offset {at}")
        opened = self.stack[-1]
        if name and name != opened.tag:
            raise HtmlError(f'Unmatched end tag at byte offset {at}, expected "</{opened.tag}>", found "</{name}>"')
        self.stack.pop()
        self.close(opened)

    def close(self, opened: _Open) -> None:
        length = self.out_len - opened.start
        if length == 0:
            return
        # TDLib drops formatting inside code and pre; a code directly inside pre names the pre's language.
        inside_code = any(item.tag in ("code", "pre") for item in self.stack)
        if opened.tag == "code" and self.stack and self.stack[-1].tag == "pre":
            language = opened.attributes.get("class", "")
            if language.startswith("language-"):
                self.stack[-1].attributes["language"] = language.removeprefix("language-")
            return
        if inside_code:
            return
        entity: Entity = {"type": _TAG_TYPES[opened.tag], "offset": opened.start, "length": length}
        if opened.tag == "a":
            url = opened.attributes.get("href") or "".join(self.out)[opened.chars :]
            if not url.strip():
                return
            entity["url"] = url
        elif opened.tag == "pre" and opened.attributes.get("language"):
            entity["language"] = opened.attributes["language"]
        elif opened.tag == "blockquote" and "expandable" in opened.attributes:
            entity["type"] = "expandable_blockquote"
        elif opened.tag == "tg-emoji":
            entity["custom_emoji_id"] = opened.attributes["emoji-id"]
        # Entities nested in code were opened later but must not survive; drop them too.
        if opened.tag in ("code", "pre"):
            end = opened.start + length
            self.entities = [
                (order, kept)
                for order, kept in self.entities
                if not (kept["offset"] >= opened.start and kept["offset"] + kept["length"] <= end)
            ]
        self.entities.append((opened.byte_offset, entity))


def parse_html(markup: str) -> tuple[str, list[Entity]]:
    """Plain text and entities for `markup`, or `HtmlError` with Telegram's reason."""
    return _Parser(markup).parse()


def strip_text(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """Telegram trims leading and trailing whitespace from a message; entities shift and shrink with it."""
    stripped_left = text.lstrip()
    removed = utf16_len(text) - utf16_len(stripped_left)
    stripped = stripped_left.rstrip()
    limit = utf16_len(stripped)
    kept: list[Entity] = []
    for entity in entities:
        start = max(entity["offset"] - removed, 0)
        end = min(entity["offset"] + entity["length"] - removed, limit)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return stripped, kept
