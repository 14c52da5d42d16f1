"""Rules engine for Бура, Буркозёл and Козёл: cards, variants, deals, matches, views.

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random``.
"""
