"""The package version (its own module, so that modules of the package can read it without importing the package)."""

__version__ = "0.1.0"

__all__ = ["__version__"]
