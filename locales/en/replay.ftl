### “How it went” (issue 38): a finished deal as one player saw it, in the private chat.

replay-title = 🎞 <b>How it went: deal { $deal }</b>
replay-title-more = 🎞 <b>How it went: deal { $deal }</b> (continued)
replay-hand = Your cards: { $cards }
replay-result = <b>Result</b>

## Bura, Burkozel, Kozel

replay-bura-start = { $dealer } deals, trump: { $trump } ({ $card }). { $leader } leads.
# the cards the player drew from the stock after a trick
replay-bura-drawn = {"   "}you draw: { $cards }
# RULES §7.4: the only player left holding cards takes them as a last trick
replay-bura-last-cards = { $name } takes the last cards: { $cards }
replay-bura-trump-drawn = {"   "}{ $name } draws the turned-up trump { $card }
replay-bura-kept = Still in your hand: { $cards }
replay-bura-face-down = 🂠 — a card played face down; 🂠→ before a card — turned over for you, by a claim or at the deal's end.

## Buraco

replay-buraco-start = { $dealer } deals, { $first } starts.
replay-buraco-pile = {"   "}the pile taken: { $cards }
replay-buraco-drawn = {"   "}you draw: { $cards }
replay-buraco-morto = {"   "}your morto: { $cards }
replay-buraco-hand = {"   "}in your hand: { $cards }
replay-buraco-hand-empty = {"   "}your hand is empty
replay-buraco-kept = Still in your hand: { $cards }
