"""Stands in for a missing OpenSpiel: on the path first, importing it fails as an absent
module would."""

raise ImportError("No module named pyspiel (the test hides it)")
