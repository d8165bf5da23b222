"""`cogs-arena view`: a transcript as steps with a picture and readable lines per perspective,
and the self-contained page that holds them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonpath import arr
from replay_helpers import PlayedGame, play_on, start_two_clients

from cogs_arena.engines import get_engine
from cogs_arena.server.cli.main import main
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts.events import Event, Header, StateTalk
from cogs_arena.transcripts.io import read_transcript
from cogs_arena.transcripts.replay import Transition, apply_transition
from cogs_arena.transcripts.viewer.html_replay import edits, page_data, rebuild, render_page
from cogs_arena.transcripts.viewer.replay_steps import ReplayBook, build_book

BLENDING_SHORT = {"players": 2, "end_rounds": 2}


def _played(root: Path, game: str, ruleset: dict[str, Any], seed: int = 5) -> PlayedGame:
    service = GameService(MemoryStore(), root / "transcripts")
    played = start_two_clients(service, game, seed=seed, ruleset=ruleset)
    assert play_on(service, played) == "over"
    return played


@pytest.fixture(scope="module")
def blending(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Event], ReplayBook]:
    played = _played(tmp_path_factory.mktemp("blending"), "blending", BLENDING_SHORT)
    events = read_transcript(played.transcript())
    return events, build_book(events)


@pytest.fixture(scope="module")
def territory(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Event], ReplayBook]:
    played = _played(tmp_path_factory.mktemp("territory"), "territory", {"turns": 3})
    events = read_transcript(played.transcript())
    return events, build_book(events)


def _text(book: ReplayBook, perspective: int) -> str:
    return "\n".join(text for step in book.steps for _, text in step.lines[perspective])


def test_one_step_per_transition_and_a_perspective_per_seat(blending: Any) -> None:
    events, book = blending
    transitions = [e for e in events if isinstance(e, Transition)]
    assert len(book.steps) == len(transitions) + 1
    assert [s.decision for s in book.steps[1:]] == [e.decision for e in transitions]
    assert book.perspectives == ["Warrior 0", "Amazon 1", "Spectator"]
    assert book.players[:2] == ["model-a", "model-b"]
    assert book.outcome is not None
    last = [text for kind, text in book.steps[-1].lines[0] if kind == "result"]
    assert last and last[0].startswith("Game over")


def test_a_seat_reads_only_what_it_could_see(blending: Any) -> None:
    _, book = blending
    seat0, seat1, spectator = (_text(book, p) for p in range(3))
    # Seat 0's rejected probe (and the why it gave) and seat 1's fallback are private.
    assert "tried nonsense: rejected [" in seat0 and "why: probing" in seat0
    assert "tried nonsense: " not in seat1 and "probing" not in seat1
    assert "tried nonsense twice: rejected" in seat1
    assert "host played" in seat1 and "host played" not in seat0
    assert "tried nonsense: rejected [" in spectator and "host played" in spectator
    # Talk: the public line reaches everyone; the whisper both seats of a two-seat game.
    assert all("Good luck, everyone." in text for text in (seat0, seat1, spectator))


def _states(events: list[Event]) -> list[Any]:
    """The state at every step, re-simulated here on its own."""
    header = events[0]
    assert isinstance(header, Header)
    engine = get_engine(header.game)
    state = engine.new_game(engine.ruleset(header.ruleset), header.seed)
    states = [state]
    for event in events:
        if isinstance(event, Transition):
            state = apply_transition(engine, state, event)
            states.append(state)
    return states


def test_a_seat_picture_shows_its_own_hand_only(blending: Any) -> None:
    events, book = blending
    engine = get_engine("blending")
    checked = 0
    for k, state in enumerate(_states(events)):
        hand = [f">{tile}<" for tile, _ in map(arr, arr(engine.observe(state, 0)["hand"]))]
        pictures = book.steps[k].pictures
        assert all(label in pictures[0] for label in hand), k
        assert not any(label in pictures[1] for label in hand), k
        assert all(label in pictures[2] for label in hand), k  # the spectator, after the game
        checked += len(hand)
    assert checked > 20


def test_a_private_line_stays_with_its_seats(territory: Any) -> None:
    events, book = territory
    whisper = "Psst, let us share."
    assert whisper in _text(book, 0) and whisper in _text(book, len(book.perspectives) - 1)
    assert whisper not in _text(book, 2)
    assert not any(whisper in step.pictures[2] for step in book.steps)
    # The step of a line queued by seat 0 is not a step of seat 2's unless something else
    # there is for seat 2 (a join before the first line): nothing of the line is its.
    transitions = [e for e in events if isinstance(e, Transition)]
    talk_steps = [k for k, e in enumerate(transitions, start=1) if isinstance(e, StateTalk)]
    quiet = [k for k in talk_steps if not book.steps[k].lines[2]]
    assert quiet
    assert not any(book.shown(k, 2) for k in quiet)
    assert all(book.shown(k, 0) for k in talk_steps)


@given(
    st.lists(st.integers(0, 6), max_size=30),
    st.lists(st.integers(0, 6), max_size=30),
)
def test_edits_rebuild_the_next_picture(before: list[int], after: list[int]) -> None:
    assert rebuild(before, edits(before, after)) == after
    assert rebuild(None, edits(None, after)) == after


def test_the_page_data_rebuilds_every_picture(territory: Any) -> None:
    _, book = territory
    data = page_data(book, "t.jsonl")
    for p in range(len(book.perspectives)):
        ids: list[int] | None = None
        for k, step in enumerate(data["steps"]):
            ids = rebuild(ids, step["svg"][p])
            assert "\n".join(data["lines"][i] for i in ids) == book.steps[k].pictures[p]
    # Far smaller than the pictures: most lines repeat from step to step.
    raw = sum(len(s) for step in book.steps for s in step.pictures)
    assert len(json.dumps(data)) < raw / 5


def test_record_text_cannot_end_the_page_script(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "transcripts")
    played = start_two_clients(service, "blending", seed=2, ruleset=BLENDING_SHORT)
    trap = "</script><script>alert(1)</script><!-- & é \u2028"
    service.talk(played.game_id, played.credentials[0], trap)
    play_on(service, played)
    page = render_page(build_book(read_transcript(played.transcript())), "x.jsonl")
    assert page.count("</script>") == 2  # the two of the page itself
    assert "<!--" not in page
    start = page.index('type="application/json">') + len('type="application/json">')
    data = json.loads(page[start : page.index("</script>", start)])
    lines = [text for step in data["steps"] for _, text in step["lines"][1]]
    said = " ".join(trap.split())  # as talk keeps it
    assert any(said in line for line in lines)
    assert not re.search(r"""(src|href)=["']?https?:""", page)  # nothing is fetched
    assert "default-src 'none'" in page


def test_view_command(blending: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events, _ = blending
    source = tmp_path / "game.jsonl"
    source.write_text("".join(e.model_dump_json() + "\n" for e in events), encoding="utf-8")
    assert main(["view", str(source), "-o", str(tmp_path / "out.html")]) == 0
    said = capsys.readouterr().out
    assert "out.html: Blending" in said and "(finished), 3 perspectives" in said
    assert (tmp_path / "out.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["view", str(source)]) == 0  # beside the transcript by default
    assert (tmp_path / "game.html").is_file()


def test_view_command_refuses_what_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blending: Any
) -> None:
    events, _ = blending
    lines = [e.model_dump_json() for e in events]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["view", str(bad)]) == 2
    assert "bad.jsonl: line 1" in capsys.readouterr().err
    tampered = tmp_path / "tampered.jsonl"
    moved = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    lines[moved] = re.sub(r'"digest":"[0-9a-f]+"', '"digest":"' + "0" * 64 + '"', lines[moved])
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["view", str(tampered), "-o", str(tmp_path / "t.html")]) == 1
    err = capsys.readouterr().err
    assert f"line {moved + 1}: the state after this move differs" in err
    assert not (tmp_path / "t.html").exists()
