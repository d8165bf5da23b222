"""Scripted models for the Inspect tasks, and a runner for evals in a process of their own.

A scripted model reads only its messages, as a model would: it plays a menu entry (its own
preference, the first or the last, unless its system prompt says to play the last), reading the
numbers out of the `legal_moves` result text; it calls `wait` when the server says others are
still to act, and `legal_moves` otherwise.

`python tests/inspect_helpers.py '<json>'` runs evals by task name (as `inspect eval` would, so
Inspect finds the tasks through the package's entry point) and prints the logs' locations."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

LAST_ENTRY = "Always play the LAST entry of the legal-moves menu."
"""A line a prompt variant may carry; the scripted model obeys it."""

_ENTRY = re.compile(r"^\s*(\d+)\. ", re.MULTILINE)
_WAIT_SIGNS = ("Submitted; the turn resolves", "Call wait", "Nothing yet", "New events:")


def _output(tool: str, **arguments: Any) -> ModelOutput:
    output = ModelOutput.for_tool_call(model="scripted", tool_name=tool, tool_arguments=arguments)
    # Offline: without usage, mockllm counts tokens with a tokenizer it would download.
    output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return output


Policy = Callable[[list[ChatMessage], list[ToolInfo], ToolChoice, GenerateConfig], ModelOutput]


def scripted(prefer: str = "first") -> Policy:
    """A scripted model that plays the first (or last) menu entry unless told the last."""

    def policy(
        messages: list[ChatMessage], tools: list[ToolInfo], _: ToolChoice, __: GenerateConfig
    ) -> ModelOutput:
        return _next_call(messages, prefer)

    return policy


def _next_call(messages: list[ChatMessage], prefer: str) -> ModelOutput:
    system = next((m.text for m in messages if isinstance(m, ChatMessageSystem)), "")
    last = messages[-1]
    text = last.text
    if isinstance(last, ChatMessageTool) and last.error is None:
        if last.function == "legal_moves":
            numbers = [int(n) for n in _ENTRY.findall(text)]
            if numbers:
                take_last = prefer == "last" or LAST_ENTRY in system
                pick = numbers[-1] if take_last else numbers[0]
                return _output("play", number=pick, why="scripted")
        if last.function == "wait" and not text.startswith("It is your turn"):
            return _output("wait", timeout=5)
    if isinstance(last, ChatMessageTool | ChatMessageUser) and any(s in text for s in _WAIT_SIGNS):
        return _output("wait", timeout=5)
    if isinstance(last, ChatMessageTool) and last.error is not None and "turn" in text:
        return _output("wait", timeout=5)
    return _output("legal_moves")


def main(spec: dict[str, Any]) -> list[str]:
    """Runs `spec["evals"]` (each: task name, task args, roles -> preference, and optionally
    `model`, a model name such as `cogs_arena/first-legal`, instead of the scripted main
    model); returns the log locations."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    locations = []
    for run in spec["evals"]:
        roles = {
            role: get_model(f"mockllm/{role}", custom_outputs=scripted(prefer))
            for role, prefer in run.get("roles", {}).items()
        }
        logs = inspect_eval(
            run["task"],
            model=run.get("model") or get_model("mockllm/scripted", custom_outputs=scripted()),
            model_roles=roles or None,
            task_args=run["args"],
            log_dir=spec["log_dir"],
            display="none",
        )
        locations.extend(log.location for log in logs)
    return locations


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
