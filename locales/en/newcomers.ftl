# Newcomers (issue 37): the host who never opened the private chat, /rules, the private chat's commands,
# “Another match”, /new with a game's name.

flow-need-private-group = I cannot send cards to: { $names }. Tap the button below, then Start — and come back here.
flow-need-private-button = 📩 Open a private chat with the bot
flow-table-waits = Done: your cards will come here now. Your table is waiting — head back to the group and start.
flow-player-ready = ✅ { $name } can get cards now — the game can start.
