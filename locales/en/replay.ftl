### “How it went” (issue 38): a finished deal as one player saw it, in the private chat.

replay-title = 🎞 <b>How it went: deal { $deal }</b>
replay-title-more = 🎞 <b>How it went: deal { $deal }</b> (continued)
replay-hand = Your cards: { $cards }
replay-result = <b>Result</b>
