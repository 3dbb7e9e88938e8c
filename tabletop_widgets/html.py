"""HTML replays that play with no kernel (``tw.html``); they live in :mod:`.core.html`."""

from .core.html import replay_data, replay_document, replay_fragment, replay_script, standalone_bundle, write_html

__all__ = ["replay_data", "replay_document", "replay_fragment", "replay_script", "standalone_bundle", "write_html"]
