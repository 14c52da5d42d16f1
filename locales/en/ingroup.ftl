# The hand in the group itself, seen by its player alone (Bot API ephemeral messages; issue 37).
ingroup-my-cards = 🃏 My cards
ingroup-not-seated = You are not playing at this table: only its players can see their cards here.
