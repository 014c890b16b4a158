"""``python -m unosim.cli`` runs the command line (same as the ``unosim`` script)."""

from . import main

if __name__ == "__main__":
    main()
