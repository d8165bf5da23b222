"""A game played through the service by two scripted clients that talk, explain their moves,
get a move rejected and earn a fallback: a record with every kind of line a replay shows.
Also used by scripts/screenshots.py."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogs_arena.engines import GameError, get_engine
from cogs_arena.server.service import GameService, Submission


@dataclass
class PlayedGame:
    game: str
    game_id: str
    spectator_code: str
    credentials: dict[int, str]
    names: list[str]
    transcripts: Path

    def transcript(self) -> Path:
        found = [p for p in self.transcripts.rglob("*.jsonl") if self.game_id in p.name]
        assert len(found) == 1, f"expected one transcript for {self.game_id}, found {found}"
        return found[0]


def start_two_clients(
    service: GameService, game: str, *, seed: int, ruleset: dict[str, Any] | None = None
) -> PlayedGame:
    """Seats 0 and 1 for two clients (model-a, model-b), the game's default bot elsewhere."""
    engine = get_engine(game)
    names = list(engine.seat_names(engine.ruleset(ruleset or {})))
    bot = next(name for name in engine.bots() if name != "random")
    bots = ["open"] + [bot] * (len(names) - 2)
    created = service.new_game(game, seed=seed, ruleset=ruleset, seat=0, bots=bots, model="model-a")
    assert created.spectator_code is not None
    invitation = created.invitations[names[1]]
    joined = service.join_game(invitation, model="model-b")
    credentials = {created.seat: created.credential, joined.seat: joined.credential}
    return PlayedGame(
        game, created.game_id, created.spectator_code, credentials, names, service.transcripts.root
    )


def play_on(service: GameService, played: PlayedGame, *, until_decision: int | None = None) -> str:
    """Plays both clients by menu entry 1 until the game ends (or reaches `until_decision`);
    returns the status. Along the way: seat 0 greets everyone and whispers to seat 1, seat 0's
    second move is first tried as nonsense (a rejection), seat 1's third move is nonsense twice
    (a fallback), and every accepted move says why."""
    acted = {seat: 0 for seat in played.credentials}
    for _ in range(5000):
        moved = False
        for seat, credential in played.credentials.items():
            view = service.show(played.game_id, credential, detail="none")
            if view.status == "over":
                return view.status
            if until_decision is not None and view.decision >= until_decision:
                return view.status
            if not view.your_turn:
                continue
            acted[seat] += 1
            _script(service, played, seat, credential, acted[seat])
            moved = True
        if not moved:
            service.tick()
    raise AssertionError("the scripted game did not end")


def _script(service: GameService, played: PlayedGame, seat: int, credential: str, n: int) -> None:
    game_id = played.game_id
    # A game that refuses the talk tool (Chemistry: `say:` rides on the order) gets no talk.
    if n == 1 and seat == 0 and get_engine(played.game).talk_refused is None:
        service.talk(game_id, credential, "Good luck, everyone.")
        service.talk(game_id, credential, "Psst, let us share.", to=[played.names[1]])
    if n == 2 and seat == 0:
        with contextlib.suppress(GameError):  # rejected, as meant
            service.play(game_id, credential, Submission(move="nonsense"), why="probing")
        if not service.show(game_id, credential, detail="none").your_turn:
            return
    if n == 3 and seat == 1:
        for _ in range(2):
            with contextlib.suppress(GameError):  # rejected twice: the host plays a fallback
                service.play(game_id, credential, Submission(move="nonsense twice"))
        return
    service.play(game_id, credential, Submission(number=1), why=f"menu entry 1, move {n}")
