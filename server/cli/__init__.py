"""The `cogs-arena` command, one module per command family: `main` (the parser, serve,
replay, score), `evaluate` (rate, compare, export), `fork`, `view`, `demo`.

May import: every room of the package; nothing imports it but `__main__`."""

from .main import main

__all__ = ["main"]
