# What the group sees of a table (issue 37): the move timer as a limit, the pin the bot may not make.

# The move timer on the table: a limit, not a clock that would stand still between edits.
move-limit-minutes = на ход { $minutes } мин
move-limit-seconds = на ход { $seconds } с

# The bot could not pin the table (it is not an admin of the group): said once, in the group.
group-pin-refused = 📌 Закрепить стол не получается: у бота нет прав администратора. Чтобы стол всегда был на виду, сделайте бота администратором с правом закреплять сообщения (настройки группы → Администраторы). А пока стол сам опускается вниз, когда его заваливают сообщения.
