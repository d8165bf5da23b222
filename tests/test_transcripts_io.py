"""Transcript files: lines round-trip any valid string, bad files are named by line, the last
seq is read from the tail, and a rewrite is atomic."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cogs_arena.transcripts import TranscriptDir, TranscriptError, read_transcript, strip_wall
from cogs_arena.transcripts.events import (
    Event,
    Header,
    Player,
    SeatEntry,
    Talk,
    event_json,
)

NAME = "demo-0123456789abcdef.jsonl"  # not a game's name: conftest does not replay it
TRICKY = "a\u2028b\u2029c\u0085d\ne 👩\u200d💻 \r\x00 \\u2028 end"


def header(**wall: object) -> Header:
    seats = [SeatEntry(index=i, name=n, player=Player(kind="llm")) for i, n in enumerate("AB")]
    return Header(
        seq=1,
        server_version="test",
        game="influence",
        ruleset={},
        seed=1,
        seats=seats,
        wall=dict(wall) or None,
    )


def talk(seq: int, text: str = "hi") -> Talk:
    return Talk(seq=seq, seat=0, to=None, text=text)


def test_line_breaks_and_emoji_inside_strings_round_trip(tmp_path: Path) -> None:
    store = TranscriptDir(tmp_path)
    events: list[Event] = [header(), talk(2, TRICKY), Talk(seq=3, seat=1, to=[0], text="\u2028")]
    store.append(NAME, events[:1])
    store.append(NAME, events[1:])
    raw = store.path(NAME).read_bytes()
    assert raw.count(b"\n") == 3 and raw.endswith(b"\n")
    for separator in ("\u2028", "\u2029", "\u0085"):
        assert separator.encode() not in raw
    back = read_transcript(store.path(NAME))
    assert back == events
    assert isinstance(back[1], Talk) and back[1].text == TRICKY


def test_strip_wall_drops_only_the_wall_clock(tmp_path: Path) -> None:
    one, two = header(started=1.5), header(started=99.0)
    assert event_json(one) != event_json(two)
    assert strip_wall(one) == strip_wall(two)
    assert "wall" not in strip_wall(one) and strip_wall(one)["game"] == "influence"


def test_a_broken_line_is_named_by_file_and_number(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    good = event_json(header()) + "\n" + event_json(talk(2)) + "\n"
    path.write_text(good + '{"type": "talk", "seq": 3, "seat": 0\n' + event_json(talk(4)) + "\n")
    with pytest.raises(TranscriptError, match=r"broken\.jsonl: line 3") as info:
        read_transcript(path)
    assert info.value.line == 3 and info.value.path == str(path)

    path.write_text(event_json(talk(1)) + "\n")
    with pytest.raises(TranscriptError, match="line 1: talk event where the header should be"):
        read_transcript(path)
    path.write_text(good + event_json(header()) + "\n")
    with pytest.raises(TranscriptError, match="line 3: a second header"):
        read_transcript(path)
    path.write_text(good.replace("\n", "\n\n", 1))
    with pytest.raises(TranscriptError, match="line 2: empty line"):
        read_transcript(path)
    path.write_bytes(b"")
    with pytest.raises(TranscriptError, match="empty file"):
        read_transcript(path)
    path.write_bytes(good.encode() + b'{"type":"talk","seq":3,"seat":0,"to":null,"text":"\xff"}\n')
    with pytest.raises(TranscriptError, match="line 3"):
        read_transcript(path)
    with pytest.raises(TranscriptError, match="cannot read"):
        read_transcript(tmp_path / "missing.jsonl")


def test_an_old_schema_is_named(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text('{"type":"header","schema":1,"game":"influence"}\n')
    with pytest.raises(TranscriptError, match="line 1: schema version 1; this version reads 2"):
        read_transcript(path)


def test_last_seq_reads_the_last_complete_line(tmp_path: Path) -> None:
    store = TranscriptDir(tmp_path)
    assert store.last_seq(NAME) == 0
    store.path(NAME).write_bytes(b"")
    assert store.last_seq(NAME) == 0
    store.append(NAME, [header(), talk(2, "x" * 200_000)])  # longer than one tail block
    assert store.last_seq(NAME) == 2
    store.append(NAME, [talk(3, TRICKY)])
    assert store.last_seq(NAME) == 3

    whole = store.path(NAME).read_bytes()
    with store.path(NAME).open("ab") as handle:  # a crash in the middle of a line
        handle.write(event_json(talk(4)).encode()[:20])
    assert store.last_seq(NAME) == 3
    store.append(NAME, [talk(4)])  # the torn line is cut, not continued
    assert store.path(NAME).read_bytes() == whole + (event_json(talk(4)) + "\n").encode()
    assert [e.seq for e in read_transcript(store.path(NAME))] == [1, 2, 3, 4]

    store.path(NAME).write_bytes(b"not json\n")
    assert store.last_seq(NAME) == 0
    store.path(NAME).write_bytes(b"half a line")
    assert store.last_seq(NAME) == 0


def test_rewrite_replaces_the_file_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = TranscriptDir(tmp_path)
    store.append(NAME, [header(), talk(2), talk(3)])
    before = store.path(NAME).read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        store.rewrite(NAME, [header(), talk(2, "new")])
    assert store.path(NAME).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAME]  # no temporary file left
    monkeypatch.undo()

    store.rewrite(NAME, [header(), talk(2, "new")])
    assert [e.seq for e in read_transcript(store.path(NAME))] == [1, 2]
    assert store.last_seq(NAME) == 2
    assert store.names() == [NAME]


def test_append_is_thread_safe(tmp_path: Path) -> None:
    store = TranscriptDir(tmp_path)
    store.append(NAME, [header()])

    def writer(seat: int) -> None:
        for _ in range(50):
            store.append(NAME, [Talk(seq=2, seat=seat, to=None, text="y" * 5000)])

    threads = [threading.Thread(target=writer, args=(s,)) for s in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(read_transcript(store.path(NAME))) == 1 + 4 * 50


def test_names_outside_the_directory_are_refused(tmp_path: Path) -> None:
    store = TranscriptDir(tmp_path)
    for bad in ("../x.jsonl", "a/b.jsonl", ".hidden.jsonl", "x.txt", ""):
        with pytest.raises(ValueError, match="not a transcript file name"):
            store.path(bad)
    with pytest.raises(ValueError, match="surrogates"):
        store.append(NAME, [header(), talk(2, "\ud800")])
    assert not store.path(NAME).exists()  # nothing half-written
