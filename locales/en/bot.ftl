### English strings of the Бура bot.
### Only what every game says: each game's own texts are in bot/games/<game>/locales/en/.
### Texts are Telegram HTML: whoever puts user data (names) in escapes it.

## Units

cards-count = { $count } { $count ->
    [one] card
   *[other] cards
}
time-seconds = { $count } s
time-minutes = { $count } min

## Cards: rank letters

card-rank-A = A
card-rank-K = K
card-rank-Q = Q
card-rank-J = J
card-rank-T = 10
card-rank-9 = 9
card-rank-8 = 8
card-rank-7 = 7
card-rank-6 = 6
card-selected = ✅ { $card }
seat-name = Player { $number }
pair-names = { $first } & { $second }
list-separator = {", "}
tally-separator = {" · "}

## The lobby

lobby-title = 🃏 { $game } — new table, join! ({ $min }–{ $max } { $max ->
    [one] player
   *[other] players
})
lobby-rules-line = Rules: { $rules }
rules-timer = { $time } a move
rules-no-timer = no move timer
lobby-players = Players: { $players }
lobby-players-none = Players: nobody yet
lobby-creator = { $name } (host)
lobby-computer = { $name } ({ $level })
lobby-computer-name = { $number ->
    [0] 🤖 Computer
   *[other] 🤖 Computer { $number }
}
lobby-button-join = ➕ Join
lobby-button-leave = ➖ Leave
lobby-button-start = ▶️ Start
lobby-button-settings = ⚙️ Settings
lobby-button-cancel = ✖️ Cancel
lobby-button-add-computer = 🤖 Add a computer
lobby-button-remove-computer = 🤖 Remove a computer
lobby-button-remove-player = 🚪 Remove a player
lobby-remove-title = Who should leave the table?
lobby-remove-one = ✖️ { $name }

## Table settings

settings-title = ⚙️ <b>Table settings</b>
settings-hint = Tap a line to choose its value.
settings-button = { $name }: { $value }
settings-done = ✅ Done
settings-back = ↩️ Back
settings-choose = ⚙️ <b>{ $name }</b> — choose:
settings-current = ✅ { $value }
settings-choice-line = { $value } — { $about }
setting-name-profile = Rules
setting-name-timer = Time per move
setting-name-language = Table language
setting-name-takeover = If a player leaves
setting-name-level = Computer level
setting-timer-30-about = a quick game
setting-timer-60-about = the usual pace
setting-timer-120-about = time to think
setting-timer-300-about = nobody hurries you
setting-timer-0-about = we wait as long as it takes
setting-language-ru = русский
setting-language-ru-about = стол, объявления и помощь в группе — по-русски
setting-language-en = English
setting-language-en-about = the table, announcements and help in the group in English
setting-takeover-0 = loses the deal
setting-takeover-0-about = three moves in a row missed: the player loses the deal
setting-takeover-1 = computer plays
setting-takeover-1-about = three moves in a row missed: a computer plays for them until they are back
setting-level-easy = easy
setting-level-easy-about = plays by simple rules
setting-level-hard = strong
setting-level-hard-about = thinks its moves through

## The table in the group

table-clock = ⏳ { $clock }

## The hand in the private chat

hand-waiting = { $name } to move.
hand-over = The match is over.
hand-timeout-move = ⏳ Time ran out, so the bot moved for you: it { $played }.
hand-reminder = ⏳ { $seconds } s left, then the bot moves for you.
hand-button-refresh = 🔄 Refresh
hand-paused = ⏸ The game is paused: the bot may not write in the group.

## Why a move was refused (alerts)

reason-match_over = The match is already over.
reason-not_seated = You are not playing at this table.
reason-not_your_turn = It is not your turn.
reason-wrong_phase = You cannot play that now.
reason-card_not_in_hand = You do not hold that card.
reason-unknown_action = An unknown move.
