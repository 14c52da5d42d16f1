### Ochko in the Mini App: the table the page draws (issue 40). Chips only, never money.

ochko-web-title = { $game } · { $session }
ochko-web-bank-section = Bank
ochko-web-bank = In the bank
ochko-web-bank-note = { $bank } (first { $initial }) · round { $round }
ochko-web-bank-to-stake = { $name } puts up the bank
ochko-web-stock = Pack
ochko-web-marker = Marker
ochko-web-returned = Played cards
ochko-web-banker-section = Banker — { $name }
ochko-web-hands-section = Hands shown
ochko-web-points = { $total } { $total ->
    [one] point
   *[other] points
}
ochko-web-settled-note = bet { $bet } · { $points }
ochko-web-chips = { $chips } { $chips ->
    [one] chip
   *[other] chips
}
ochko-web-bet = bet { $bet }
ochko-web-banker = banker
ochko-web-settled = shown: { $points }
