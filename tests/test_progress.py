"""`simulate`'s progress: a redrawn bar on a terminal, plain lines (no carriage returns) in a
log file or pipe."""

from __future__ import annotations

import io

from cogs_arena.server.series.simulate import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_redrawn_bar() -> None:
    out = Terminal()
    progress = Progress(4, out)
    for done in range(1, 5):
        progress.show(done)
    text = out.getvalue()
    assert text.startswith("\r[") and text.endswith("games/s\n") and "4/4 games" in text


def test_a_log_file_gets_plain_lines() -> None:
    out = io.StringIO()
    progress = Progress(3, out)
    for done in range(1, 4):
        progress.show(done)
    text = out.getvalue()
    assert "\r" not in text
    # Within the plain interval only the end is written, as one whole line.
    assert text.startswith("simulate: 3/3 games, ") and text.count("\n") == 1
