"""The conformance harness a game engine runs as it is: seeded random playouts to the end,
checking the protocol's promises at every step (`check_engine`). It ships in the package so a
game written outside this project (a plugin) can run the same test as the four games here.

Owns: the harness and its failure type. May import: `engines` (the protocol, rng) only; never
pytest, the host or the record."""

from .conformance import ConformanceFailure, ConformanceReport, check_engine

__all__ = ["ConformanceFailure", "ConformanceReport", "check_engine"]
