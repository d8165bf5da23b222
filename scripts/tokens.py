"""What a whole game costs a client: tool calls and result characters, per game and style.

Plays one full game of each kind through the in-memory MCP client, by a scripted client, in two
styles:

- `menu`: by menu numbers, as a cautious model would: `show`, `legal_moves`, `play number=1` at
  every decision.
- `turns`: by whole turns: one `play` per turn with `moves=[...]`. Influence plans its whole turn
  (attacks, `end`, one allocation) from the view it holds, with the greedy bot on a local copy of
  the board; Territory and Chemistry send one submission per turn from the view they hold
  (homesteader / courier); Blending, whose turn is a dialog over a hidden stock, asks
  `legal_moves` and plays its builder's step, one step a call, reading the view the play returns
  (no `show`).

Result characters are the text blocks plus the compact JSON of the structured content. Run:
`python scripts/tokens.py [--seed N] [--games influence,territory] [--styles menu,turns]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from mcp import Client

from cogs_arena.engines import get_engine
from cogs_arena.engines.protocol import LegalMoves, MoveInfo
from cogs_arena.engines.rng import Stream
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

GAMES = ("influence", "territory", "chemistry", "blending")
TURN_BOTS = {"territory": "homesteader", "chemistry": "courier", "blending": "builder"}
MAX_CALLS = 5000


@dataclass
class Tally:
    calls: int = 0
    chars: int = 0
    text_chars: int = 0
    json_chars: int = 0
    over: bool = False


class Meter:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.tally = Tally()

    async def call(self, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
        if self.tally.calls >= MAX_CALLS:
            raise RuntimeError(f"more than {MAX_CALLS} calls")
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {text}")
        data = dict(result.structured_content or {})
        encoded = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        self.tally.calls += 1
        self.tally.text_chars += len(text)
        self.tally.json_chars += len(encoded)
        self.tally.chars += len(text) + len(encoded)
        return text, data


def _view_of(data: dict[str, Any]) -> dict[str, Any]:
    return dict(data["view"]) if "view" in data else data


async def by_menu(meter: Meter, game: str, seed: int) -> None:
    _, started = await meter.call("new_game", game=game, seed=seed)
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    while True:
        _, view = await meter.call("show", **ids)
        if view["status"] == "over":
            meter.tally.over = True
            return
        if not view["your_turn"]:
            raise RuntimeError(f"{game}: not our turn and not over: {view['to_act']}")
        await meter.call("legal_moves", **ids)
        await meter.call("play", number=1, **ids)


def _influence_state(observation: dict[str, Any]) -> Any:
    """A local copy of the board from the first (full) view's observation."""
    from cogs_arena.engines.influence.state import InfluenceState

    engine = get_engine("influence")
    rules = engine.ruleset()
    board = rules.board()  # type: ignore[attr-defined]
    grid = observation["grid"]
    values = [0] * len(board.labels)
    for k, row in enumerate(board.layout):
        for m, index in enumerate(row):
            if index >= 0:
                values[index] = int(grid[k][m] or 0)
    if board.dense:
        values = [int(v or 0) for line in grid for v in line]
    return InfluenceState(
        ruleset=rules,  # type: ignore[arg-type]
        values=tuple(values),
        mover=int(observation["seats"].index(observation["to_move"])),
        phase=observation["phase"],
        turn=int(observation["turn"]),
        points=int(observation["points_left"]),
        attacks=int(observation["attacks_this_phase"]),
    )


def _influence_turn(state: Any, seat: int) -> tuple[list[str], Any]:
    """The whole turn the greedy bot would play on the local board, and the board after it."""
    engine = get_engine("influence")
    greedy = engine.bots()["greedy"]
    moves: list[str] = []
    while engine.to_act(state) == (seat,):
        phase = state.phase
        move = greedy(
            engine.observe(state, seat), engine.legal_moves(state, seat), Stream(0, str(len(moves)))
        )
        moves.append(move)
        state = engine.apply(state, seat, engine.parse_move(state, seat, move))
        if phase == "reinforce" and state.phase != "reinforce":
            break
    return moves, state


def _apply_since(state: Any, text: str) -> Any:
    """The other seat's moves, read from the result's text as a model would (`Since your last
    look:`, `White played:`, then `  <move>[: what it did]` lines), applied to the local board."""
    engine = get_engine("influence")
    lines = text.splitlines()
    if "Since your last look:" not in lines:
        return state
    for line in lines[lines.index("Since your last look:") + 1 :]:
        if line.endswith(" played:"):
            continue
        if not line.startswith("  "):
            break
        move = line.strip().split(": ", 1)[0]
        seat = state.mover
        state = engine.apply(state, seat, engine.parse_move(state, seat, move))
    return state


async def by_turns(meter: Meter, game: str, seed: int) -> None:
    """Influence's client reads what a model would be sent (brief views: the compact board, and
    what the other seat did since its last look); it plans on a local copy of the board, kept
    up to date from its own moves and the `since` entries, instead of reasoning. The others are
    programs that read the observation (`detail="data"`): a bot chooses each move."""
    engine = get_engine(game)
    detail = "brief" if game == "influence" else "data"
    # The first view as data: Influence's client copies the board from it once.
    _, started = await meter.call("new_game", game=game, seed=seed, detail="data")
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    view = _view_of(started)
    step = 0
    local = _influence_state(view["observation"]) if game == "influence" else None
    while view["status"] != "over":
        if not view["your_turn"]:
            raise RuntimeError(f"{game}: not our turn and not over: {view['to_act']}")
        observation = view["observation"]
        step += 1
        if game == "influence":
            moves, local = _influence_turn(local, int(view["seat"]))
            text, data = await meter.call("play", moves=moves, **ids)
            local = _apply_since(local, text)
        elif game in ("territory", "chemistry"):
            bot = engine.bots()[TURN_BOTS[game]]
            move = bot(observation, LegalMoves(()), Stream(seed, f"client/{step}"))
            _, data = await meter.call("play", moves=[move], detail=detail, **ids)
        else:
            _, menu = await meter.call("legal_moves", page_size=500, **ids)
            legal = LegalMoves(
                tuple(MoveInfo(m["notation"], m["description"], m["kind"]) for m in menu["moves"]),
                complete=menu["complete"],
                hints=menu["hints"],
            )
            bot = engine.bots()[TURN_BOTS[game]]
            move = bot(observation, legal, Stream(seed, f"client/{step}"))
            _, data = await meter.call("play", moves=[move], detail=detail, **ids)
        view = _view_of(data)
    meter.tally.over = True


async def run(games: list[str], styles: list[str], seed: int) -> list[tuple[str, str, Tally]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(MemoryStore(), folder)
        async with Client(build_server(service)) as client:
            for game in games:
                for style in styles:
                    meter = Meter(client)
                    play = by_menu if style == "menu" else by_turns
                    try:
                        await play(meter, game, seed)
                    except Exception as exc:  # one game's failure must not hide the others
                        print(f"{game}/{style}: stopped: {exc!r}"[:300], file=sys.stderr)
                    rows.append((game, style, meter.tally))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--styles", default="menu,turns")
    args = parser.parse_args()
    rows = asyncio.run(run(args.games.split(","), args.styles.split(","), args.seed))
    print(f"seed {args.seed}")
    print(
        f"{'game':<10} {'style':<6} {'calls':>6} {'KB':>8} {'text KB':>8} {'json KB':>8}"
        f" {'B/call':>7}  over"
    )
    for game, style, t in rows:
        print(
            f"{game:<10} {style:<6} {t.calls:>6} {t.chars / 1000:>8.1f} {t.text_chars / 1000:>8.1f}"
            f" {t.json_chars / 1000:>8.1f} {t.chars // max(1, t.calls):>7}  {t.over}"
        )


if __name__ == "__main__":
    main()
