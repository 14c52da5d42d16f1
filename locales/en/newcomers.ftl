# Newcomers (issue 37): the host who never opened the private chat, /rules, the private chat's commands,
# “Another match”, /new with a game's name.

flow-need-private-group = { $names }: I can't send you your cards yet. Tap the button below, then Start — and come back here.
flow-need-private-button = 📩 Open a private chat with the bot
flow-table-waits = Done: your cards will come here from now on. Your table is waiting — head back to the group, the game can start.
flow-player-ready = ✅ { $name } can get cards now — the game can start.
flow-player-ready-others-wait = ✅ { $name } can get cards now. Still to open a private chat with the bot: { $names }.
flow-new-which-game = I don't know that game. What shall we play?
flow-rules-which-game = The rules of which game?
flow-private-new = Tables are started in groups: add me to a group and send /new there. To play the computer here: /play.
flow-private-settings = Settings belong to a table in a group: send /settings there while players are still joining. To play the computer here: /play.
flow-add-to-group = ➕ Add to a group
flow-stats-mine-everywhere = 📊 { $name } — in all chats
flow-stats-none-everywhere = You have not played anywhere yet. Start a table in a group (/new) or play the computer here: /play.
flow-top-private = 🏆 Each group has its own top players: send /top there. Here are your tallies:
flow-command-rules = game rules
flow-score-last-over = 🏁 No game here right now. The last match is over:
flow-score-last-stopped = 🏁 No game here right now. The last match was stopped:
flow-score-next = A new table: /new
flow-rematch-button = 🔁 Another match
flow-rematch-opened = A new table is open: the others sit down with the same “Another match” button or with “Join”.
flow-rematch-started = Everyone is back — the new match has begun.
flow-rematch-not-yours = This button is for the players of this match. To play, join the new table or start one: /new.
