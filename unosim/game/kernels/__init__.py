"""numba kernels of the engine, one module per rule family.

``layout`` documents every array of the batch state; ``advance`` is the phase
machine that steps all game slots of a batch between two rounds of strategy
decisions.

Compiled kernels are cached on disk. numba keys a cache entry on the source
file of the top-level function only, so a change in a rule module would not
invalidate it: the cache directory is therefore named after a hash of every
kernel module's source (and of ``cards.py`` and ``rules.py``, whose constants and choice codes
the kernels freeze) (``~/.cache/unosim/numba-<hash>``, or under
``$XDG_CACHE_HOME``; an explicit ``NUMBA_CACHE_DIR`` wins).
"""

import hashlib
import os
from pathlib import Path

import numba

__all__ = ["SOURCE_DIGEST"]

_here = Path(__file__).parent
_digest = hashlib.sha1()
for _path in sorted(_here.glob("*.py")) + [_here.parent / "cards.py", _here.parent / "rules.py"]:
    _digest.update(_path.read_bytes())
SOURCE_DIGEST = _digest.hexdigest()[:16]
"""Hash of the kernel sources: names the cache directory and the compile marker (``unosim.engine.kernel_cache``)."""
if not os.environ.get("NUMBA_CACHE_DIR"):
    _base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba.config.CACHE_DIR = str(_base / "unosim" / f"numba-{SOURCE_DIGEST}")  # type: ignore[attr-defined]
