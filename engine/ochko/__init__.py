"""Rules engine for Очко (Twenty-One, a banking game; RULES §20): cards and hand values, options and profiles,
the bank and its rounds, duels, settlement, views and two tiny computer policies.

* ``cards``: ``Card``, ``Rank``, the 36/32-card packs in the canonical order, the cut's seniority.
* ``variant``: ``Options`` (every [Oxx] of §20.13 with its ★ default, and the numbers of §20.3) and the
  profiles of §20.17 (``OCHKO_STANDARD``, ``OCHKO_POLISH``, ``OCHKO_ONE_SHOWDOWN``; ``PROFILES`` by name).
* ``hands``: what a hand is worth (§20.4) and who wins (§20.10, one ``Case`` per row).
* ``actions``: ``StakeBank``, ``Knock``, ``Deal``, ``Bet``, ``Hit``, ``Stand``, ``Dark``, ``Leave``.
* ``events``: what the bot announces; ``errors``: ``IllegalAction`` and its ``Reason``.
* ``match``: ``Match`` (the session, its ``Phase``), replayed from ``to_json``; ``fair_export`` for the verifier.
* ``views``: ``view(match, seat)`` and ``public_view(match)``; ``ai``: ``easy`` and ``odds``.

Pure Python: no I/O, no clock, no global random. Randomness arrives as a seeded ``random.Random`` (or the
verifiable shuffle of ``engine.core.fair``). Chips are virtual: nothing here knows of money (§20.3).
"""
