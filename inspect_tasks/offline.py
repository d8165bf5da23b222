"""An offline model for smoke runs: `--model cogs_arena/first-legal` (or `last-legal`) plays a
legal move of the menu the harness's tools return, with no network, no API key and no
tokenizer. It reads only its messages, as a model would: after a `legal_moves` result it plays
the first (or last) numbered entry; when the server says other seats are still to act it calls
`wait`; otherwise it asks for `legal_moves`. Its play says nothing about any real model; it is
there so `inspect eval` runs end to end on a machine with nothing but this package."""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

PICKS = {"first-legal": 0, "last-legal": -1}
"""Model names and the menu entry each plays."""

_ENTRY = re.compile(r"^\s*(\d+)\. ", re.MULTILINE)
_WAIT_SIGNS = ("Submitted; the turn resolves", "Call wait", "Nothing yet", "New events:")
WAIT_SECONDS = 5
DEFAULT_CONFIG = GenerateConfig()


def next_call(messages: list[ChatMessage], pick: int) -> tuple[str, dict[str, Any]]:
    """The tool call that follows `messages`: (tool name, arguments)."""
    last = messages[-1]
    text = last.text
    if isinstance(last, ChatMessageTool) and last.error is None:
        if last.function == "legal_moves":
            numbers = [int(n) for n in _ENTRY.findall(text)]
            if numbers:
                return "play", {"number": numbers[pick], "why": "offline model"}
        if last.function == "wait" and not text.startswith("It is your turn"):
            return "wait", {"timeout": WAIT_SECONDS}
    if isinstance(last, ChatMessageTool | ChatMessageUser) and any(s in text for s in _WAIT_SIGNS):
        return "wait", {"timeout": WAIT_SECONDS}
    if isinstance(last, ChatMessageTool) and last.error is not None and "turn" in text:
        return "wait", {"timeout": WAIT_SECONDS}
    return "legal_moves", {}


def _tokens(text: str) -> int:
    # About four characters a token: an estimate that needs no tokenizer download.
    return len(text) // 4 + 1


@modelapi(name="cogs_arena")
class OfflineModel(ModelAPI):
    """`cogs_arena/first-legal` and `cogs_arena/last-legal`."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = DEFAULT_CONFIG,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in PICKS:
            raise ValueError(
                f"cogs_arena/{model_name}: no such offline model; one of "
                + ", ".join(f"cogs_arena/{name}" for name in PICKS)
            )
        self.pick = PICKS[model_name]

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        name, arguments = next_call(input, self.pick)
        output = ModelOutput.for_tool_call(
            model=f"cogs_arena/{self.model_name}", tool_name=name, tool_arguments=arguments
        )
        read = sum(_tokens(m.text) for m in input)
        output.usage = ModelUsage(input_tokens=read, output_tokens=8, total_tokens=read + 8)
        return output

    async def count_text_tokens(self, text: str) -> int:
        return _tokens(text)

    def max_connections(self) -> int:
        return 4
