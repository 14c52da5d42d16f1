### A game against the computer (/play)

play-again = 🔁 Play again
