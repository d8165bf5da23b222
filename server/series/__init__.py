"""Bot series: `cogs-arena simulate`, one game as the host plays it (`play`), the numbers
of a series (`numbers`) and series compared under several rulesets (`compare`).

May import: the host core (referee, sessions, records), `engines`, the record."""
