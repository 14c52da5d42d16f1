### Ochko (Twenty-One, RULES §20): lobby, table, hand, announcements, refusals.
### For chips only, no money (§20.3): no currencies, no "play for money", no exchange of chips, anywhere.

game-ochko = Ochko

## Lobby and settings

game-name-ochko = Ochko (Twenty-One)
game-name-oczko = Ochko (Polish rules)
game-name-ochko1 = Ochko (one showdown)
setting-profile-ochko = Ochko (Twenty-One)
setting-profile-ochko-about = the banker plays each player in turn; ace 11, pictures 2, 3, 4; for chips only, no money
setting-profile-oczko = Ochko, Polish rules
setting-profile-oczko-about = five pictures make 21; the banker must draw to 15 and stand from 17; whoever breaks the bank banks next
setting-profile-ochko1 = Ochko, one showdown
setting-profile-ochko1-about = the banker plays once against everyone; any 21 wins at once
setting-name-stack = Chips each
setting-stack-50 = 50 chips
setting-stack-100 = 100 chips
setting-stack-200 = 200 chips
setting-stack-500 = 500 chips
setting-stack-100-about = the usual game: a bank of 10 or more
setting-name-draw = Banker draws
setting-draw-free = as he likes
setting-draw-free-about = “Hit” or “Stand” at any total
setting-draw-s3_15_17 = must to 15, stops at 17
setting-draw-s3_15_17-about = at 15 or less he must draw, at 17 or more he must stand; at 16 he chooses
setting-draw-house_17 = must to 16, stops at 17
setting-draw-house_17-about = draws while under 17; stands from 17
setting-name-aces = Two aces
setting-aces-golden = golden 21
setting-aces-golden-about = two aces make 21
setting-aces-super = super 21
setting-aces-super-about = two aces make 21 and beat any other 21
setting-aces-bust = a bust
setting-aces-bust-about = two aces make 22, a bust
setting-name-dark = Dark card
setting-dark-1 = allowed
setting-dark-1-about = one last card face down: nobody sees it until the showdown
setting-dark-0 = not played
setting-name-knock = Knock
setting-knock-from_10x = from a bank ×10
setting-knock-from_10x-about = the banker may call the last round once the bank has grown tenfold
setting-knock-forced_10x = by itself at ×10
setting-knock-forced_10x-about = a round that starts with ten times the first bank is the last
setting-knock-any_round = before any round
setting-knock-any_round-about = the banker may knock before any round, even the first
setting-name-banks = Session
setting-banks-1 = one orbit of banks
setting-banks-1-about = everyone holds the bank once
setting-banks-2 = two orbits of banks
setting-banks-0 = no end
setting-banks-0-about = while someone can hold the bank

ochko-rules-chips = { $stack } chips each, a bank of { $bank_min } or more
ochko-rules-banks-1 = one orbit of banks
ochko-rules-banks-2 = two orbits of banks
ochko-rules-draw-free = the banker draws as he likes
ochko-rules-draw-s3_15_17 = the banker must draw to 15, stands from 17
ochko-rules-draw-house_17 = the banker draws to 17
ochko-rules-aces-golden = two aces make 21
ochko-rules-aces-super = two aces make a super 21
ochko-rules-aces-bust = two aces bust
ochko-rules-dark-1 = a dark card allowed
ochko-rules-dark-0 = no dark card
ochko-rules-knock-from_10x = a knock from a bank ×10
ochko-rules-knock-forced_10x = a bank ×10 makes the last round
ochko-rules-knock-any_round = a knock before any round
ochko-rules-banks-0 = no end
ochko-rules-no-money = for chips only, no money
flow-help-ochko =
    <b>Ochko (Twenty-One)</b> — for chips only, no money.
    A 36-card pack. Ace 11, king 4, queen 3, jack 2, the rest their number. Over 21 is a bust.
    Everyone has { $stack } chips. The banker puts { $bank_min } or more into the bank and deals a card each; his card is face up.
    Players in turn, from the banker's left: a bet (“minimum”, “third”, “half”, “whole bank” or any amount the bank covers) — the second card — “Hit” or “Stand”{ $dark ->
        [yes] , or one last card “Dark”, face down
       *[no] {""}
    }. A bust pays the bet into the bank; 21 in two cards wins at once.
    Then the banker draws for himself ({ $draw }) and the hands are shown: the higher wins the bet, a tie goes to the banker. Two aces: { $aces }.
    Winning the whole bank breaks it. Once the bank has grown { $multiple } times the banker may knock: that round is the last and what is left is his. Then the bank passes on. The standings are the chips.

## Table

ochko-table-title = 🃏 <b>{ $title }</b> · { $game } · { $session }
ochko-table-title-untitled = 🃏 <b>{ $game }</b> · { $session }
ochko-round = round { $number }
ochko-banks-of = bank { $held } of { $total }
ochko-banks-unlimited = bank { $held }
ochko-bank = 🏦 { $name } banks: <b>{ $bank }</b> in the bank (first { $initial })
ochko-bank-to-stake = 🏦 { $name } puts up the bank
ochko-last-round = 🔔 Knock: this round is the last
ochko-banker-cards = Banker's cards: { $hand }
ochko-marker = Marker: { $marker } · { $pack } in the pack
ochko-cards-worth = { $cards } — { $total }
ochko-seat-banker = { $name } 🏦
ochko-seat-chips = { $name } — { $chips } { $chips ->
    [one] chip
   *[other] chips
}
ochko-seat-left = left the table
ochko-seat-bet = bet { $bet }: { $cards }
ochko-seat-settled = bet { $bet }: { $hand }
ochko-seat-waiting = waits for the banker
ochko-seat-duel = ← playing
ochko-turn-stake = { $name } puts up the bank.
ochko-turn-knock = { $name } decides: knock or deal on.
ochko-turn-bet = { $name } bets.
ochko-turn-play = { $name } plays: “Hit” or “Stand”.
ochko-turn-banker = The banker { $name } draws.
ochko-turn-banker-against = The banker { $name } draws; { $player } waits for the showdown.
ochko-standing = { $place }. { $name } — { $chips }

## Hand

ochko-hand-title = Table “{ $title }” · Ochko
ochko-your-cards = Your cards: { $cards } — { $total }
ochko-your-cards-dark = Your cards: { $cards } — { $total } and a dark card
ochko-your-settled = Your hand is shown: { $hand }
ochko-your-bank-cards = Your cards (the bank): { $hand }
ochko-your-chips = Your chips: { $chips }
ochko-ask-stake = You are the banker. How many chips go into the bank? { $low } to { $high }.
ochko-ask-knock = The bank holds { $bank } (first { $initial }). Knock: this round is the last, and what is left is yours. Or deal on.
ochko-ask-bet = How much do you bet? { $low } to { $high } (the bank holds { $bank }).
ochko-ask-play = “Hit”, “Stand” or a “Dark” card?
ochko-ask-play-open = “Hit” or “Stand”?
ochko-ask-banker = Against you: { $name }, bet { $bet }, { $cards ->
    [one] { $cards } card
   *[other] { $cards } cards
}{ $dark ->
    [yes] , the last one dark
   *[no] {""}
}. Another card?
ochko-ask-banker-all = You draw against everyone waiting ({ $count }).
ochko-hand-over = The game is over.
ochko-you-left = You have left the table; your chips stay in the standings.
ochko-refused = Not allowed: { $reason }
ochko-button-min = Minimum { $amount }
ochko-button-third = Third { $amount }
ochko-button-half = Half { $amount }
ochko-button-bank = Whole bank { $amount }
ochko-button-all = All { $amount }
ochko-button-stake = Bank { $amount }
ochko-button-step = { $step }
ochko-button-bet-n = ✅ Bet { $amount }
ochko-button-stake-n = ✅ Bank { $amount }
ochko-button-knock = 🔔 Knock
ochko-button-deal = Deal
ochko-button-hit = Hit
ochko-button-stand = Stand
ochko-button-dark = Dark

## What the bot did for a player (“the bot …”)

ochko-played-stake = put { $amount } into the bank
ochko-played-bet = bet { $amount }
ochko-played-knock = knocked
ochko-played-deal = dealt on without a knock
ochko-played-hit = took another card
ochko-played-stand = stood
ochko-played-dark = took a dark card
ochko-played-leave = took the player off the table

flow-timeout-forfeit-ochko = ⏳ { $name }: three moves in a row missed.

## Announcements

ochko-cut-card = { $name } { $card }
ochko-cut = Cutting for the bank: { $cards }
ochko-banker-chosen = 🏦 { $name } banks first.
ochko-staked = 🏦 { $name } puts up a bank of { $amount }.
ochko-last-knocked = 🔔 { $name }: “Knock!” This round is the last.
ochko-last-forced = 🔔 The bank has grown tenfold: this round is the last.
ochko-last-banker_left = The banker { $name } left: this round is the last, the bot draws for him.
ochko-hand-dark = { $hand } (the last one dark)
ochko-settled-won = ✅ { $name } wins { $amount }: { $hand } — { $case }
ochko-settled-lost = ❌ { $name } loses { $amount }: { $hand } — { $case }
ochko-settled-banker = {"   "}the banker ({ $name }): { $hand }
ochko-settled-after = {"   "}the bank { $bank } · { $name }: { $chips } { $chips ->
    [one] chip
   *[other] chips
}
ochko-case-player_bust = bust
ochko-case-immediate = 21 at once
ochko-case-any_21 = 21
ochko-case-two_aces_bust = two aces — a bust
ochko-case-banker_bust = the banker busts
ochko-case-dark_over = a dark bust
ochko-case-higher = higher than the banker
ochko-case-lower = lower than the banker
ochko-case-tie = a tie goes to the banker
ochko-case-dark_21 = the dark 21 came first
ochko-case-super = super 21
ochko-skipped-cannot_afford = { $name } sits this one out: fewer chips than the minimum bet.
ochko-skipped-no_cover = { $name } sits this one out: the whole bank is already bet.
ochko-skipped-left = { $name } left before betting — the card goes back.
ochko-reshuffled = The fresh cards ran out: the played ones are shuffled ({ $count }).
ochko-closed-broken = 💥 { $breaker } breaks the bank: not a chip is left in it.
ochko-closed-knock = 🏦 The bank closes after the knock: { $name } takes { $paid }.
ochko-closed-left = 🏦 The bank closes: the banker { $name } left and took { $paid }.
ochko-closed-no_players = 🏦 Nobody can play against the bank: { $name } takes { $paid }.
ochko-bank-passed = The bank passes on: { $name } banks now.
ochko-left = { $name } leaves the table; their chips stay in the standings.
ochko-session-ended = 🏁 The game is over. The standings in chips:

## /score, /history, replays, stats

ochko-score-title = 🃏 Ochko · round { $round }
ochko-chips = Chips: { $standings }
ochko-replay-title = 🎞 <b>How it went: round { $deal }</b>
ochko-replay-title-more = 🎞 <b>How it went: round { $deal }</b> (continued)
ochko-replay-start = { $name } banks, { $bank } in the bank. The banker's card: { $card }, the marker: { $marker }.
ochko-replay-first = Your first card: { $card }
ochko-replay-own = {"   "}your cards: { $cards } — { $total }
ochko-replay-bet = { $name } bets { $amount }.
ochko-replay-stood = { $name }: “Stand”.
ochko-replay-dark = { $name } takes a dark card.
ochko-replay-banker-drew = {"   "}to the banker: { $card } — { $total }
ochko-replay-banker-stood = {"   "}the banker stands on { $total }
ochko-replay-banker-bust = {"   "}the banker busts: { $total }
stats-chips_won = chips won: { $count }
stats-banks_broken = banks broken: { $count }

## Refusals

reason-session_over = The game is over.
reason-has_left = You have left the table.
reason-stake_below_minimum = The bank is below the minimum.
reason-stake_above_chips = You cannot put more into the bank than you have.
reason-bet_below_minimum = The bet is below the minimum.
reason-bet_above_bank = The bet is more than the bank holds.
reason-bet_above_chips = The bet is more than your chips.
reason-dark_not_played = This table plays no dark card.
reason-no_card_left = No cards are left.
reason-banker_must_hit = The table's rules make the banker draw at this total.
reason-banker_must_stand = The table's rules make the banker stand at this total.

## The shared “if a player is away” setting, in this game's words (Translator.own)

setting-takeover-0-ochko = leaves the table
setting-takeover-0-about-ochko = three moves in a row missed: the player leaves the table; their chips stay in the standings
