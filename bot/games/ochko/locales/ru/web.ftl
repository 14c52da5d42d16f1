### Очко в Mini App: стол, нарисованный на странице (issue 40). Только фишки, без денег.

ochko-web-title = { $game } · { $session }
ochko-web-bank-section = Банк
ochko-web-bank = В банке
ochko-web-bank-note = { $bank } (начальный { $initial }) · кон { $round }
ochko-web-bank-to-stake = банк ставит { $name }
ochko-web-stock = Колода
ochko-web-marker = Зарез
ochko-web-returned = Отыгранные
ochko-web-banker-section = Банкующий — { $name }
ochko-web-hands-section = Вскрытые руки
ochko-web-points = { $total } { $total ->
    [one] очко
    [few] очка
   *[many] очков
}
ochko-web-settled-note = ставка { $bet } · { $points }
ochko-web-chips = { $chips } { $chips ->
    [one] фишка
    [few] фишки
   *[many] фишек
}
ochko-web-bet = ставка { $bet }
ochko-web-banker = банкующий
ochko-web-settled = вскрыто: { $points }
