# /verify export (issue 38, docs/fairness.md): a finished match's data for the verifier, sent as a file.

export-caption =
    🔐 «{ $title }»: the match's data to check — every deal, seed and card.
    To check it: save the file and run <code>{ $command }</code> (docs/fairness.md).
export-too-large = The match's data is too large for a file ({ $size } KB, { $most } KB allowed).
