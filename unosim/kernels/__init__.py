"""numba kernels of the engine, one module per rule family.

``layout`` documents every array of the batch state; ``advance`` is the phase
machine that steps all game slots of a batch between two rounds of strategy
decisions.
"""
