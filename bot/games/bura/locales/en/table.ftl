# The group's live table (bot/games/bura/table.py): the deal's tricks so far, one line each, so that every trick
# reaches the group in whichever edit of the table arrives (issue 37).
table-trick-taken = { $number }. { $plays } → { $name }
table-trick-taken-short = { $number } → { $name }
