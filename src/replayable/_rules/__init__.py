"""The transcript rules: one engine over a table of small rule functions.

- `view`: what a rule reads of an item (`View`);
- `reading`: parsing one item and the findings of its own validation;
- `state`: the settings and pairing state one check shares (`Context`);
- `items`, `calls`, `tools`: the rule functions, by concern;
- `table`: `RULES`, one row per rule (which function, on which items or call families, when);
- `engine`: `Engine`, which runs the table over the items and pairs calls with their outputs.

`replayable._replay.check_transcript` and `check_transcript_iter` are the public entry points. A new rule is one
function and one row of `table.RULES`.
"""
