"""The optional ``[analysis]`` extra: an error that says what to install when it is missing."""

from __future__ import annotations

INSTALL = "pip install 'tabletop_widgets[analysis]'"


def missing(exc: ModuleNotFoundError, feature: str) -> ModuleNotFoundError:
    """The error to raise instead of ``exc`` when ``feature`` lacks a module of the extra."""
    name = exc.name or "a module of the [analysis] extra"
    return ModuleNotFoundError(f"{feature} needs {name}, which is not installed: {INSTALL}", name=exc.name)


def numpy_or_none():
    """numpy (an extra of the analysis layer, imported on first use), or None without it."""
    try:
        import numpy as np
    except ModuleNotFoundError:
        return None
    return np
