"""``python -m unosim`` runs the command line (same as the ``unosim`` script)."""

from .cli import main

if __name__ == "__main__":
    main()
