### Buraco (Buraco Aberto, RULES §17): the table, the hand, announcements, refusals.

game-buraco = Buraco

## The table

buraco-table-title = 🃏 <b>{ $title }</b> · { $game } · deal { $deal } · to { $target }
buraco-table-title-untitled = 🃏 <b>{ $game }</b> · deal { $deal } · to { $target }
buraco-score = { $side } — { $points }
buraco-score-vulnerable = { $side } — { $points } (vulnerable: first melds of 75 or more)
buraco-stock = Stock { $stock } · untouched mortos: { $mortos }
buraco-pile = Discard pile ({ $count }): { $cards }
buraco-pile-empty = The discard pile is empty
buraco-side-runs = <b>{ $side }</b>: { $count ->
    [0] no runs
    [one] { $count } run
   *[other] { $count } runs
}
buraco-morto-taken = morto taken
buraco-canastra-clean = clean canastra
buraco-canastra-dirty = dirty canastra
buraco-hands = Cards in hand: { $sizes }
buraco-turn = { $name } to play.
buraco-match-won = { $side } won the match.

## The hand

buraco-hand-title = Table “{ $title }” · Buraco
buraco-your-draw = Your turn: draw from the stock or take the whole discard pile.
buraco-your-draw-morto = Your turn. The stock is empty: a draw makes an untouched morto the stock. Or take the whole discard pile, and the morto stays a morto.
buraco-first-choice = You drew { $card }. Keep it, or show it and draw the next?
buraco-your-melds = Mark cards: lay a new run, add them to one of your side's runs, or discard one card to end your turn.
buraco-forbidden = You took { $card } from the pile: you cannot discard it (or its twin) this turn.
buraco-draft = Opening: { $points } of { $needed } points. Until you discard, you can take it back.
buraco-your-hand = Your cards ({ $count }):
buraco-refused = Not like that: { $reason }
buraco-button-stock = 🂠 From the stock
buraco-button-pile = Take the pile ({ $count })
buraco-button-keep = Keep { $card }
buraco-button-reject = Show it, draw the next
buraco-button-meld = Lay { $cards }
buraco-button-meld-as = Lay as { $cards }
buraco-button-add = To { $run }
# The cards can join the run in more than one way (where a joker or a 2 ends up): the button names the run it makes
buraco-button-add-as = Add → { $cards }
buraco-button-discard = Discard { $card }
buraco-button-cancel = Take the opening back
buraco-button-sort-rank = Sort by rank
buraco-button-sort-suit = Sort by suit
## What the bot did for a player ("the bot …"): a verb in the past tense
buraco-played-stock = drew from the stock
buraco-played-pile = took the discard pile
buraco-played-meld = laid { $count ->
    [one] a run
   *[other] { $count } runs
}
buraco-played-discard = discarded { $card }

## Announcements

buraco-deal-started = Deal { $deal }. { $dealer } deals, { $first } starts.
buraco-vulnerable = { $side } are vulnerable: their first melds must make 75 in one turn.
buraco-morto-direta = { $name } melds the last card and takes a morto: the turn goes on.
buraco-morto-indireta = { $name } discards the last card and takes a morto, to play from the next turn.
buraco-canastra-made-clean = { $side }: run { $number } is a clean canastra!
buraco-canastra-made-dirty = { $side }: run { $number } is a dirty canastra.
buraco-stock-renewed = The stock ran out, and at this draw an untouched morto became the stock ({ $count } cards).
buraco-deal-out = Deal { $deal } is over: { $side } went out.
buraco-deal-exhausted = Deal { $deal } is over: the stock and the mortos ran out.
buraco-deal-score = { $side }: cards { $melded } + canastras { $bonuses } + going out { $going_out } − in hand { $in_hands } − morto { $morto } = { $total }
buraco-totals = Score: { $tally }
buraco-match-ended = The match is over: { $side } won ({ $first } : { $second }).

## Why not

reason-meld_too_short = A run has three cards at least.
reason-meld_too_long = A run has 14 cards at most.
reason-not_same_suit = A run is of one suit.
reason-sets_not_allowed = Cards of one rank cannot be laid: runs of one suit only.
reason-duplicate_rank = A rank appears once in a run.
reason-two_substitutes = A run holds one substitute at most (a joker or a 2).
reason-not_consecutive = These cards do not follow each other.
reason-wraps_around = A run does not go round the ace: K-A-2 is not allowed.
reason-bad_arrangement = These cards do not make a run like that.
reason-no_such_meld = There is no such run.
reason-not_own_meld = You can add only to your own side's runs.
reason-not_adjacent = These cards do not fit that run.
reason-no_run_for_marks = These cards join none of your pair's runs, and a new run takes three cards or more.
reason-no_place_for_substitute = The substitute has nowhere to go: the run has 14 cards.
reason-cannot_discard_pile_card = You took this card from the pile: you cannot discard it this turn.
reason-opening_below_minimum = A vulnerable side's first melds must make 75 points.
reason-no_morto_available = No morto is left: keep your last card.
reason-no_clean_canastra = You can go out only with a clean canastra.
reason-last_card_must_be_discarded = Your last card must be discarded, not melded.
reason-no_legal_discard_left = You would have nothing to discard at the end of your turn.
reason-nothing_to_cancel = There is nothing to take back.
reason-pile_empty = The discard pile is empty.
reason-pile_take_blocks_discard = With that lone card taken you would have nothing to discard.

rules-buraco = four seats, two against two, computers in the empty ones · a match to 3,000
flow-help-buraco =
    <b>Buraco</b>
    Two against two, partners sitting opposite; 108 cards (two packs and four jokers), 11 each, two mortos of 11 aside.
    A turn: draw the top of the stock or take the whole discard pile, lay runs of one suit of three or more (one substitute: a joker or a 2), add to your side's runs, and end by discarding one card.
    Seven cards in a run make a canastra: clean without a substitute (200), dirty with one (100). Whoever empties his hand first takes a morto; a side goes out with its morto and a clean canastra.
    Points: the cards in runs and the canastras, +100 for going out, less the cards left in hand. A match to 3,000; from 1,500 a side's first melds must make 75.

## The name, the lobby's rules, stats

game-name-buraco = Buraco
setting-profile-buraco = Buraco
setting-profile-buraco-about = the Brazilian rummy: two against two, runs of one suit, canastras and mortos, a match to 3,000; computers take the empty seats
stats-canastras = canastras: { $count }
stats-outs = went out: { $count }
