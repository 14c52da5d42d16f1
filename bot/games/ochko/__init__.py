"""Очко's adapter (RULES §20): the lobby, the group's table, the private hand and its bet buttons, the
announcements, the timer's moves, the computers, stats and replays. ``game.OCHKO`` is what the registry holds."""
