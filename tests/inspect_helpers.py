"""Scripted models for the Inspect tasks, and a runner for evals in a process of their own.

A scripted model reads only its messages, as a model would: it makes the offline model's calls
(`cogs_arena.inspect_tasks.offline.next_call`), playing the menu entry of its own preference, the
first or the last, unless its system prompt says to play the last.

`python tests/inspect_helpers.py '<json>'` runs evals by task name (as `inspect eval` would, so
Inspect finds the tasks through the package's entry point) and prints the logs' locations."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from cogs_arena.inspect_tasks.offline import next_call

LAST_ENTRY = "Always play the LAST entry of the legal-moves menu."
"""A line a prompt variant may carry; the scripted model obeys it."""


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
    take_last = prefer == "last" or LAST_ENTRY in system
    tool, arguments = next_call(messages, -1 if take_last else 0)
    return _output(tool, **arguments)


def main(spec: dict[str, Any]) -> list[str]:
    """Runs `spec["evals"]` (each: task name, task args, roles -> preference, and optionally
    `model`, a model name such as `cogs_arena/first-legal`, instead of the scripted main
    model); returns the log locations."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    locations: list[str] = []
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
