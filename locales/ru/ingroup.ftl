# The hand in the group itself, seen by its player alone (Bot API ephemeral messages; issue 37).
ingroup-my-cards = 🃏 Мои карты
ingroup-not-seated = Вы не играете за этим столом: карты здесь видит только тот, кто за ним сидит.
