"""The HTML replay for people: steps re-simulated from a record (`replay_steps`), the page
(`replay_page`) and the one-file writer (`html_replay`).

May import: the record, `engines`, evaluation's naming helpers; the record imports
nothing of it."""
