### “How it went” in Bura, Burkozel and Kozel (issue 38): a deal as one player saw it.

replay-bura-start = { $dealer } deals, trump: { $trump } ({ $card }). { $leader } leads.
# the cards the player drew from the stock after a trick
replay-bura-drawn = {"   "}you draw: { $cards }
# RULES §7.4: the only player left holding cards takes them as a last trick
replay-bura-last-cards = { $name } takes the last cards: { $cards }
replay-bura-trump-drawn = {"   "}{ $name } draws the turned-up trump { $card }
replay-bura-kept = Still in your hand: { $cards }
replay-bura-face-down = 🂠 — a card played face down; 🂠→ before a card — turned over for you, by a claim or at the deal's end.
