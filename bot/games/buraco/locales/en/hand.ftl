### Buraco: the hand (what is on the table, what may be done) and what the bot did for a player

buraco-played-add = { $count ->
    [one] added to a run
   *[other] added to { $count } runs
}
