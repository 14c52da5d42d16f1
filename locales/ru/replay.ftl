### «Как это было» (issue 38): прошедшая сдача глазами одного игрока, в личном чате.
### Настоящее время, как в объявлениях: без рода («добирает», «забирает»).

replay-title = 🎞 <b>Как это было: сдача { $deal }</b>
replay-title-more = 🎞 <b>Как это было: сдача { $deal }</b> (продолжение)
replay-hand = Ваши карты: { $cards }
replay-result = <b>Итог</b>

## Бура, Буркозёл, Козёл

replay-bura-start = Сдаёт { $dealer }, козырь — { $trump } ({ $card }). Первым ходит { $leader }.
# карты, которые игрок добрал из колоды после взятки
replay-bura-drawn = {"   "}вы добираете: { $cards }
# RULES §7.4: последние карты единственного, у кого они остались, идут в его взятки
replay-bura-last-cards = { $name } забирает последние карты: { $cards }
replay-bura-trump-drawn = {"   "}открытый козырь { $card } добирает { $name }
replay-bura-kept = У вас на руках остаются: { $cards }
replay-bura-face-down = 🂠 — карта, сброшенная втёмную; 🂠→ перед картой — её открыли вам, вскрытие или конец сдачи.

## Бурако

replay-buraco-start = Сдаёт { $dealer }, начинает { $first }.
replay-buraco-pile = {"   "}взятый сброс: { $cards }
replay-buraco-drawn = {"   "}вам из колоды: { $cards }
replay-buraco-morto = {"   "}ваше морто: { $cards }
replay-buraco-hand = {"   "}у вас на руках: { $cards }
replay-buraco-hand-empty = {"   "}у вас на руках ничего
replay-buraco-kept = У вас на руках остаются: { $cards }
