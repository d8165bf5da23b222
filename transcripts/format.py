"""The transcript format: one JSON object per line.

Line 1 is the header (`type: header`): schema version, server version, game, the full ruleset,
the seed, and the seats with who plays them. Then events in order:

- `view`: a view delivered to a seat, as the text it received;
- `play`: a `play` attempt: the arguments as given, accepted or not, the reason;
- `fallback`: a move the host applied for a seat (deadline, second rejection, absence);
- `talk`: a talk line with its audience;
- `apply`: a transition of the game state (`kind` move / batch / talk / settle) with the state
  digest after it: these are what `replay` re-simulates;
- `footer`: the outcome and the seats' counters.

Everything that depends on the wall clock sits under the key `wall`, so two runs of the same
ruleset, seed and moves give byte-identical lines once `wall` is removed.
"""

from __future__ import annotations

import json
from typing import Any

SCHEMA_VERSION = 1


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def strip_wall(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "wall"}
