"""One in-process `play` as the MCP tool makes it, with its input validated once (the tool's
`PlayInput` handed to `GameService.play_input`) against the keyword form that splits it and
validates it again (`GameService.play`): the cost of the second shape.

    python benchmarks/bench_play_input.py [--calls 3000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cogs_arena.server.inputs import PlayInput, Submission
from cogs_arena.server.models import PlayResult
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore


def once(args: PlayInput, service: GameService) -> PlayResult:
    return service.play_input(args, raise_rejection=False)


def twice(args: PlayInput, service: GameService) -> PlayResult:
    return service.play(
        args.game_id,
        args.credential,
        Submission(args.move, args.number, args.moves, args.structured),
        why=args.why,
        request_id=args.request_id,
        expect_decision=args.decision,
        detail=args.detail,
        image=args.image,
        raise_rejection=False,
    )


Route = Callable[[PlayInput, GameService], PlayResult]


def measure(service: GameService, paths: dict[str, Route], calls: int) -> dict[str, list[float]]:
    """Microseconds per play for each path, taking turns call by call so drift hits both."""
    out: dict[str, list[float]] = {name: [] for name in paths}
    games: dict[str, dict[str, Any]] = {}

    def fresh(name: str) -> None:
        seed = sum(len(v) for v in out.values())
        games[name] = service.new_game("influence", seed=seed, seat="White").model_dump()

    for name in paths:
        fresh(name)
    while min(len(v) for v in out.values()) < calls:
        for name, path in paths.items():
            game = games[name]
            raw = {"game_id": game["game_id"], "credential": game["credential"], "number": 1}
            start = time.perf_counter()
            result = path(PlayInput.model_validate(raw), service)  # the tool validates first
            out[name].append((time.perf_counter() - start) * 1e6)
            if result.error is not None or result.view.status == "over":
                fresh(name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3000)
    calls = parser.parse_args().calls
    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(MemoryStore(), Path(tmp))
        measure(service, {"once": once, "twice": twice}, 100)  # warm up
        samples = measure(service, {"once": once, "twice": twice}, calls)
    print(f"In-process play (Influence, memory store), {calls} calls each:")
    for name, label in (("twice", "keyword form, validated twice"), ("once", "input model")):
        values = samples[name]
        print(
            f"  {label:30} median {statistics.median(values):7.1f} µs"
            f"  mean {statistics.fmean(values):7.1f} µs"
        )


if __name__ == "__main__":
    main()
