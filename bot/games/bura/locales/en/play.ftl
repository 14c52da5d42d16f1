### Bura: what the bot did for a player ("the bot …": a verb in the past tense)

played-cards = played { $cards }
played-combo = called { $call }
