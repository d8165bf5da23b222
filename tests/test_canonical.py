"""Canonical JSON (engines/canonical.py) is byte for byte its definition, `json.dumps` with
sorted keys, compact separators and UTF-8 as is, whichever path writes it: for arbitrary JSON
values (floats of every magnitude, integers past 64 bits, lone surrogates, U+2028, controls,
non-string keys) and for every state and observation of random games of every engine."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs_arena.engines import get_engine
from cogs_arena.engines.canonical import canonical_bytes, canonical_json
from cogs_arena.engines.registry import names
from cogs_arena.transcripts.events import view_digest


def reference(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.sampled_from(
    ["\ud800", "a\udfffb", "\u2028\u2029\x85", "\x00\x1f\x7f", "3e-5", "0.00001", "é"]
)
NUMBER = (
    st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**65)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-5, 1e16, 1e22, -1e-7, 5e-324, 1.7976931348623157e308, 0.1, -0.0])
)
SCALAR = st.none() | st.booleans() | NUMBER | TEXT
VALUE = st.recursive(
    SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(TEXT, inner, max_size=4)
        | st.dictionaries(st.integers(0, 9).map(str), inner, max_size=3)
    ),
    max_leaves=20,
)


@pytest.mark.slow  # a fuzz run of 600 examples
@settings(max_examples=600, deadline=None)
@given(VALUE)
def test_any_json_value_is_written_as_the_definition(value: Any) -> None:
    expected = reference(value)
    assert canonical_json(value) == expected
    assert canonical_bytes(value) == expected.encode("utf-8", "surrogatepass")


def test_the_paths_orjson_cannot_take_give_the_definition() -> None:
    awkward: list[Any] = [
        {"big": 2**70, "small": -(2**64)},
        {"lone": "\udc80"},
        {2: "int keys", 10: "sort as numbers"},
        {"exp": [1e-5, 1e16, 2.5e-300], "near": 0.0001},
        {"text": "a 3e-5 string, 10.00001"},
    ]
    for value in awkward:
        assert canonical_bytes(value) == reference(value).encode("utf-8", "surrogatepass")


def test_states_observations_and_digests_of_every_game_match_the_definition() -> None:
    rng = random.Random(11)
    for name in names():
        engine = get_engine(name)
        ruleset = engine.ruleset()
        checked = 0
        for seed in range(2):
            state = engine.new_game(ruleset, seed)
            for _ in range(120):
                seats = engine.to_act(state)
                if not seats:
                    break
                values = [engine.state_to_json(state)] + [engine.observe(state, s) for s in seats]
                values.append(engine.spectate(state, full=False))
                for value in values:
                    assert canonical_bytes(value) == reference(value).encode()
                    checked += 1
                text = reference(engine.state_to_json(state))
                assert engine.digest(state) == hashlib.sha256(text.encode()).hexdigest()
                observation = engine.observe(state, seats[0])
                assert (
                    view_digest(observation)
                    == (hashlib.sha256(reference(observation).encode()).hexdigest()[:32])
                )
                if engine.simultaneous:
                    state = engine.apply_batch(
                        state, {s: engine.default_move(state, s) for s in seats}
                    )
                else:
                    seat = seats[0]
                    entry = rng.choice(list(engine.legal_moves(state, seat).moves))
                    move = engine.parse_move(state, seat, entry.notation)
                    state = engine.apply(state, seat, move)
        assert checked > 50, name
