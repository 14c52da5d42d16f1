### English strings of the Bura family (Bura, Burkozel, Kozel): names and settings, the table, announcements, the hand, help.
### Texts are Telegram HTML: whoever puts user data (names) in escapes it.

## Suits in words

suit-name = { $suit ->
    [spades] spades
    [clubs] clubs
    [hearts] hearts
   *[diamonds] diamonds
} { $symbol }

## Games and combinations

game-name-bura = Bura
game-name-pagat = Bura
game-name-ruwiki = Bura
game-name-bk = Burkozel
game-name-kozel = Kozel
game-name-kp = Kozel for points
game-name-b5 = Bura
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
tally-penalty = Penalty points (to { $limit }): { $tally }
tally-pot = Chips: { $tally } · { $pot } in the pot
tally-wins = Deals: { $tally }
tally-doubled = The next deal counts double.
tally-out = { $name } ✖
tally-change = { $value } ({ $change })

## The lobby

rules-hand = { $count } { $count ->
    [one] card
   *[other] cards
} in hand
rules-claim = claim at { $target }
rules-playout = points decide the deal
rules-discards-open = face-up discards only
rules-discards-closed = face-down discards allowed
rules-casual = own points shown

## Table settings

setting-name-match = Match
setting-name-discards = Discards
setting-name-casual = Own points
setting-profile-bura = Bura (classic)
setting-profile-bura-about = 3 cards, claim at 31, face-down discards allowed
setting-profile-pagat = Bura (pagat.com rules)
setting-profile-pagat-about = face-up discards only, played for chips, a false claim doubles the pot
setting-profile-ruwiki = Bura (Wikipedia rules)
setting-profile-ruwiki-about = with Moscow and small Moscow, a redeal for a dealt combination, a match to 21
setting-profile-bk = Burkozel
setting-profile-bk-about = 4 cards, 2–4 players (four play in pairs), penalty points to 12
setting-profile-kozel = Kozel (for chips)
setting-profile-kozel-about = 4 cards, 2–5 players, points decide the deal, settled after 20 deals
setting-profile-kp = Kozel for points (with the shokha)
setting-profile-kp-about = 4 cards, 2–4 players, the shokha 6♠️ beats everything, combinations only take the lead, penalty points to 12
setting-profile-b5 = Bura with 5 cards
setting-profile-b5-about = 5 cards, two players, points decide the deal
setting-match-r11 = to 11 wins
setting-match-r11-about = the first to win 11 deals wins the match
setting-match-r21 = to 21 wins
setting-match-r21-about = the first to win 21 deals wins the match
setting-match-p12 = to 12 penalty points
setting-match-p12-about = losers of a deal get penalty points; whoever reaches 12 is out
setting-match-one = a single deal
setting-match-one-about = one deal and done
setting-discards-rule = as the rules say
setting-discards-rule-about = as in the chosen rules
setting-discards-open = face up only
setting-discards-open-about = every answer can be seen
setting-discards-closed = face down allowed
setting-discards-closed-about = cards that do not beat may go face down
setting-casual-0 = hidden
setting-casual-0-about = by the rules: count the points in your tricks yourself
setting-casual-1 = shown
setting-casual-1-about = the points in the tricks are shown on the table and in the hand

## The table in the group

table-title = 🃏 <b>{ $game }</b> · deal { $deal } · { $match }
table-title-named = 🃏 <b>{ $title }</b> · { $game } · deal { $deal } · { $match }
table-trump = Trump: { $suit } ({ $card } under the stock) · { $stock } { $stock ->
    [one] card
   *[other] cards
} in the stock
table-trump-held = Trump: { $suit } ({ $card } drawn by { $name }) · { $stock ->
    [0] the stock is empty
    [one] { $stock } card in the stock
   *[other] { $stock } cards in the stock
}
table-trump-stock-empty = Trump: { $suit } ({ $card }) · the stock is empty
table-dead = { $count } { $count ->
    [one] card
   *[other] cards
} out of play
table-dealer = { $name } dealt
table-to-lead = { $name } to lead
table-to-answer = { $name } to answer
table-to-claim = { $name } decides whether to claim
table-over = The match is over.
table-trick = <b>Trick { $number }</b>
table-beats = ← beats
table-last-trick = Trick { $number }: { $plays } → { $name }
table-shown = Shown: { $name } — { $combo } { $cards }
table-tricks = Tricks: { $tally }
table-points = Points: { $tally }

## Announcements in the group

deal-start = 🃏 <b>Deal { $deal }</b>. { $dealer } deals, trump: { $trump } ({ $card }). { $leader } leads.
deal-redealt = { $name } holds { $combo }: a redeal.
call-combo = { $name }: { $call } — { $cards }
call-combo-named = { $name }: { $call } — { $combo } { $cards }
call-seized = { $name } takes the lead.
call-kept = { $name } answers with { $combo } { $cards } and keeps the lead.
call-claim = { $name }: “31!”
claim-pile = Tricks, { $count } { $count ->
    [one] card
   *[other] cards
}: { $cards } = { $points } { $points ->
    [one] point
   *[other] points
} of { $target } { $success ->
    [yes] ✅
   *[no] ❌
}
claim-face-down = face down ({ $count }): { $cards }
deal-won = { $name } { $count ->
    [one] takes
   *[other] take
} the deal.
deal-false-claim = { $name }: a false claim — the deal is lost.
deal-forfeit = ⏳ { $name } loses the deal: three moves in a row missed.
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

hand-header = Table “{ $table }” · trump: { $trump } · { $stock } in the stock
hand-header-untitled = Trump: { $trump } · { $stock } in the stock
hand-your-lead = Your lead: mark cards of one suit and press Lead.
hand-forced-lead = Your lead: lead the combination you showed, { $cards }.
hand-answer = Answer with { $count } { $count ->
    [one] card
   *[other] cards
}{ $face_down ->
    [yes] : beat, or discard face down.
   *[no] .
}
hand-marks-no-move = These cards make no move.
hand-may-claim = Got 31? You may claim — the button is at the bottom.
hand-combo = You hold { $combo }: press “Stop!” to take the lead.
hand-final-claim = The last trick is yours: do you claim?
hand-claim-confirm = Claim 31? Tricks: { $count }. With less than 31 points in them, the deal is lost.
hand-waiting-answer = { $name } to answer.
hand-waiting-claim = { $name } decides whether to claim.
hand-tricks = Your tricks: { $count }
hand-tricks-pair = Your pair's tricks: { $count }
hand-points = Points: { $count }
hand-button-lead = Lead ({ $selected })
hand-button-forced = Lead the { $combo ->
    [molodka] molodka
    [small_moscow] small Moscow
    [moscow] Moscow
    [three_aces] three aces
    [four_ends] four ends
    [moscow_three] Moscow
    [bura] bura
   *[other] combination
} { $cards }
hand-button-beat = Beat ({ $selected } of { $needed })
hand-button-give = Discard face up ({ $selected } of { $needed })
hand-button-discard = Discard face down
hand-button-claim = Claim 31!
hand-button-claim-yes = ✅ Claim
hand-button-claim-no = Cancel
hand-button-combo = Stop! ({ $combo })
hand-button-combo-pass = Don't declare
hand-button-claim-pass = Don't claim
hand-select-more = Mark { $count } more { $count ->
    [one] card
   *[other] cards
}.
hand-select-more-lead = You may mark { $count } more { $count ->
    [one] card
   *[other] cards
} — or lead the ones marked.
hand-select-fewer = Unmark { $count } { $count ->
    [one] card
   *[other] cards
}.
played-face-down = discarded { $count } { $count ->
    [one] card
   *[other] cards
} face down
played-pass = passed

## Why a move was refused (alerts)

reason-deal_over = The deal is already over.
reason-duplicate_card = The same card is marked twice.
reason-no_cards = Mark your cards.
reason-mixed_suits = A lead must be of one suit.
reason-lead_size_not_allowed = You cannot lead that many cards at once.
reason-lead_too_large = You cannot lead more cards than your opponent holds.
reason-must_lead_combo = Lead all the cards of the combination you showed.
reason-wrong_card_count = Answer with as many cards as were led.
reason-must_follow_suit = You must follow suit while you can.
reason-face_down_not_allowed = These rules allow face-up discards only.
reason-must_play_face_down = These cards do not beat: they can only go face down.
reason-claims_not_allowed = There are no claims in this game: points decide the deal.
reason-claim_not_now = You may claim only before your own lead.
reason-no_such_combo = You do not hold that combination.
reason-combo_outranked = Your opponent's combination ranks higher.
reason-nothing_to_pass = There is nothing to pass now.
reason-not_legal = That move is not allowed now.

## Tallies

stats-buras = buras: { $count }
stats-false_claims = false claims: { $count }

## General

flow-help-bura =
    <b>Bura</b>
    Everyone gets { $hand } { $hand ->
        [one] card
       *[other] cards
    }; the bottom card of the stock sets the trump. Lead one or more cards of one suit; answer with as many cards and beat each — with a higher card of its suit, or a trump. If you cannot beat, you discard{ $face_down ->
        [yes] {" "}(face down if you like)
       *[no] {""}
    }. Whoever beats takes the trick and leads next; after a trick everyone draws from the stock, the taker first.
    Points: A = 11, 10 = 10, K = 4, Q = 3, J = 2. With { $target } in your tricks, press “Claim 31!” before your lead and take the deal. Count wrong and the deal is lost (a false claim).
    Combinations: three trumps — a bura, wins the deal at once; three cards of one suit — a molodka: “Stop!” takes the lead.
flow-help-playout =
    <b>{ $game }</b>
    Everyone gets { $hand } cards; the bottom card of the stock sets the trump. Lead one or more cards of one suit; answer with as many cards and beat each — with a higher card of its suit, or a trump — or discard face down. Whoever beats takes the trick and leads next; after a trick everyone draws from the stock.
    Points: A = 11, 10 = 10, K = 4, Q = 3, J = 2. There are no claims: the points in the tricks decide the deal when the cards run out.
flow-help-four-trumps = Four trumps in hand (a bura) win the deal at once.
flow-help-shokha = The shokha — 6♠️: beats any card, even the trump ace, and is worth 0 points; it may join a lead of any suit. No combination wins a deal outright.
flow-help-tvaladze-combos = Moscow (four aces and tens, at least one ace; the shokha counts as a ten) and a molodka (four cards of one suit, or three and the shokha) take the lead out of turn.
