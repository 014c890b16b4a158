"""Strategies shipped with unosim (registered in :mod:`unosim.registry`)."""
