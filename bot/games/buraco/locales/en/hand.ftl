### Buraco: the hand (what is on the table, what may be done) and what the bot did for a player

buraco-played-add = { $count ->
    [one] added to a run
   *[other] added to { $count } runs
}

## What is on the table (a group game: the table is in another chat)
buraco-hand-pile = Discard pile ({ $count }): { $cards }
buraco-hand-pile-top = Discard pile ({ $count }), on top: … { $cards }
buraco-hand-our-runs = <b>Your runs</b> ({ $pair }){ $count ->
    [0] { ": " }none yet
   *[other] { ":" }
}
buraco-hand-their-runs = <b>Opponents' runs</b> ({ $pair }){ $count ->
    [0] { ": " }none yet
   *[other] { ":" }
}

## The turn
buraco-fresh = You drew { $card }.
buraco-your-melds-draft = Lay runs: once your opening reaches { $needed } points, you may discard and end your turn. Or take it back.
buraco-mark-more = Mark more cards: a run is three or more cards of one suit in a row.
