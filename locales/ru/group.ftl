# What the group sees of a table (issue 37): the move timer as a limit, the pin the bot may not make.

# The move timer on the table: a limit, not a clock that would stand still between edits.
move-limit-minutes = { $minutes } мин на ход
move-limit-seconds = { $seconds } с на ход

# The bot could not pin the table (it is not an admin of the group): said once, in the group.
group-pin-refused = 📌 Не могу закрепить стол: я здесь не администратор. Чтобы стол всегда был на виду, сделайте меня администратором с правом закреплять сообщения (настройки группы → Администраторы). А пока, если стол уйдёт далеко вверх, я пришлю его заново внизу.
