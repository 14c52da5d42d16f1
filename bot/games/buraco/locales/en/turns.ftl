### Buraco: the last turns on the group's table (issue 37), a line a player for his latest turn in this deal.

buraco-turn-line = <b>{ $name }</b>: { $parts }
# the turn is still under way
buraco-turn-line-playing = <b>{ $name }</b>: { $parts } …
buraco-turn-separator = {", "}
buraco-turn-stock = draws from the stock
# the deal's first turn (RULES §17.3): the first card is shown and put on the pile
buraco-turn-rejected = draws from the stock, turns { $card } up onto the pile and draws the next
buraco-turn-pile = takes the pile ({ $count ->
    [one] { $count } card
   *[other] { $count } cards
})
buraco-turn-opening = opens with { $points } points
buraco-turn-run = lays run { $number }: { $cards }
buraco-turn-run-short = lays run { $number }
buraco-turn-add = adds to run { $number }: { $cards }
buraco-turn-add-short = adds { $count ->
    [one] { $count } card
   *[other] { $count } cards
} to run { $number }
buraco-turn-morto = takes a morto
buraco-turn-discard = discards { $card }
buraco-turn-out = discards { $card } and goes out
# the turns that ended the deal before, for the players who have not played in the new one yet
buraco-turns-ended = End of deal { $deal }:
buraco-turns-now = Deal { $deal }:
