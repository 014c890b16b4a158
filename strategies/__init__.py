"""Strategies shipped with unosim (registered in :mod:`unosim.registry`)."""

__all__: list[str] = []
