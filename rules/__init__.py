"""Pure game logic for molebox: no I/O, no threads, no clock, no global RNG.

Each game is one state machine in its own module. :mod:`rules.model` holds the
shared vocabulary (decisions, moves, events), :mod:`rules.match` wraps a game
with secret simultaneous groups, chance and a replayable transcript.
"""
