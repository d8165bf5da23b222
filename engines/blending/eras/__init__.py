"""Blending's older rule eras as ruleset switches (issue 14; rules.md "Decisions taken for the
eras", BE1...): the last-tile ending, Three Strikes and legacy combat, territories. Each module
holds one switch; the defaults (rounds, the match, estates) live in the modules above this one."""
