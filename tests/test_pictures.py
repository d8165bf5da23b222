"""The board pictures: each game's SVG for fixed seeds and positions matches a stored file, is
well-formed XML, renders to a PNG of the SVG's size under 100 KB, and shows a seat nothing its
observation does not hold.

When a renderer changes on purpose, regenerate the stored pictures and review the diff:

    COGS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_pictures.py

(the files are tests/golden/<game>-<position>-<viewer>.svg).
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from jsonpath import arr, objs

from cogs_arena.engines import get_engine
from cogs_arena.engines.positions import EXAMPLE_BOTS, example
from cogs_arena.engines.svg import clean, num
from cogs_arena.server.pictures import MAX_PNG_BYTES, font_files, png, png_size

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("COGS_REGEN_GOLDEN") == "1"
CASES = [
    (game, moment, viewer)
    for game in EXAMPLE_BOTS
    for moment, viewer in (("start", "seat0"), ("mid", "seat0"), ("mid", "spectator"))
]


def _state(game: str, moment: str) -> Any:
    return example(get_engine(game), mid=moment == "mid")


def _view(game: str, state: Any, viewer: str) -> dict[str, Any]:
    engine = get_engine(game)
    if viewer == "spectator":
        return engine.spectate(state, full=False)
    if viewer == "full":
        return engine.spectate(state, full=True)
    return engine.observe(state, int(viewer.removeprefix("seat")))


def _picture(game: str, moment: str, viewer: str) -> str:
    return get_engine(game).picture(_view(game, _state(game, moment), viewer))


def _size(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.attrib["width"]), int(root.attrib["height"])


@pytest.mark.parametrize(("game", "moment", "viewer"), CASES)
def test_picture_matches_the_stored_file(game: str, moment: str, viewer: str) -> None:
    svg = _picture(game, moment, viewer)
    path = GOLDEN / f"{game}-{moment}-{viewer}.svg"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8", newline="\n")
    assert path.is_file(), f"{path} is missing: run COGS_REGEN_GOLDEN=1 pytest {__file__}"
    stored = path.read_text(encoding="utf-8")
    assert svg == stored, (
        f"{game} {moment} {viewer}: the picture changed. If on purpose, regenerate with "
        "COGS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_pictures.py"
    )
    assert svg == _picture(game, moment, viewer), "a picture must be deterministic"


@pytest.mark.parametrize("game", list(EXAMPLE_BOTS))
def test_picture_is_well_formed_and_shows_the_turn_and_scores(game: str) -> None:
    svg = _picture(game, "mid", "seat0")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    turn = {
        "influence": "turn 7 of 100",
        "territory": "turn 10 of 18",
        "chemistry": "tick 240 of 720",
        "blending": "round 7 of 10",
    }[game]
    assert turn in words
    assert "Legend" in words and "You are" in words
    assert re.search(r"score|area \d+|ate \d+", words), "the scores are drawn"


@pytest.mark.parametrize("game", list(EXAMPLE_BOTS))
def test_png_has_the_pictures_size_and_fits_in_100_kb(game: str) -> None:
    svg = _picture(game, "mid", "seat0")
    data = png(svg)
    assert png_size(data) == _size(svg)
    assert data[25] == 3, "a palette PNG (colour type 3)"
    assert len(data) < MAX_PNG_BYTES, f"{game}: {len(data)} bytes"


def test_pictures_draw_text_with_the_dejavu_fonts() -> None:
    assert font_files(), (
        "DejaVu Sans was not found (the pictures' text needs it): install Debian's "
        "fonts-dejavu-core, as scripts/setup-dev does"
    )


def test_text_from_a_view_is_escaped_and_numbers_are_fixed() -> None:
    assert clean('a\x00<b>&"\ud800\x1f') == "a&lt;b&gt;&amp;&quot;"
    assert [num(x) for x in (0.0, -0.001, 1.5, 2.0, 1 / 3, 12.3456)] == [
        "0",
        "0",
        "1.5",
        "2",
        "0.33",
        "12.35",
    ]


# ---- hidden information ------------------------------------------------------------------------


def _tile_names(svg: str) -> set[str]:
    return set(re.findall(r">(t\d+)\*?<", svg))


def test_blending_seat_picture_holds_no_rival_hand() -> None:
    engine = get_engine("blending")
    state = _state("blending", "mid")
    full = engine.spectate(state, full=True)
    mine = engine.observe(state, 0)
    public = set(re.findall(r"\bt\d+\b", str({k: v for k, v in mine.items() if k != "hand"})))
    rivals = {
        arr(t)[0] for p in objs(full["players"]) if p["seat"] != 0 for t in arr(p.get("hand", []))
    } - public
    assert rivals, "the position must leave tiles in rivals' hands"
    own = {arr(t)[0] for t in arr(mine["hand"])}
    seat_svg = engine.picture(mine)
    assert own <= _tile_names(seat_svg), "the seat's own hand is drawn"
    assert not rivals & _tile_names(seat_svg), "a rival's hand tile is in seat 0's picture"
    spectator_svg = engine.picture(engine.spectate(state, full=False))
    assert not (rivals | own) & _tile_names(spectator_svg)
    assert rivals <= _tile_names(engine.picture(full)), "the full view after the end shows hands"


def test_territory_seat_picture_shows_only_its_own_paint() -> None:
    engine = get_engine("territory")
    state = _state("territory", "mid")
    seat_svg = engine.picture(engine.observe(state, 0))
    full_svg = engine.picture(engine.spectate(state, full=True))
    assert len(re.findall(r"paint \d+", seat_svg)) == 1, "the seat's own paint, once"
    assert not re.findall(r"paint \d+", engine.picture(engine.spectate(state, full=False)))
    assert len(re.findall(r"paint \d+", full_svg)) == 9


def test_private_talk_and_notes_are_not_drawn() -> None:
    territory = get_engine("territory")
    state = territory.talk(_state("territory", "mid"), 1, "SECRET-TALK-7", (2,))
    for view in (territory.observe(state, 0), territory.spectate(state, full=False)):
        assert "SECRET-TALK-7" not in territory.picture(view)
    chemistry = get_engine("chemistry")
    state = _state("chemistry", "start")
    moves = {
        seat: chemistry.parse_move(state, seat, "supply resin amber\nnotes: SECRET-NOTE-7")
        for seat in chemistry.to_act(state)
    }
    state = chemistry.apply_batch(state, moves)
    assert "SECRET-NOTE-7" in str(chemistry.observe(state, 1)), "the marker was planted"
    for view in (chemistry.observe(state, 0), chemistry.spectate(state, full=False)):
        assert "SECRET-NOTE-7" not in chemistry.picture(view)
