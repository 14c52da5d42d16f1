### English strings of the game flow: lobby, moves, timers, commands (bot/services, bot/handlers).
### Texts are Telegram HTML: whoever puts a name in escapes it.

## Lobby

flow-lobby-exists = A table is already being gathered in this chat: join it with the button under it.
flow-game-in-progress = A game is already on in this chat. To end it: /stop (the table's creator or an admin).
flow-stale-button = This button is out of date: the table has moved on.
flow-computer-added = A computer player has joined.
flow-computer-removed = A computer left the table.
flow-play-exists = We already have a game going: finish it or send /stop.
flow-play-title = Against the computer
flow-command-play = play against the computer
flow-only-creator = Only the table's creator or a group admin can do this.
flow-already-seated = You are already at the table.
flow-not-seated = You are not at this table.
flow-lobby-full = The table is full: { $count } { $count ->
    [one] player
   *[other] players
}.
flow-joined = You are at the table.
flow-left = You left the table.
flow-link-expired = This table is gone. Write /new in the group to gather a new one.
flow-ready-private = You are already at the table: your cards will come here when the deal starts.
flow-joined-private = You are at the table! Your cards will come here when the deal starts. Back to the group.
flow-need-players = At least { $count } { $count ->
    [one] player is
   *[other] players are
} needed.
flow-need-private = I cannot send cards to: { $names }. Open a private chat with me and press Start.
flow-started = Dealing!
flow-lobby-cancelled = The table was cancelled.
flow-lobby-expired = The table was closed: nobody started the game for 30 minutes.

## Game

flow-reminder = ⏳ Your move at the table «{ $title }»: { $seconds } s left.
flow-game-over = This game is over.
flow-not-at-table = You are not at this table.
flow-timeout-move = ⏳ { $name } ran out of time: the bot played their cheapest card.
flow-timeout-away = ⏳ { $name } missed three moves in a row: the bot plays for them until they are back.
flow-all-away = Every player missed three moves in a row: the game is stopped.
flow-no-game = No game here right now. Gather a table: /new
flow-score-title = 📋 Match score (deal { $deal })
flow-score-line = { $name }: { $score } · deals won: { $wins }
flow-no-table = There is no open table in this chat.
flow-stopped = { $name } stopped the game.
flow-bot-removed = I was removed from the group: the game is stopped.
flow-player-unreachable = { $name } closed the private chat with the bot and will not get cards. If they do not come back, the bot will play for them.

## Tallies

flow-stats-mine = 📊 { $name }: matches { $matches_won } of { $matches_played }, deals { $deals_won } of { $deals_played }, buras { $buras }, false claims { $false_claims }
flow-top-empty = Nobody has played in this chat yet.
flow-top-title = 🏆 The chat's best players
flow-top-line = { $place }. { $name } — matches { $matches_won } of { $matches_played }, deals { $deals_won } of { $deals_played }, buras { $buras }

## General

flow-start-private =
    Hi! I run the card game Bura in group chats.
    Add me to a group and write /new there to gather a table. I will send your cards here, to this private chat.
flow-help =
    <b>Bura</b>: three cards each, one suit is trump. Lead 1–3 cards of one suit; answer with as many cards and beat each (a higher card of its suit, or a trump), or throw them away. Whoever holds 31 points in tricks calls «I'm out!» and takes the deal. A=11, 10=10, K=4, Q=3, J=2.
    In a group: /new — gather a table · /addbot — seat a computer (/addbot hard — a strong one) · /settings — table settings · /score — the score · /stats, /top — tallies · /stop — end the game
    In the private chat: /play — play against the computer (/play hard — the strong one)
flow-private-fallback = I run games in groups: add me to a group and write /new there. Help: /help
flow-hello-group = Hi! To play Bura, write /new.
flow-error = Something went wrong. Please try again.

## Command menu

flow-command-new = gather a table
flow-command-score = match score
flow-command-stats = my tally in this chat
flow-command-top = the chat's best players
flow-command-stop = end the game
flow-command-help = rules and commands
flow-command-start = start
flow-settings-no-lobby = Settings are changed before the deal: open a table with /new first.
flow-settings-playing = The game is on: settings are changed before the deal.
flow-command-settings = table settings
flow-timeout-forfeit = ⏳ { $name } missed three moves in a row and loses the deal.
flow-command-addbot = seat a computer player
flow-addbot-no-lobby = A computer joins a table being gathered: write /new first.
flow-addbot-playing = The game is on: a computer takes a seat before the deal.
flow-storage-failed = Could not save it: the move was not made. Please try again in a moment.
flow-paused-tap = The game is paused: the bot may not write in the group.
flow-paused-private = ⏸ The game «{ $title }» is paused: the bot may no longer write in the group. Ask an admin to let the bot send messages again, and the game goes on from where it stopped.
flow-resumed = ▶️ The bot may write in the group again: the game goes on.
