"""Published output schemas are the models' schemas with references inlined and nullable
unions written as type lists: the same results pass and fail, and a client that checks every
result (the SDK's does) no longer resolves references or tries two subschemas per field."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from cogs_arena.server.adapter.support import inline_refs
from cogs_arena.server.models import NewGame, PlayResult, Rejection, View, WaitResult


def view(**changes: Any) -> dict[str, Any]:
    base = View(
        game_id="g" * 16,
        game="influence",
        seat=1,
        seat_name="Black",
        status="active",
        your_turn=True,
        to_act=["Black"],
        decision=3,
        observation={},
    )
    return {**base.model_dump(mode="json"), **changes}


GOOD: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (PlayResult, {"game_id": "g", "accepted": ["end"], "view": view()}),
    (
        PlayResult,
        {
            "game_id": "g",
            "accepted": [],
            "rejected": Rejection(index=0, move="x", reason="r", code="c").model_dump(),
            "view": view(seed="123", outcome={"winners": [0]}),
        },
    ),
    (PlayResult, {"game_id": "g", "accepted": [], "view": view(seed=None, seat=None)}),
]
BAD: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (PlayResult, {"game_id": "g", "accepted": [], "rejected": {"index": "0"}, "view": view()}),
    (PlayResult, {"game_id": "g", "accepted": [], "view": view(seed=1.5)}),
    (PlayResult, {"game_id": "g", "accepted": [], "view": view(since=[{"seat": 3}])}),
    (PlayResult, {"game_id": 5, "accepted": [], "view": view()}),
]


@pytest.mark.parametrize(("model", "instance"), GOOD + BAD)
def test_the_published_schema_judges_results_as_the_model_does(
    model: type[BaseModel], instance: dict[str, Any]
) -> None:
    raw = model.model_json_schema(mode="serialization")
    published = inline_refs(raw)
    assert published is not None
    jsonschema.Draft202012Validator.check_schema(published)
    as_model = not list(jsonschema.Draft202012Validator(raw).iter_errors(instance))
    as_published = not list(jsonschema.Draft202012Validator(published).iter_errors(instance))
    assert as_model == as_published == ((model, instance) in GOOD)


@pytest.mark.parametrize("model", [PlayResult, NewGame, View, WaitResult])
def test_no_references_and_no_nullable_unions_are_left(model: type[BaseModel]) -> None:
    text = json.dumps(inline_refs(model.model_json_schema(mode="serialization")))
    assert "$ref" not in text and "$defs" not in text and '{"type": "null"}' not in text
