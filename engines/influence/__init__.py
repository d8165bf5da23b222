"""Influence: a deterministic two-player territory game on a hex board (rules.md)."""
