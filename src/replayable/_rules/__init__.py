"""The transcript rules: one engine over a table of small rule functions.

- `view`: what a rule reads of an item's fields (`View`);
- `parse`: reading one item (once: an item already read, `replayable._item_read.Read`, is not validated
  again) and the findings of its own validation;
- `state`: the settings and pairing state of one check (`Context`), the facts of one item (`Facts`) and
  the one signature of every rule (`RuleCheck`: `rule(ctx, item) -> findings`);
- `item_rules`, `call_rules`, `tool_rules`, `body_rules`: the rule functions, by concern;
- `table`: `RULES` and `BODY_RULES`, one row per rule (which function, on which items or call families,
  when), the target's profile among them;
- `engine`: `Engine`, which computes each item's facts, runs the table over the items, collects the
  findings the rules return and pairs calls with their outputs.

`replayable._replay.check_transcript` and `check_transcript_iter` are the entry points. A new rule is one function
and one row of `table.RULES`.
"""
