"""One Inspect task per game. Run `inspect eval cogs_arena/territory --model <provider/model>`;
parameters go with `-T name=value` (see `game_task`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from .params import DEFAULT_PROMPT, GamePlan, game_plan
from .scoring import game_outcome
from .solvers import seat_solver, seats_solver

DEFAULT_MAX_STEPS = 1000
"""Model generations per seat; a seat that reads, lists and plays each decision of a long
Influence game needs about 400."""

Seats = int | str | Sequence[int | str]


def samples(plan: GamePlan) -> list[Sample]:
    """One sample per seed, seat (or rotation of the roles) and prompt variant: the same seeds
    for every variant, so results pair by game, seed and seat."""
    out = []
    for prompt in plan.prompts:
        for seed in plan.seeds:
            for seat in plan.seats:
                where = f"rot{seat}" if plan.roles else f"seat{seat}"
                out.append(
                    Sample(
                        id=f"{plan.game}-seed{seed}-{where}-{prompt.label}",
                        input=f"Play {plan.title} from seed {seed}.",
                        metadata={
                            "game": plan.game,
                            "seed": seed,
                            "seat": seat,
                            "seat_name": None if plan.roles else plan.seat_names[seat],
                            "prompt": prompt.label,
                            "roles": list(plan.roles),
                        },
                    )
                )
    return out


def game_task(game: str, max_steps: int, **plan_args: Any) -> Task:
    """The task for one game; `plan_args` are `game_plan`'s (see the registered tasks)."""
    plan = game_plan(game, **plan_args)
    if max_steps < 1:
        raise ValueError("max_steps: 1 or more")
    solve = seats_solver(plan, max_steps) if plan.roles else seat_solver(plan, max_steps)
    return Task(
        dataset=MemoryDataset(samples(plan), name=f"cogs_arena_{game}"),
        solver=solve,
        scorer=game_outcome(),
        metadata={
            "game": game,
            "transcripts": str(plan.transcripts),
            "prompts": [p.label for p in plan.prompts],
            "roles": list(plan.roles),
        },
    )


PARAMETERS = """Parameters (`-T name=value`):

seeds: a count N (seeds 0 … N-1) or a list of seeds.
seat: the model's seat, by number or name; a list of seats; or 'rotate' for every seat.
  With `roles`, the rotation offset(s): role i sits at seat (offset + i) mod seats.
bots: the bots for the other seats: one name for all, or one per bot seat in seat order.
prompt: the seat prompt: 'default' (the server's `<game>_seat` prompt), 'none', or a path
  to a Markdown file; a list of them runs every variant over the same seeds.
prompt_label: the label kept in the record for each prompt (default: 'default', 'none'
  or the file's stem).
ruleset: ruleset overrides, as new_game takes them.
detail: the default detail of the views the model gets from show and play: full, brief
  or none.
roles: Inspect model roles to seat together in one game (`--model-role name=provider/model`).
max_steps: model generations per seat before the harness stops the seat.
transcripts: where the game records go (default: $COGS_ARENA_TRANSCRIPTS, else
  ./logs/cogs-arena-transcripts).
"""

GAMES = {
    "territory": "Territory: nine seats claim and raze walls on a hex lattice; simultaneous turns.",
    "influence": "Influence: two seats attack and reinforce cells on a hex board; whole turns.",
    "chemistry": "Chemistry: eight couriers feed reaction vats under standing orders per shift.",
    "blending": "Blending: four seats lay land tiles, raise guardians and fight; turn by turn.",
}


def _task_for(game: str) -> Callable[..., Task]:
    """The registered task of one game: Inspect reads its parameters from this signature."""

    def game_eval(
        seeds: int | str | Sequence[int | str] = 1,
        seat: Seats = 0,
        bots: str | Sequence[str] | None = None,
        prompt: str | Sequence[str] = DEFAULT_PROMPT,
        prompt_label: str | Sequence[str] | None = None,
        ruleset: dict[str, Any] | None = None,
        detail: str = "full",
        roles: str | Sequence[str] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        transcripts: str | None = None,
    ) -> Task:
        given = dict(locals())
        del given["game"]  # the closure's variable, not a parameter
        return game_task(game, **given)

    game_eval.__name__ = game_eval.__qualname__ = game
    game_eval.__doc__ = GAMES[game] + "\n\n" + PARAMETERS
    registered: Callable[..., Task] = task(name=game)(game_eval)
    return registered


territory = _task_for("territory")
influence = _task_for("influence")
chemistry = _task_for("chemistry")
blending = _task_for("blending")
