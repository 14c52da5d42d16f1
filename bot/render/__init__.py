"""Rendering what every game shares: lobby, settings, help, refusals, keyboards, names and length limits.

Pure functions of data: no I/O, no Bot calls, no rules decided here (STYLE: "the renderer never decides a rule").
Every word comes from the locales through a ``Translator``; every user-supplied name is HTML-escaped. A game's
own texts (its table, hand and events) are its adapter's, under ``bot/games/``; what these renderers show of a
game (its rules line, who may sit, its /help) is handed in by the services, which ask its adapter.
"""
