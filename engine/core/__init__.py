"""What every game of the house shares: suits, seats and partnerships, refusals, and the ``Match`` protocol.

A game package (``engine/bura``, ``engine/buraco``) builds on these and on nothing else of ours.
"""
