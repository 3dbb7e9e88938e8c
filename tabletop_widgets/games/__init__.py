"""One subpackage per game; importing this registers them all."""

from . import mamba, mamma_mia  # noqa: F401  (registration)
