"""Writes `engines/openspiel/catalog.py`: which OpenSpiel games are offered, and why the others
are not. A game is offered when it loads with its default parameters, is sequential or
simultaneous (not mean-field), draws its chance outcomes where the caller can choose them (not
sampled inside OpenSpiel), gives each player an observation or information-state string, ends
within `MAX_STEPS` random steps, and its serialization round-trips along the way.

Usage: `.venv/bin/python scripts/openspiel_catalog.py` (needs the openspiel extra)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pyspiel

MAX_STEPS = 3000
CHECK_EVERY = 7
TARGET = Path(__file__).resolve().parent.parent / "engines" / "openspiel" / "catalog.py"


def _playout(game: pyspiel.Game) -> str | None:
    state = game.new_initial_state()
    rng = random.Random(1)
    for step in range(1, MAX_STEPS + 1):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            players = range(game.num_players())
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if step % CHECK_EVERY == 0:
            text = pyspiel.serialize_game_and_state(game, state)
            _, again = pyspiel.deserialize_game_and_state(text)
            if str(again) != str(state) or again.history() != state.history():
                return "its serialization does not round-trip"
    return None if state.is_terminal() else f"no end within {MAX_STEPS} random steps"


def reason_not_offered(name: str) -> str | None:
    try:
        game = pyspiel.load_game(name)
    except (pyspiel.SpielError, IndexError) as exc:  # nfg_game: a C++ map::at
        return f"does not load without parameters ({str(exc).strip()[:80]})"
    kind = game.get_type()
    dynamics = pyspiel.GameType.Dynamics
    if kind.dynamics not in (dynamics.SEQUENTIAL, dynamics.SIMULTANEOUS):
        return "a mean-field game: no seats to play"
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        return "its chance is sampled inside OpenSpiel, so a seed could not repeat a game"
    if not (kind.provides_observation_string or kind.provides_information_state_string):
        return "no observation or information-state string to show a seat"
    try:
        return _playout(game)
    except (pyspiel.SpielError, RuntimeError) as exc:
        return f"a random playout fails ({str(exc).strip()[:80]})"


def main() -> int:
    offered: list[str] = []
    refused: dict[str, str] = {}
    for kind in sorted(pyspiel.registered_games(), key=lambda k: k.short_name):
        reason = reason_not_offered(kind.short_name)
        if reason is None:
            offered.append(kind.short_name)
        else:
            refused[kind.short_name] = reason
    head, _, _ = TARGET.read_text(encoding="utf-8").partition("OFFERED: tuple[str, ...] = ")
    body = "OFFERED: tuple[str, ...] = (\n" + "".join(f"    {n!r},\n" for n in offered) + ")\n"
    body += "\nNOT_OFFERED: dict[str, str] = {\n"
    body += "".join(f"    {n!r}: {r!r},\n" for n, r in refused.items()) + "}\n"
    TARGET.write_text(head + body, encoding="utf-8")
    print(f"{len(offered)} offered, {len(refused)} not offered: {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
