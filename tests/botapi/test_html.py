"""Telegram's HTML parse mode: what parses into which entities, and what Telegram refuses, word for word."""

import pytest

from tests.botapi.html import HtmlError, parse_html, strip_text, utf16_len


def test_tags_become_entities_with_utf16_offsets() -> None:
    text, entities = parse_html("🂡 <b>туз <i>пик</i></b> <u>u</u><s>s</s>")
    assert text == "🂡 туз пик us"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 7},
        {"type": "italic", "offset": 7, "length": 3},
        {"type": "underline", "offset": 11, "length": 1},
        {"type": "strikethrough", "offset": 12, "length": 1},
    ]
    assert utf16_len("🂡") == 2


@pytest.mark.parametrize(
    ("markup", "kind"),
    [
        ("<strong>x</strong>", "bold"),
        ("<em>x</em>", "italic"),
        ("<ins>x</ins>", "underline"),
        ("<strike>x</strike>", "strikethrough"),
        ("<del>x</del>", "strikethrough"),
        ('<span class="tg-spoiler">x</span>', "spoiler"),
        ("<tg-spoiler>x</tg-spoiler>", "spoiler"),
        ("<code>x</code>", "code"),
        ("<pre>x</pre>", "pre"),
        ("<blockquote>x</blockquote>", "blockquote"),
        ("<blockquote expandable>x</blockquote>", "expandable_blockquote"),
    ],
)
def test_every_telegram_tag(markup: str, kind: str) -> None:
    assert parse_html(markup) == ("x", [{"type": kind, "offset": 0, "length": 1}])


def test_links_languages_and_custom_emoji_keep_their_attributes() -> None:
    assert parse_html('<a href="https://t.me/bura_bot?start=1">вход</a>')[1] == [
        {"type": "text_link", "offset": 0, "length": 4, "url": "https://t.me/bura_bot?start=1"}
    ]
    assert parse_html('<pre><code class="language-python">x = 1</code></pre>')[1] == [
        {"type": "pre", "offset": 0, "length": 5, "language": "python"}
    ]
    assert parse_html('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>')[1] == [
        {"type": "custom_emoji", "offset": 0, "length": 2, "custom_emoji_id": "5368324170671202286"}
    ]


def test_only_four_named_entities_are_decoded() -> None:
    assert parse_html("&lt;&gt;&amp;&quot; &nbsp; &#9824; &#x2665;") == ('<>&" &nbsp; ♠ ♥', [])


def test_formatting_inside_code_is_dropped() -> None:
    assert parse_html("<code>a <b>b</b></code>")[1] == [{"type": "code", "offset": 0, "length": 3}]


@pytest.mark.parametrize(
    ("markup", "reason"),
    [
        ("<p>абзац</p>", 'Unsupported start tag "p" at byte offset 0'),
        ("ход<br/>", 'Unsupported start tag "br/" at byte offset 6'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ('<a href="x>y</a>', "Unclosed start tag at byte offset 0"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("<a href=x/y>z</a>", "Unexpected end of name token at byte offset 8"),
        ("<b =1>x</b>", 'Empty attribute name in the tag "b" at byte offset 0'),
    ],
)
def test_refused_markup(markup: str, reason: str) -> None:
    with pytest.raises(HtmlError) as caught:
        parse_html(markup)
    assert str(caught.value) == reason


def test_stripping_moves_entities_with_the_text() -> None:
    assert strip_text("  <b>", []) == ("<b>", [])
    text, entities = parse_html("\n <b> туз </b>\n")
    assert strip_text(text, entities) == ("туз", [{"type": "bold", "offset": 0, "length": 3}])
