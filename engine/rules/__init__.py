"""The rules: what a command does (decide.py and the modules it calls: setup, turn, actions,
market, rhom, turn_end, undo), the questions about a state they share (queries.py), the fold
from events to state (evolve/) and the server's automatic removal turn (removal.py).
The package root re-exports the public part (`engine.decide`, `engine.evolve`, `engine.replay`).
"""
