"""The games the bot hosts, one adapter each (bura/: Бура, Буркозёл and Козёл; buraco/: Buraco Aberto).

An adapter turns its engine's views and events into texts and keyboards, a hand button into an engine action,
and says what a timeout plays, what a computer decides and which stats a move earned. Lobby, services,
storage, outbox, timers and sender do not know which game a table plays.
"""
