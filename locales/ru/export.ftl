# /verify export (issue 38, docs/fairness.md): a finished match's data for the verifier, sent as a file.

export-caption =
    🔐 «{ $title }»: данные матча для проверки — все сдачи, сиды и карты.
    Проверить: сохранить файл и запустить <code>{ $command }</code> (docs/fairness.md).
export-too-large = Данные матча слишком велики для файла ({ $size } КБ, можно { $most } КБ).
