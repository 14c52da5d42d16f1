### English strings of the Бура bot.
### Texts are Telegram HTML: whoever puts user data (names) in escapes it.

## Units

cards-count = { $count } { $count ->
    [one] card
   *[other] cards
}

## Cards: rank letters (suits are symbols in the code)

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

## Games and combinations

game-name = { $profile ->
    [bk] Burkozel
    [kozel] Kozel
   *[other] Bura
}
combo-bura = bura
combo-moscow = Moscow
combo-three_aces = three aces
combo-four_ends = four ends
combo-moscow_three = Moscow (three aces with the trump ace)
combo-small_moscow = small Moscow
combo-molodka = molodka
combo-call = { $combo ->
    [bura] “Bura!”
    [moscow] “Moscow!”
   *[other] “Stop!”
}

## The match: its goal and score

match-robber = match to { $target } { $target ->
    [one] win
   *[other] wins
}
match-penalty = to { $limit } penalty points
match-pot = for the pot
match-pot-deals = for the pot, { $deals } { $deals ->
    [one] deal
   *[other] deals
}
match-single = a single deal
tally-robber = Match: { $tally }
tally-penalty = Penalties (to { $limit }): { $tally }
tally-pot = Chips: { $tally } · pot { $pot }
tally-wins = Deals: { $tally }
tally-doubled = The next deal counts double.
tally-out = { $name } ✖
tally-change = { $value } ({ $change })

## Lobby

lobby-title = 🃏 { $game } — gathering a table ({ $min }–{ $max } { $max ->
    [one] player
   *[other] players
})
lobby-rules-line = Rules: { $rules }
rules-hand = { $count } { $count ->
    [one] card
   *[other] cards
} in hand
rules-claim = to { $target }
rules-playout = by points, no claims
rules-timer = { $seconds } s per move
rules-no-timer = no timer
rules-discards-open = open discards
rules-discards-closed = face-down discards
rules-casual = points shown
lobby-players = Players: { $players }
lobby-players-none = Players: nobody yet
lobby-creator = { $name } (creator)
lobby-computer = 🤖 { $name } ({ $level })
lobby-computer-name = Computer { $number }
lobby-button-join = ➕ Join
lobby-button-leave = ➖ Leave
lobby-button-start = ▶️ Start
lobby-button-settings = ⚙️ Settings
lobby-button-cancel = ✖️ Cancel
lobby-button-add-computer = 🤖 Add a computer
lobby-button-remove-computer = 🤖 Remove a computer

## Table settings

settings-title = ⚙️ <b>Table settings</b>
settings-hint = Tap a line to change its value.
settings-button = { $name }: { $value }
settings-done = ✅ Done
setting-name-profile = Rules
setting-name-match = Match
setting-name-timer = Move
setting-name-discards = Discards
setting-name-language = Language
setting-name-casual = Points
setting-name-takeover = Computer for a missing player
setting-name-level = Computer plays
setting-profile-bura = classic
setting-profile-pagat = Bura after Pagat
setting-profile-ruwiki = Bura after Wikipedia
setting-profile-bk = Burkozel
setting-profile-kozel = Kozel for money
setting-profile-b5 = five-card Bura
setting-match-r11 = to 11 wins
setting-match-r21 = to 21 wins
setting-match-p12 = to 12 penalty points
setting-match-one = a single deal
setting-timer-30 = 30 s
setting-timer-60 = 1 min
setting-timer-120 = 2 min
setting-timer-300 = 5 min
setting-timer-0 = no timer
setting-discards-rule = as the rules say
setting-discards-open = open
setting-discards-closed = face down
setting-language-ru = русский
setting-language-en = English
setting-casual-0 = hidden
setting-casual-1 = shown
setting-takeover-0 = no
setting-takeover-1 = yes
setting-level-easy = easy
setting-level-hard = hard

## The table in the group

table-title = 🃏 <b>{ $game }</b> · deal { $deal } · { $match }
table-title-named = 🃏 <b>{ $title }</b> · { $game } · deal { $deal } · { $match }
table-trump = Trump { $suit } (under the stock { $card }) · { $stock } { $stock ->
    [one] card
   *[other] cards
} in the stock
table-trump-held = Trump { $suit } ({ $card } held by { $name }) · { $stock ->
    [0] the stock is empty
    [one] { $stock } card in the stock
   *[other] { $stock } cards in the stock
}
table-trump-stock-empty = Trump { $suit } ({ $card }) · the stock is empty
table-dead = { $count } { $count ->
    [one] card
   *[other] cards
} out of play
table-dealer = Dealer { $name }
table-to-lead = { $name } to lead
table-to-answer = { $name } to answer
table-to-claim = { $name } decides whether to claim
table-clock = ⏳ { $clock }
table-over = The match is over.
table-trick = <b>Trick { $number }</b>
table-beats = ← beats
table-last-trick = Trick { $number } → { $name }: { $plays }
table-shown = Shown: { $name } — { $combo } { $cards }
table-tricks = Tricks: { $tally }
table-points = Points: { $tally }

## Announcements in the group

deal-start = 🃏 <b>Deal { $deal }</b>. { $dealer } deals, trump { $card }. { $leader } leads first.
deal-redealt = { $name } was dealt { $combo }: a redeal.
call-combo = { $name }: { $call } { $combo } { $cards }
call-seized = { $name } takes the lead from { $previous }.
call-kept = { $name } answers: { $combo } { $cards } and keeps the lead.
call-claim = { $name }: “I'm out!”
claim-pile = Tricks: { $cards } = { $points } { $points ->
    [one] point
   *[other] points
} { $success ->
    [yes] ✅
   *[no] ❌ { $target } needed
}
deal-won = { $name } { $count ->
    [one] takes
   *[other] take
} the deal.
deal-false-claim = { $name }: a false claim — the deal is lost.
deal-forfeit = { $name } loses the deal: three moves in a row missed.
deal-void = Nobody claimed: the deal does not count.
deal-played-out = The deal is played out. Points: { $tally }
deal-tie = A tie on points.
player-eliminated = { $name } is out.
match-won = 🏆 { $name } { $count ->
    [one] wins
   *[other] win
} the match!
match-draw = 🏆 The match ends in a draw.

## The hand in the private chat

hand-header = Table “{ $table }” · trump { $suit } · { $stock } in the stock
hand-header-untitled = Trump { $suit } · { $stock } in the stock
hand-your-lead = Your lead: mark cards and press Lead.
hand-forced-lead = Your lead: lead the cards of your combination { $cards }.
hand-answer = Answer with { $count } { $count ->
    [one] card
   *[other] cards
}{ $face_down ->
    [yes] : beat it or discard face down.
   *[no] .
}
hand-combo = You hold { $combo }: “Stop!” takes the lead.
hand-final-claim = The last trick is yours: do you claim?
hand-waiting = { $name } to move.
hand-waiting-answer = { $name } to answer.
hand-waiting-claim = { $name } decides whether to claim.
hand-tricks = Your tricks: { $count }
hand-tricks-pair = Your pair's tricks: { $count }
hand-points = Points: { $count }
hand-over = The match is over.
hand-button-lead = Lead ({ $selected })
hand-button-lead-illegal = ⛔ Lead ({ $selected })
hand-button-lead-empty = Mark cards to lead
hand-button-beat = Beat ({ $selected } of { $needed })
hand-button-beat-illegal = ⛔ Beat ({ $selected } of { $needed })
hand-button-give = Play face up ({ $selected } of { $needed })
hand-button-discard = Discard face down
hand-button-claim = I'm out!
hand-button-combo = Stop! ({ $combo })
hand-button-combo-pass = Don't declare
hand-button-claim-pass = Don't claim
hand-button-refresh = 🔄
hand-paused = ⏸ The game is paused: the bot may not write in the group.
hand-select-more = Mark { $count } more { $count ->
    [one] card
   *[other] cards
}
hand-select-fewer = Unmark { $count } { $count ->
    [one] card
   *[other] cards
}

## Why a move was refused (alerts)

reason-match_over = The match is over.
reason-deal_over = The deal is over.
reason-not_seated = You are not playing at this table.
reason-not_your_turn = It is not your turn.
reason-wrong_phase = You cannot do that now.
reason-card_not_in_hand = You do not hold that card.
reason-duplicate_card = The same card is marked twice.
reason-no_cards = Mark some cards first.
reason-mixed_suits = A lead must be cards of one suit.
reason-lead_size_not_allowed = You cannot lead that many cards at once.
reason-lead_too_large = You cannot lead more cards than an opponent holds.
reason-must_lead_combo = Lead all the cards of the combination you showed.
reason-wrong_card_count = Answer with as many cards as were led.
reason-must_follow_suit = You must follow suit while you can.
reason-face_down_not_allowed = These rules allow open discards only.
reason-must_play_face_down = These cards do not beat: they can only go face down.
reason-claims_not_allowed = Nobody claims in this game: points decide the deal.
reason-claim_not_now = You may claim only before your own lead.
reason-no_such_combo = You do not hold that combination.
reason-combo_outranked = An opponent's combination ranks higher.
reason-nothing_to_pass = There is nothing to pass now.
reason-unknown_action = Unknown move.
