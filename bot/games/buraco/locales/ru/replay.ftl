### «Как это было» в Бурако (issue 38): сдача глазами одного игрока.

replay-buraco-start = Сдаёт { $dealer }, начинает { $first }.
replay-buraco-pile = {"   "}взятый сброс: { $cards }
replay-buraco-drawn = {"   "}вам из колоды: { $cards }
replay-buraco-morto = {"   "}ваше морто: { $cards }
replay-buraco-hand = {"   "}у вас на руках: { $cards }
replay-buraco-hand-empty = {"   "}у вас на руках ничего
replay-buraco-kept = У вас на руках остаются: { $cards }
