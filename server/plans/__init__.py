"""Plans: the lines a player leaves for their next turn while it is not theirs (docs/plans.md).

- `store`: keeping, reading and clearing a plan (one per seat; a new one replaces it), and what
  a plan may hold;
- `reactions`: after every command, the acting seat's plan is cleared, and a seat whose turn
  comes with a plan is due at once (the scheduler plays it: server/scheduler/automatic.py);
- `playing`: the plan played line by line through `engine.text.script.Script`, the same runner
  as a mail's reply, while each line is legal.

A plan is its player's alone: only `store.get` reads it, and only for that player's own seat.
"""
