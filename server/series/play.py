"""One bot game of a `cogs-arena simulate` series, played by the host's own referee, so its
record is the one a server would write for the same game: a transcript `replay` verifies and
`score` and `rate` read, each seat labelled by its bot.

`play` is a top-level function of a picklable plan, so a series fans out over processes."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from ... import __version__
from ...engines import Outcome, get_engine
from ...engines.runner import play_bots
from ...transcripts.events import Event, Header, SeatEntry
from ...transcripts.io import TranscriptDir
from ..referee import Referee
from ..sessions import Session
from ..store.records import GameRecord, SeatRecord
from .numbers import game_numbers


@dataclass(frozen=True)
class Planned:
    game: str
    rules: dict[str, Any]
    """The whole ruleset in its JSON form."""
    seed: int
    bots: tuple[str, ...]
    """One bot name per seat, in seat order."""
    transcripts: str | None = None
    """Directory to write the game's transcript to, if any."""

    @property
    def game_id(self) -> str:
        """16 hex digits fixed by game, ruleset, seed and bots: the same game run again gets
        the same transcript name, so a rerun replaces its file instead of adding a twin."""
        key = json.dumps([self.game, self.rules, self.seed, list(self.bots)], sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()[:16]


def play(plan: Planned) -> dict[str, Any]:
    """Plays the game to its end; returns its numbers (and writes its transcript if asked).
    Without a transcript to write, the engines' own loop plays the same game about twice as
    fast, as nothing need be recorded."""
    engine = get_engine(plan.game)
    ruleset = engine.ruleset(plan.rules)
    names = engine.seat_names(ruleset)
    if len(plan.bots) != len(names):
        raise ValueError(f"{plan.game}: {len(plan.bots)} bots for {len(names)} seats")
    if plan.transcripts is None:
        game = play_bots(engine, ruleset, plan.seed, plan.bots)
        transitions = len(game.batches) if engine.simultaneous else len(game.moves)
        return _numbers(plan, game.state, game.outcome, transitions, 0)
    now = time.time()
    seats = [
        SeatRecord(index=index, name=name, kind="bot", bot=bot)
        for index, (name, bot) in enumerate(zip(names, plan.bots, strict=True))
    ]
    record = GameRecord(
        game_id=plan.game_id,
        game=plan.game,
        seed=plan.seed,
        ruleset=ruleset.model_dump(mode="json"),
        seats=seats,
        created=now,
        updated=now,
        decision_started=now,
    )
    session = Session(record, engine, engine.new_game(ruleset, plan.seed))
    events: list[Event] = [
        Header(
            server_version=__version__,
            game=plan.game,
            ruleset=record.ruleset,
            seed=plan.seed,
            seats=[SeatEntry(index=s.index, name=s.name, player=s.player()) for s in seats],
            rules_version=engine.rules_version,
            view_version=engine.view_version,
            wall={"created": now},
        )
    ]
    Referee(time.time).advance(session, events)
    outcome = engine.outcome(session.state)
    if outcome is None or record.status != "over":
        raise RuntimeError(f"{plan.game} seed {plan.seed}: the bots stopped before the end")
    for seq, event in enumerate(events, start=1):
        event.seq = seq
    TranscriptDir(plan.transcripts).rewrite(record.transcript_name, events)
    errors = sum(s.counters.fallbacks for s in record.seats)
    return _numbers(plan, session.state, outcome, record.decision, errors)


def _numbers(
    plan: Planned, state: Any, outcome: Outcome, transitions: int, bot_errors: int
) -> dict[str, Any]:
    return {
        "seed": plan.seed,
        "bots": list(plan.bots),
        "scores": list(outcome.scores),
        "ranks": list(outcome.ranks),
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "decisions": transitions,
        "bot_errors": bot_errors,
        **game_numbers(plan.game, state, outcome),
    }
