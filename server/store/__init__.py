"""The session stores: where games live between calls and across restarts (memory, SQLite,
PostgreSQL), what they keep besides state and events (`records`), and the choice of one
from `--store` (`choose`).

May import: `engines`, the record (`transcripts`), and nothing of the host above it."""
