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

Result characters are the text blocks plus the compact JSON of the structured content.

`--model` plays each game as a model's client would, and counts only what such a client shows a
model: the text blocks, plus the structured content only of answers at `detail=full` or `data`
(a brief or none answer's structured content stays with the client). The pinned policy: seat 0,
seed 7, opponents `greedy` / eight `homesteader`s / seven `courier`s / three `builder`s; the game
starts with `detail="none"`, then one `show` at its default detail, then one `play` per turn (at
play's default detail), plus `legal_moves` before each step where the game needs the menu
(Blending). The moves are the bot's (greedy / homesteader / courier / builder) on the seat's
observation, read from the service directly and not counted: it stands in for the model's
thinking. It prints the model-visible `tools/list`, the seat prompt and the rules resource once,
then per game the calls and characters per tool and the turns played.

Run: `python scripts/tokens.py [--seed N] [--games influence,territory] [--styles menu,turns]`
or `python scripts/tokens.py --model`.
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
MODEL_BOTS = {"influence": "greedy", **TURN_BOTS}
SHOWN_DETAILS = ("full", "data")


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


# ---- the model-style client ------------------------------------------------------------------


def model_visible_tools(tools: list[Any]) -> int:
    """What a model is shown of `tools/list`: name, title, description and input schema of every
    tool, as compact JSON (output schemas and annotations stay with the client)."""
    return sum(
        len(
            json.dumps(
                {
                    "name": t.name,
                    "title": t.title,
                    "description": t.description,
                    "inputSchema": t.input_schema,
                },
                separators=(",", ":"),
            )
        )
        for t in tools
    )


@dataclass
class ModelTally:
    calls: dict[str, int]
    chars: dict[str, int]
    turns: int = 0
    over: bool = False

    @property
    def total(self) -> int:
        return sum(self.chars.values())


class ModelMeter:
    """Counts what a client shows a model of each answer (see the module's docstring)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.tally = ModelTally(calls={}, chars={})

    async def call(self, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
        if sum(self.tally.calls.values()) >= MAX_CALLS:
            raise RuntimeError(f"more than {MAX_CALLS} calls")
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {text}")
        data = dict(result.structured_content or {})
        shown = len(text)
        detail = arguments.get("detail", "full" if tool in ("show", "new_game") else "brief")
        if tool in ("show", "play", "new_game") and detail in SHOWN_DETAILS:
            shown += len(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
        self.tally.calls[tool] = self.tally.calls.get(tool, 0) + 1
        self.tally.chars[tool] = self.tally.chars.get(tool, 0) + shown
        return text, data


def _seat_state(service: GameService, game_id: str) -> Any:
    """The game's state, read without a look (a look would change the seat's news)."""
    with service.sessions.open(game_id) as session:
        return session.state


MAX_TURN_MOVES = 200


def _model_moves(service: GameService, game: str, game_id: str, seed: int, step: int) -> list[str]:
    """The move(s) of one `play`: a whole turn (Influence's attacks, `end` and allocation;
    Blending's steps; one submission in Territory and Chemistry), from the bot on seat 0's
    observation."""
    engine = get_engine(game)
    state = _seat_state(service, game_id)
    bot = engine.bots()[MODEL_BOTS[game]]
    if game not in ("influence", "blending"):
        return [bot(engine.observe(state, 0), LegalMoves(()), Stream(seed, f"client/{step}"))]
    moves: list[str] = []
    # A whole turn in one play: Influence's attacks, `end` and allocation; Blending's steps up
    # to `end`, or until another seat must act (a fight's defender).
    while engine.to_act(state) == (0,) and len(moves) < MAX_TURN_MOVES:
        if game == "blending":
            move = bot(
                engine.observe(state, 0),
                engine.legal_moves(state, 0),
                Stream(seed, f"client/{step}/{len(moves)}"),
            )
            moves.append(move)
            state = engine.apply(state, 0, engine.parse_move(state, 0, move))
            continue
        phase = state.phase
        move = bot(engine.observe(state, 0), engine.legal_moves(state, 0), Stream(0, str(step)))
        moves.append(move)
        state = engine.apply(state, 0, engine.parse_move(state, 0, move))
        if phase == "reinforce" and state.phase != "reinforce":
            break
    return moves


async def by_model(meter: ModelMeter, service: GameService, game: str, seed: int) -> None:
    _, started = await meter.call(
        "new_game", game=game, seed=seed, seat=0, bots=[MODEL_BOTS[game]], detail="none"
    )
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    _, view = await meter.call("show", **ids)
    step = 0
    while view["status"] != "over":
        if not view["your_turn"]:
            raise RuntimeError(f"{game}: not our turn and not over: {view['to_act']}")
        step += 1
        if game == "blending":
            await meter.call("legal_moves", **ids)
        moves = _model_moves(service, game, ids["game_id"], seed, step)
        _, data = await meter.call("play", moves=moves, **ids)
        view = _view_of(data)
    meter.tally.turns = step
    meter.tally.over = True


async def run_model(games: list[str], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(MemoryStore(), folder)
        async with Client(build_server(service)) as client:
            tools = model_visible_tools((await client.list_tools()).tools)
            print(f"seed {seed}; model-visible tools/list: {tools} chars")
            print(
                f"{'game':<10} {'prompt':>7} {'rules':>7} {'turns':>6} {'calls':>6}"
                f" {'results':>8} {'whole':>8}  per tool (calls/chars)"
            )
            for game in games:
                prompt = await client.get_prompt(f"{game}_seat")
                prompt_chars = sum(len(getattr(m.content, "text", "")) for m in prompt.messages)
                rules = await client.read_resource(f"cogs-arena://rules/{game}")
                rules_chars = sum(len(getattr(c, "text", "")) for c in rules.contents)
                meter = ModelMeter(client)
                try:
                    await by_model(meter, service, game, seed)
                except Exception as exc:  # one game's failure must not hide the others
                    print(f"{game}: stopped: {exc!r}"[:300], file=sys.stderr)
                t = meter.tally
                whole = tools + prompt_chars + rules_chars + t.total
                tools_used = ", ".join(f"{k} {t.calls[k]}/{t.chars[k]}" for k in t.calls)
                print(
                    f"{game:<10} {prompt_chars:>7} {rules_chars:>7} {t.turns:>6}"
                    f" {sum(t.calls.values()):>6} {t.total:>8} {whole:>8}  {tools_used}"
                    f"{'' if t.over else '  (not over)'}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--styles", default="menu,turns")
    parser.add_argument("--model", action="store_true", help="the model-style client")
    args = parser.parse_args()
    if args.model:
        asyncio.run(run_model(args.games.split(","), args.seed))
        return
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
