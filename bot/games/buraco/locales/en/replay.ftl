### “How it went” in Buraco (issue 38): a deal as one player saw it.

replay-buraco-start = { $dealer } deals, { $first } starts.
replay-buraco-pile = {"   "}the pile taken: { $cards }
replay-buraco-drawn = {"   "}you draw: { $cards }
replay-buraco-morto = {"   "}your morto: { $cards }
replay-buraco-hand = {"   "}in your hand: { $cards }
replay-buraco-hand-empty = {"   "}your hand is empty
replay-buraco-kept = Still in your hand: { $cards }
