### English strings of the game flow: lobby, moves, timers, commands (bot/services, bot/handlers).
### Texts are Telegram HTML: whoever puts a name in escapes it.

## Lobby

flow-lobby-exists = A table is already being set up in this chat: join it with the button under it.
flow-game-in-progress = A game is already on in this chat. To end it: /stop (the host or an admin).
flow-stale-button = This button is out of date: the table has moved on.
flow-computer-added = 🤖 A computer took a seat.
flow-computer-removed = 🤖 A computer left the table.
flow-play-exists = We already have a game going: finish it or send /stop.
flow-play-title = Against the computer
flow-command-play = play against the computer
flow-only-creator = Only the host of the table or a group admin can do this.
flow-already-seated = You are already at the table.
flow-not-seated = You are not at this table.
flow-lobby-full = The table is full: { $count } { $count ->
    [one] player
   *[other] players
}.
flow-joined = You are at the table.
flow-left = You left the table.
flow-link-expired = This table is gone. Send /new in the group to start a new one.
flow-ready-private = You are already at the table: your cards will come here when the deal starts.
flow-joined-private = You are at the table! Your cards will come here when the deal starts. Head back to the group.
flow-members-only = Only members of the table's group can sit at it.
flow-members-unknown = I could not check whether you are in the table's group. Please try again in a minute.
flow-player-removed = { $name } is no longer at the table.
flow-removed-you = You were removed from this table.
flow-not-a-person = I take commands from people only: write as yourself, not as a channel or an anonymous admin.
flow-private-only = This works only in a private chat with me.
flow-need-players = At least { $count } { $count ->
    [one] player is
   *[other] players are
} needed.
flow-need-private = I cannot send cards to: { $names }. Open a private chat with me and press Start.
flow-and-more = { $names } and { $count } more
flow-started = Dealing!
flow-lobby-cancelled = The table was cancelled.
flow-lobby-expired = The table was closed: nobody started the game for 30 minutes.

## Game

flow-game-over = This game is over.
flow-not-at-table = You are not at this table.
flow-timeout-move = ⏳ { $name }: time ran out — the bot { $played }.
flow-timeout-away = ⏳ { $name }: three moves in a row missed — the bot { $played } and plays for them until they are back.
flow-timeout-forfeit = ⏳ { $name } loses the deal: three moves in a row missed.
flow-all-away = Every player missed three moves in a row: the game is stopped.
flow-no-game = No game here right now. Start a table: /new
flow-score-title = 📋 Match score · deal { $deal }
flow-no-table = There is no open table in this chat.
flow-stopped = ⏹ { $name } stops the game.
flow-bot-removed = I was removed from the group: the game is stopped.
flow-player-unreachable = { $name } gets no cards: their private chat with the bot is closed. Until they come back, the bot plays for them.
flow-storage-failed = Could not save it: the move was not made. Please try again in a moment.
flow-paused-tap = The game is paused: the bot may not write in the group.
flow-paused-private = ⏸ The game “{ $title }” is paused: the bot may no longer write in the group. Ask an admin to let the bot send messages again, and the game goes on from where it stopped.
flow-resumed = ▶️ The bot may write in the group again: the game goes on.

## Tallies

flow-stats-mine = 📊 { $name }
flow-stats-none = You have not played in this chat yet.
stats-game = { $game } — { $tally }
stats-matches = matches won: { $won }/{ $played }
stats-deals = deals won: { $won }/{ $played }
flow-top-empty = Nobody has played in this chat yet.
flow-top-title = 🏆 Top players in this chat (matches · deals)
flow-top-game = <b>{ $game }</b>
flow-top-line = { $place }. { $name } — { $matches_won }/{ $matches_played } · { $deals_won }/{ $deals_played }

## General

flow-start-private =
    Hi! I run the card games Bura, Burkozel, Kozel, Buraco and Ochko (for chips only, no money) in group chats.
    Add me to a group and send /new there to start a table; I will send your cards here, to this private chat. Or play against the computer right here: /play.
flow-start-add-group = ➕ Add to a group
flow-start-play = 🤖 Play against the computer
flow-help-commands =
    In a group: /new — start a table (/new buraco, /new ochko — for another game) · /rules — the rules · /addbot — seat a computer (/addbot hard — a strong one) · /settings — table settings · /score — the score · /stats, /top — tallies · /stop — end the game
    In the private chat: /play — play against the computer (/play hard — the strong one)
flow-private-fallback = I run games in groups: add me to a group and send /new there. To play the computer: /play. Help: /help
flow-hello-group = Hi! Pick a game with a button below, or send a command: /new for Bura, /new buraco, /new ochko, /new burkozel… I deal the cards in private chats, so each player needs to open a chat with me once: that's the last button.
flow-hello-button = 📩 Open the private chat with the bot
flow-error = Something went wrong. Please try again.

## Command menu

flow-command-new = start a table
flow-command-score = match score
flow-command-stats = my tally in this chat
flow-command-top = the chat's best players
flow-command-stop = end the game
flow-command-help = rules and commands
flow-command-start = start
flow-settings-no-lobby = Settings are changed while a table is being set up: send /new first.
flow-settings-playing = The game is on: settings are changed before the deal.
flow-command-settings = table settings
flow-command-addbot = seat a computer player
flow-addbot-no-lobby = A computer can take a seat while a table is being set up: send /new first.
flow-addbot-playing = The game is on: a computer can take a seat only before the deal starts.

# privacy

flow-command-forget = delete all the bot keeps about me
flow-forget-ask =
    🗑 Delete everything the bot keeps about you?

    This deletes your name and language, your tallies (/stats, /top) in every chat, the messages the bot sent you here (your cards), and the moves of the finished games you played. Finished games keep your place with “—” for a name.

    Messages in chats are kept by Telegram: the bot does not delete them. { $days ->
        [0] The bot keeps its copies of group messages until its admin deletes them.
       *[other] The bot deletes its own copies of group messages after { $days } { $days ->
            [one] day
           *[other] days
        } anyway.
    }

    This cannot be undone. When you write to the bot or take a seat again, it remembers you anew.
flow-forget-yes = ✅ Delete
flow-forget-no = Cancel
flow-forget-seated = You are at a table whose game is not over. Leave the lobby, end the game (/stop) or wait for its end, then send /forget again.
flow-forget-done = ✅ Done: the bot deleted everything it kept about you.
flow-forget-done-toast = Deleted.
flow-forget-cancelled = Nothing was deleted.
flow-forget-not-yours = This button is not yours: nothing changed.

# flood

flow-slow-down = Slow down
