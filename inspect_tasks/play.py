"""One seat's conversation with its model: generate, run the tools it calls, and go on until the
game is over. The harness asks the server whether the game is over (never the model's words);
a model that stops calling tools before the end is told where the game stands, a few times."""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageUser, Model, execute_tools
from inspect_ai.tool import Tool

from .client import SeatClient

MAX_QUIET = 3
"""Answers in a row without a tool call before the harness gives up on the seat."""

NUDGES = {
    "your_turn": "The game is not over and it is your turn: call legal_moves, then play.",
    "waiting": "The game is not over: other seats are still to act. Call wait, and act when "
    "it says it is your turn.",
}


@dataclass
class SeatRun:
    """How the conversation went, beside what the game record says."""

    steps: int = 0
    """Model generations."""
    tool_calls: int = 0
    nudges: int = 0
    ended: str = ""
    """over (the game ended), max_steps, or quiet (the model stopped calling tools)."""

    def to_json(self) -> dict[str, int | str]:
        return {
            "steps": self.steps,
            "tool_calls": self.tool_calls,
            "nudges": self.nudges,
            "ended": self.ended,
        }


async def play_seat(
    model: Model,
    messages: list[ChatMessage],
    tools: list[Tool],
    client: SeatClient,
    max_steps: int,
    run: SeatRun | None = None,
) -> SeatRun:
    """Plays until the game is over, `max_steps` generations, or a model that stays quiet.
    `messages` is extended in place (a TaskState's list keeps the sample's limits); `run` may
    be passed in so its counts survive a limit that ends the sample midway."""
    run = run or SeatRun()
    quiet = 0
    while True:
        status = await client.status()
        if status == "over":
            run.ended = "over"
            return run
        if run.steps >= max_steps:
            run.ended = "max_steps"
            return run
        output = await model.generate(messages, tools)
        run.steps += 1
        messages.append(output.message)
        calls = output.message.tool_calls or []
        if calls:
            quiet = 0
            run.tool_calls += len(calls)
            result = await execute_tools(messages, tools)
            messages.extend(result.messages)
            continue
        quiet += 1
        if quiet > MAX_QUIET:
            run.ended = "quiet"
            return run
        run.nudges += 1
        messages.append(ChatMessageUser(content=NUDGES[status]))
