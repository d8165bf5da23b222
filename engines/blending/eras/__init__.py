"""Blending's older rule eras as ruleset switches (issue 14; rules.md "Decisions taken for the
eras", BE1...): the last-tile ending, Three Strikes and legacy combat, territories. Each module
holds one switch; the defaults (rounds, the match, estates) live in the modules above this one.

The eras import the current rules; the current rules reach the eras through two doors only,
and never by a private name: this package, for the hooks the lowest modules call (the end of
the game and the empty stock from `edits` and `rules`, territories' siting and scores from
`rules` and `scoring`: modules that import only the state, board and tiles), and
`dispatch`, for everything built on the current rules (moves, menus, fallbacks, views, rules
text, bots). The state the eras add is the state's (`era_state.py`)."""

from .endgame import ended, may_reshuffle, note_draw, rounds_shown
from .territories import breakdown as territory_breakdown
from .territories import site_problem as territory_site_problem

__all__ = [
    "ended",
    "may_reshuffle",
    "note_draw",
    "rounds_shown",
    "territory_breakdown",
    "territory_site_problem",
]
