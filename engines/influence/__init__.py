"""Influence: a deterministic two-player territory game on a hex board (rules.md).

The skeleton every game folder shares, then this game's own modules:

- `ruleset.py`: the settings and their defaults;
- `state.py`: the game state and its JSON form;
- `moves.py`: moves, their canonical text and JSON forms;
- `rules.py`: the transitions (attacks, reinforcement, turn order, the end);
- `menu.py`: the legal-move menu, with what each move would do;
- `views.py`: observations and spectator views;
- `render.py`: the text of a view;
- `picture.py`: the SVG picture of a view;
- `news.py`: what one move did, in a line every seat may read;
- `bots.py`: the bots, from an observation only;
- `search.py`: the search bot's levels, planning from an observation only;
- `numbers.py`: the game's own numbers for `cogs-arena simulate`;
- `engine.py`: the protocol's class, over the modules above;
- `schema.py`: the JSON Schema of a move's structured form;
- `board.py`: the maps, their cells, caps and neighbours;
- `opening.py`: the seeded opening's drawn map;
- `allocations.py`: the menu's whole-turn reinforcements;
- `history.py`: each seat's last complete turn, for the views.
"""
