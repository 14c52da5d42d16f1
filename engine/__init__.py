"""The rules engines of the house's games, one package each (bura/: Бура, Буркозёл and Козёл).

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random``.
"""
