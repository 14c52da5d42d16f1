### Buraco in the Mini App: the drawn table's labels (plain text, no markup)

buraco-web-title = { $game } · deal { $deal }
buraco-web-table = Table
buraco-web-stock = Stock
buraco-web-pile = Discard pile
buraco-web-drawn = The deal's first card
buraco-web-morto = Morto: { $pair }
buraco-web-morto-taken = taken by { $name }
buraco-web-morto-waiting = not taken yet
buraco-web-morto-shared = not taken yet · one left for both sides
buraco-web-morto-none = no morto left
buraco-web-run = Run { $number }
buraco-web-draft = opening, not on the table yet
buraco-web-canastra = { $kind } · +{ $points }
buraco-web-partner = Partner: { $name }
buraco-web-points = Side's points: { $points }
buraco-web-points-vulnerable = Side's points: { $points } · vulnerable
buraco-web-dealer = deals
