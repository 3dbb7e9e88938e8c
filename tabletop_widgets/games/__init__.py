"""One subpackage per game; importing this registers them all."""

from . import mamba, mamma_mia, mammuz  # noqa: F401  (registration)
