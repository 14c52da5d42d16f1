"""The rules engines of the house's games: core/ (what every game shares), then one package per game
(bura/: Бура, Буркозёл and Козёл; buraco/: Buraco Aberto).

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random``.
"""
