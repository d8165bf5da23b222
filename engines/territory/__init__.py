"""Territory: the nine-seat social-dilemma game (rules.md)."""
