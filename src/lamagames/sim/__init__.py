"""Simulation: run games between bots, collect statistics."""
