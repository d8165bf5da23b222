"""Inspect AI tasks for the games (the `inspect` extra): `inspect eval cogs_arena/territory`.

Nothing here is imported by the server, the engines or the record: Inspect is optional."""
