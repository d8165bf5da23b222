"""Nim, a plugin game for the plugin tests and the README's "Add your own game": a pile of
stones, two seats take 1 to 3 in turn, and whoever takes the last stone wins. Installed
packages name their engine in the `cogs_arena.games` entry-point group; this one is found
through `tests/plugins/nim_game-1.0.dist-info/entry_points.txt` on `sys.path`."""
