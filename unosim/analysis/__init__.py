"""Analyses of simulated games: estimands, intervals and designs that read datasets or ask the
runner for runs (never the engine directly). :mod:`unosim.analysis.tournament` holds the
seat-fair tournaments."""
