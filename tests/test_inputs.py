"""The tool input models: one per tool, unknown arguments refused by name, every string checked
for what the record cannot hold, and errors that name the field and what is allowed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs_arena.server.errors import BadArgument
from cogs_arena.server.inputs import (
    MAX_ID_CHARS,
    MAX_MOVES_PER_CALL,
    MAX_RULESET_CHARS,
    MAX_STRUCTURED_CHARS,
    LegalMovesInput,
    ListGamesInput,
    LogInput,
    NewGameInput,
    PingInput,
    PlayInput,
    ShowInput,
    SpectateInput,
    Submission,
    TalkInput,
    ToolInput,
    WaitInput,
    check_text,
    clean_label,
    json_container_fields,
    validated,
)

SEAT = {"game_id": "g1", "credential": "c1"}


def refused(model_cls: type[ToolInput], /, **kwargs: Any) -> str:
    with pytest.raises(BadArgument) as info:
        validated(model_cls, **kwargs)
    return str(info.value)


def test_every_model_refuses_an_unknown_argument_by_name_and_lists_the_allowed_ones() -> None:
    text = refused(PlayInput, **SEAT, move="end", decison=3)
    assert text.startswith("decison: unknown argument")
    assert "game_id, credential, move, number, moves, structured, why, request_id, decision" in text
    assert "unknown argument" in refused(PingInput, verbose=True)
    assert "unknown argument" in refused(ListGamesInput, game="influence")
    assert "tiemout: unknown argument" in refused(WaitInput, **SEAT, tiemout=3)
    assert "code: unknown argument" in refused(SpectateInput, spectator_code="x", code="x")


def test_a_lone_surrogate_is_refused_naming_the_field_and_the_position() -> None:
    text = refused(PlayInput, **SEAT, move="end", why="ab\ud800c")
    assert text.startswith(
        "why contains a lone surrogate (U+D800) at character 3; send valid Unicode text"
    )
    assert "moves[1] contains a lone surrogate (U+DC00)" in refused(
        PlayInput, **SEAT, moves=["a", "b\udc00"]
    )
    assert "structured.orders[0].to contains a lone surrogate" in refused(
        PlayInput, **SEAT, structured={"orders": [{"to": "x\udfff"}]}
    )
    assert "a key of structured.orders[0] contains a lone surrogate" in refused(
        PlayInput, **SEAT, structured={"orders": [{"k\ud800": 1}]}
    )
    assert "a key of ruleset.map.init contains a lone surrogate" in refused(
        NewGameInput, game="influence", ruleset={"map": {"init": {"\ud800": 1}}}
    )
    assert "to[0] contains a lone surrogate" in refused(TalkInput, **SEAT, text="hi", to=["\ud800"])
    for field in ("game_id", "credential"):
        assert f"{field} contains a lone surrogate" in refused(
            ShowInput, **{**SEAT, field: "x\ud800"}
        )
    for field in ("game", "seed", "seat", "model", "prompt"):
        kwargs = {"game": "influence", field: "\udbff"}
        assert f"{field} contains a lone surrogate (U+DBFF) at character 1" in refused(
            NewGameInput, **kwargs
        )


def test_the_refusal_never_quotes_the_rejected_text() -> None:
    secret = "do-not-echo-" + "\ud800"
    text = refused(PlayInput, **SEAT, move=secret)
    assert "do-not-echo" not in text
    text.encode("utf-8")  # the error itself is valid Unicode
    name = refused(PingInput, **{"bad\ud800name": 1})
    name.encode("utf-8")
    assert "not valid Unicode" in name


def test_lengths_are_checked_in_one_place_with_the_same_limits() -> None:
    assert validated(ShowInput, game_id="g" * MAX_ID_CHARS, credential="c").game_id
    assert "at most 100 characters" in refused(ShowInput, game_id="g" * 101, credential="c")
    assert "request_id" in refused(PlayInput, **SEAT, move="x", request_id="r" * 101)
    assert "why" in refused(PlayInput, **SEAT, move="x", why="w" * 2001)
    assert "text" in refused(TalkInput, **SEAT, text="t" * 1001)
    assert "model" in refused(NewGameInput, game="influence", model="m" * 201)
    assert "moves" in refused(PlayInput, **SEAT, moves=["x"] * (MAX_MOVES_PER_CALL + 1))
    # An empty list is the simultaneous games' empty move (issue 20); the desk refuses it in
    # turn-based games, where no move is empty.
    assert validated(PlayInput, **SEAT, moves=[]).moves == []
    big = {"note": "x" * MAX_STRUCTURED_CHARS}
    assert "longer than 4000 characters as JSON" in refused(PlayInput, **SEAT, structured=big)


def test_structured_and_ruleset_must_be_small_shallow_json() -> None:
    deep: Any = []
    for _ in range(40):
        deep = [deep]
    assert "nested more than" in refused(PlayInput, **SEAT, structured={"a": deep})
    nan = refused(PlayInput, **SEAT, structured={"a": float("nan")})
    assert "structured.a is not a finite number" in nan
    assert "beyond" in refused(PlayInput, **SEAT, structured={"a": 2**64})
    assert "not a JSON value" in refused(PlayInput, **SEAT, structured={"a": object()})
    # A custom map for the largest Influence board fits the ruleset's larger limit.
    cells = [[r, c] for r in range(40) for c in range(40)]
    assert len(json.dumps(cells)) < MAX_RULESET_CHARS
    assert validated(NewGameInput, game="influence", ruleset={"map": {"cells": cells}}).ruleset


def test_play_takes_exactly_one_form_of_move() -> None:
    none = refused(PlayInput, **SEAT)
    assert "exactly one of move, number, moves or structured (got none of them)" in none
    assert "structured={...}" in none
    assert "(got move and number)" in refused(PlayInput, **SEAT, move="a", number=1)
    args = validated(PlayInput, **SEAT, moves=["a", "b"])
    assert args.submission() == Submission(moves=["a", "b"])


def test_numbers_have_bounds_and_booleans_are_not_numbers() -> None:
    text = refused(LogInput, **SEAT, after=2**63)
    assert text.startswith("after: input should be less than or equal to 9007199254740992")
    assert "Allowed: after:" in text
    assert "limit" in refused(LogInput, **SEAT, limit=0)
    assert "limit" in refused(LogInput, **SEAT, limit=1001)
    assert validated(LogInput, **SEAT).limit == 200
    assert "decision" in refused(PlayInput, **SEAT, number=1, decision=-1)
    assert "decision" in refused(PlayInput, **SEAT, number=1, decision=2**53 + 1)
    assert "number is true" in refused(PlayInput, **SEAT, number=True)
    assert "number" in refused(PlayInput, **SEAT, number=10**6 + 1)
    assert "page_size" in refused(LegalMovesInput, **SEAT, page_size=501)
    assert "page" in refused(LegalMovesInput, **SEAT, page=0)
    assert validated(LegalMovesInput, **SEAT).page_size == 50
    assert "timeout" in refused(WaitInput, **SEAT, timeout=0)
    assert "timeout" in refused(WaitInput, **SEAT, timeout=51)
    assert validated(WaitInput, **SEAT).timeout == 25
    for field in ("deadline_seconds", "join_timeout", "time_limit"):
        for bad in (0, -1, float("inf"), float("nan"), 31 * 24 * 3600):
            assert field in refused(NewGameInput, game="influence", **{field: bad})
    assert validated(NewGameInput, game="influence", time_limit=30 * 24 * 3600).time_limit
    assert validated(NewGameInput, game="influence", seed="words").seed == "words"
    assert validated(NewGameInput, game="influence", seed=7).seed == 7
    assert "seed" in refused(NewGameInput, game="influence", seed="s" * 101)


def test_talk_needs_a_visible_character() -> None:
    for text in ("", "   ", "\u200b\u200b", "\n\t"):
        assert "text has no visible character" in refused(TalkInput, **SEAT, text=text)
    assert validated(TalkInput, **SEAT, text=" hi ").text == " hi "


def test_schemas_are_flat_strict_and_described() -> None:
    for model in (PlayInput, NewGameInput, TalkInput, LogInput, WaitInput, LegalMovesInput):
        schema = model.model_json_schema()
        assert schema["additionalProperties"] is False
        assert "$defs" not in schema
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{model.__name__}.{name} has no description"
    assert json_container_fields(PlayInput) == {"moves", "structured"}
    assert json_container_fields(NewGameInput) == {"ruleset", "bots", "labels"}


def test_text_helpers_for_values_that_do_not_come_as_arguments() -> None:
    check_text("client_name", "ok", 10)
    with pytest.raises(BadArgument, match="client_name contains a lone surrogate"):
        check_text("client_name", "a\ud800", 10)
    with pytest.raises(BadArgument, match="11 characters"):
        check_text("client_name", "x" * 11, 10)
    assert clean_label("a\ud800b", 200) == "a\ufffdb"
    assert clean_label("x" * 300, 200) == "x" * 200
    assert clean_label(None, 5) is None
