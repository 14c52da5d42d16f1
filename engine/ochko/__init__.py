"""Rules engine for Очко (Twenty-One, a banking game; RULES §20): cards and hand values, options and profiles,
the bank and its rounds, duels, settlement, views and two tiny computer policies.

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random`` (or the
verifiable shuffle of ``engine.core.fair``). Chips are virtual: nothing here knows of money (§20.3).
"""
