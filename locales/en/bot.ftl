### English strings of the Бура bot.
### Texts are Telegram HTML: whoever puts user data (names) in escapes it.

## Units

cards-count = { $count } { $count ->
    [one] card
   *[other] cards
}
points-count = { $count } { $count ->
    [one] point
   *[other] points
}
tricks-count = { $count } { $count ->
    [one] trick
   *[other] tricks
}
players-count = { $count } { $count ->
    [one] player
   *[other] players
}
seconds-count = { $count } s

## General

bot-start-private =
    Hi! I run games of Bura in group chats.
    Add me to a group and send /bura to gather a table. I will deal your cards here, in this private chat.
bot-start-private-ready = Done: now I can deal you cards. Head back to the group!
bot-start-group = Send /bura to gather a table.
bot-help =
    /bura — gather a table
    /stop — end the game (table creator)
    /stats — the chat's standings
    /language — the bot's language
bot-language-set = Bot language: English.
error-unexpected = Something went wrong. Please try again.
error-stale-button = This button is out of date: the table has moved on.
error-not-your-turn = It is not your turn.
error-not-at-table = You are not seated at this table.
error-illegal-move = That move is not allowed.
error-group-only = This command works in a group only.
error-private-only = This command works in a private chat with me only.
need-private-chat = { $name }, open a private chat with me and press Start: your cards will arrive there.
player-unreachable = { $name } has closed the private chat with the bot and cannot receive cards.
bot-removed-from-group = I was removed from the group: the game is stopped.

## Variants

variant-bura = classic
variant-burkozel = Burkozel
variant-kozel = Kozel

## Lobby

lobby-title = 🃏 Bura — gathering a table ({ $min }–{ $max } { $max ->
    [one] player
   *[other] players
})
lobby-rules = Rules: { $variant }, { $hand_size } { $hand_size ->
    [one] card
   *[other] cards
} in hand, to { $target } · match to { $match_target } { $match_target ->
    [one] win
   *[other] wins
} · { $turn_seconds } s per move
lobby-players = Players: { $players }
lobby-players-none = Players: nobody yet
lobby-creator = { $name } (creator)
lobby-computer-name = Computer { $number }
lobby-button-join = ➕ Join
lobby-button-leave = ➖ Leave
lobby-button-start = ▶️ Start
lobby-button-settings = ⚙️ Settings
lobby-button-cancel = ✖️ Cancel
lobby-button-add-computer = 🤖 Add a computer
lobby-joined = You are at the table.
lobby-left = You left the table.
lobby-already-seated = You are already at the table.
lobby-full = The table is full: { $count } { $count ->
    [one] player
   *[other] players
}.
lobby-need-players = At least { $count } { $count ->
    [one] player
   *[other] players
} needed.
lobby-only-creator = Only the table's creator can do that.
lobby-cancelled = The table was dismissed.
lobby-exists = A table is already gathering or playing in this chat.

## The table in the group

table-header = 🃏 Bura · deal { $deal } · match to { $match_target } { $match_target ->
    [one] win
   *[other] wins
}
table-trump = Trump { $suit } (under the stock { $card }) · { $stock } { $stock ->
    [one] card
   *[other] cards
} in the stock
table-trump-stock-empty = Trump { $suit } · the stock is empty
table-turn = Dealer { $dealer } · { $player } to move ⏳ { $clock }
table-trick = Trick { $number }
table-beats = ← beats
table-tricks = Tricks: { $tally }
table-match = Match: { $tally }
table-timeout = Time is up: the computer moved for { $name }.

## Announcements

deal-start = Deal { $deal }. { $dealer } deals, trump { $suit }.
call-bura = { $name }: “Bura!”
call-stop = { $name }: “Stop!”
call-claim = { $name }: “I'm out!”
claim-cards = { $name }'s tricks: { $cards } = { $points } { $points ->
    [one] point
   *[other] points
}
claim-true = { $name } takes the deal ✅
claim-false = Short of { $target } ❌ — { $name } loses the deal.
deal-won = { $name } takes the deal. Match: { $tally }
match-won = 🏆 { $name } wins the match!

## The hand in the private chat

hand-header = Table “{ $table }” · trump { $suit } · { $stock } in the stock
hand-your-lead = Your lead: mark cards and press Lead.
hand-respond = { $name } leads { $cards } — answer with { $count } { $count ->
    [one] card
   *[other] cards
}
hand-waiting = { $name } to move.
hand-tricks = Your tricks: { $count }
hand-button-lead = Lead ({ $selected })
hand-button-beat = Beat ({ $selected } of { $needed })
hand-button-discard = Discard face down
hand-button-claim = I'm out!
hand-button-stop = Stop!
hand-select-more = Mark { $count } more { $count ->
    [one] card
   *[other] cards
}.

## Standings

stats-title = 📊 The chat's standings
stats-line = { $name }: matches won { $matches_won }, deals { $deals_won }, buras { $buras }
stats-empty = Nobody has played in this chat yet.
