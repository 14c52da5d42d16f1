"""Rules engine for Buraco Aberto (RULES §17; the seed 001 wins where they differ): cards, melds, deals,
matches to 3,000, scoring and views.

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random``.
"""
