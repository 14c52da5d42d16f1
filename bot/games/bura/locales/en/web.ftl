# The Bura table in the Mini App (bot/games/bura/web.py): pile labels, seat lines. Plain text, no HTML.

bura-board-title = { $game } · deal { $deal } · { $match }
bura-board-table = On the table
bura-board-history = Tricks this deal
bura-board-trump = Trump: { $suit }
bura-board-trump-held = { $name } has it
bura-board-stock = Stock
bura-board-stock-empty = the stock is out
bura-board-trick-owner = { $name } is taking it
bura-board-taken = { $name } takes it
bura-board-face-down = { $name }, face down
bura-board-shown = Shown: { $combo }
bura-board-dealer = dealer
bura-board-tricks = tricks: { $count }
bura-board-tricks-pair = pair's tricks: { $count }
bura-board-points = points in tricks: { $count }
bura-board-score = match score: { $count }
bura-board-penalty = penalty points: { $count }
bura-board-chips = chips: { $chips }
bura-board-out = ✖ out of the match
