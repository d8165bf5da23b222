"""The solvers: the task (never the model) starts the game and takes the seat, gives the model the
seat prompt and the rules as its system message, and plays the seat through tools that bind the
game id and credential. `seat_solver` seats the evaluated model against bots over one stdio
server; `seats_solver` seats several models (Inspect model roles) in one game, each through its
own MCP client and credential, over one HTTP server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import mcp_connection, mcp_server_http

from .client import Seat, SeatClient
from .params import GamePlan, PromptVariant
from .play import SeatRun, play_seat
from .scoring import SEATS_KEY
from .servers import http_server, stdio_server

HTTP_TIMEOUT = 60.0
"""Seconds for one HTTP exchange with the server; `wait` answers within 50."""


def run_labels(state: TaskState) -> dict[str, str]:
    """Labels joining the game record to the Inspect log: the eval (task run) id and the
    sample's uuid, both as the `.eval` log names them, and the readable sample id."""
    labels = {"inspect_sample": state.uuid, "inspect_sample_id": str(state.sample_id)[:200]}
    # The eval id is not on TaskState; the active sample carries it (inspect_ai 0.3). Without
    # it the sample's uuid still joins the records, so a moved module costs only this label.
    try:
        from inspect_ai.log._samples import sample_active
    except ImportError:
        return labels
    active = sample_active()
    eval_id = getattr(active, "eval_id", None)
    if isinstance(eval_id, str) and eval_id:
        labels["inspect_run"] = eval_id
    return labels


def opening(plan: GamePlan, seat: Seat) -> str:
    return (
        f"Your game of {plan.title} has started: you are {seat.seat_name} (seat {seat.seat}). "
        "Play it to the end with your tools. Your first view:\n\n" + seat.first_view
    )


def conversation(plan: GamePlan, prompt: PromptVariant, seat: Seat) -> list[ChatMessage]:
    return [
        ChatMessageSystem(content=plan.system_message(prompt)),
        ChatMessageUser(content=opening(plan, seat)),
    ]


def seat_entry(
    plan: GamePlan, seat: Seat, model: Model, role: str | None, prompt: str, run: SeatRun
) -> dict[str, Any]:
    return {
        "role": role,
        "model": str(model),
        "prompt": prompt,
        "seat": seat.seat,
        "seat_name": seat.seat_name,
        "game_id": seat.game_id,
        "transcript": str(plan.transcripts / f"{plan.game.replace(':', '_')}-{seat.game_id}.jsonl"),
        **run.to_json(),
    }


def _prompt(plan: GamePlan, state: TaskState) -> PromptVariant:
    label = state.metadata["prompt"]
    return next(p for p in plan.prompts if p.label == label)


def _game_args(plan: GamePlan, state: TaskState) -> dict[str, Any]:
    return {
        "game": plan.game,
        "seed": state.metadata["seed"],
        "ruleset": plan.ruleset,
        "detail": plan.detail,
    }


@solver
def seat_solver(plan: GamePlan, max_steps: int) -> Solver:
    """The evaluated model in one seat; bots in the others."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        prompt = _prompt(plan, state)
        plan.transcripts.mkdir(parents=True, exist_ok=True)
        server = stdio_server(plan.transcripts)
        async with mcp_connection([server]):
            client = SeatClient(await server.tools())
            seat = await client.new_game(
                **_game_args(plan, state),
                seat=state.metadata["seat"],
                bots=plan.bots_for_creator([state.metadata["seat"]]),
                model=str(model),
                prompt=prompt.label,
                labels=run_labels(state),
            )
            run = SeatRun()
            state.metadata[SEATS_KEY] = [seat_entry(plan, seat, model, None, prompt.label, run)]
            state.metadata.update(game_id=seat.game_id, transcript=_transcript(state))
            state.messages = conversation(plan, prompt, seat)
            tools = client.model_tools(plan.detail)
            state.tools = tools
            try:
                await play_seat(model, state.messages, tools, client, max_steps, run)
            finally:
                state.metadata[SEATS_KEY] = [seat_entry(plan, seat, model, None, prompt.label, run)]
        return state

    return solve


def _transcript(state: TaskState) -> str:
    return str(state.metadata[SEATS_KEY][0]["transcript"])


@dataclass(frozen=True)
class Player:
    """One model seated in a game of several."""

    name: str
    """The prefix of its score keys (`red_score`) and its `role` in the seat entry."""
    role: str | None
    """Its Inspect model role; None for the main model (the A/B design seats it twice)."""
    prompt: PromptVariant
    seat: int
    labels: dict[str, str]
    """Kept in the record beside the run labels."""


def players(plan: GamePlan, state: TaskState) -> list[Player]:
    ab = state.metadata.get("ab")
    if ab:
        return [
            Player(
                name=p["side"],
                role=None,
                prompt=next(v for v in plan.prompts if v.label == p["prompt"]),
                seat=p["seat"],
                labels={"ab_arm": ab["arm"], "ab_side": p["side"]},
            )
            for p in ab["players"]
        ]
    prompt = _prompt(plan, state)
    seats = plan.role_seats(state.metadata["seat"])
    return [
        Player(name=role, role=role, prompt=prompt, seat=seat, labels={"role": role})
        for role, seat in zip(plan.roles, seats, strict=True)
    ]


@solver
def seats_solver(plan: GamePlan, max_steps: int) -> Solver:
    """Several models in one game. With roles, role i sits at seat (offset + i) mod seats,
    where the sample's `seat` is the offset; in the A/B design the main model sits at the
    sample's two seats under its two prompts. The first player starts the game with the
    others' seats open; each other player joins with its invitation. Bots take the remaining
    seats."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        seated = players(plan, state)
        seats = [p.seat for p in seated]
        plan.transcripts.mkdir(parents=True, exist_ok=True)
        labels = run_labels(state)
        created = anyio.Event()
        invitations: dict[str, str] = {}
        entries: dict[str, dict[str, Any]] = {}
        conversations: dict[str, list[ChatMessage]] = {}

        async def play(index: int, player: Player, url: str) -> None:
            model = get_model(role=player.role, required=True) if player.role else get_model()
            server = mcp_server_http(
                name=f"cogs-arena ({player.name})", url=url, timeout=HTTP_TIMEOUT
            )
            async with mcp_connection([server]):
                client = SeatClient(await server.tools())
                given: dict[str, Any] = {
                    "model": str(model),
                    "prompt": player.prompt.label,
                    "labels": {**labels, **player.labels},
                    "detail": plan.detail,
                }
                if index == 0:
                    seat = await client.new_game(
                        **{**_game_args(plan, state), **given},
                        seat=seats[0],
                        bots=plan.bots_for_creator(seats),
                    )
                    invitations.update(seat.invitations)
                    created.set()
                else:
                    await created.wait()
                    code = invitations[plan.seat_names[seats[index]]]
                    seat = await client.join_game(code, **given)
                run = SeatRun()
                entry = seat_entry(plan, seat, model, player.name, player.prompt.label, run)
                entries[player.name] = entry
                messages = conversations[player.name] = conversation(plan, player.prompt, seat)
                try:
                    await play_seat(
                        model, messages, client.model_tools(plan.detail), client, max_steps, run
                    )
                finally:
                    entries[player.name] = {**entry, **run.to_json()}

        try:
            async with http_server(plan.transcripts) as url, anyio.create_task_group() as tg:
                for index, player in enumerate(seated):
                    tg.start_soon(play, index, player, url)
        finally:
            state.metadata[SEATS_KEY] = [entries[p.name] for p in seated if p.name in entries]
            if entries:
                first = state.metadata[SEATS_KEY][0]
                state.metadata.update(game_id=first["game_id"], transcript=first["transcript"])
            if seated[0].name in conversations:
                state.messages = conversations[seated[0].name]
        return state

    return solve
