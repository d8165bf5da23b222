"""Territory: the nine-seat social-dilemma game (rules.md).

The skeleton every game folder shares, then this game's own modules:

- `ruleset.py`: the settings (DECISIONS §1);
- `state.py`: the game state, immutable and serialised exactly;
- `moves.py`: a seat's whole turn (orders, talk, note), its text and JSON forms;
- `rules.py`: legality, costs and reach against the pre-turn state;
- `resolve.py`: the transition, one turn's resolution phase by phase;
- `menu.py`: the legal-move menu, single orders with their costs and risks;
- `views.py`: observations and spectator views;
- `render.py`: the text of a view;
- `brief.py`: the brief text a seat gets after a move (what changed, what to decide with);
- `picture.py`: the SVG picture of a view;
- `news.py`: what one resolved turn did, in lines every seat may read;
- `bots.py`: the bots, from an observation only;
- `search.py`: the search bot's levels, planning from an observation only;
- `sampling.py`: states consistent with an observation, for the search;
- `numbers.py`: the game's own numbers for `cogs-arena simulate`;
- `engine.py`: the protocol's class, over the modules above;
- `schema.py`: the JSON Schema of a move's structured form;
- `board.py`: the hex lattice, the board generator and its lookup tables;
- `seeded.py`: the seeded bots, ties broken from the decision's stream.
"""
