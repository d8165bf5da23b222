"""Evaluation over the record: results per seat (`results`), which games are the same game
(`distinct`), scores, ratings, paired comparison, export and charts.

May import: the record (`transcripts`) and `engines`; the record imports nothing of it."""
