"""A Jupyter server extension: TCP no-delay on kernel websockets, and nothing else.

A widget's round trip (a click → a message to the kernel → a small reply) is a few small
websocket writes. Jupyter Server leaves Nagle's algorithm on for the kernel's websocket, so
a small reply can wait for the browser's delayed ACK (tens of milliseconds) before it leaves
the server; tornado's ``WebSocketHandler.set_nodelay`` documents this. This extension turns
no-delay on for every kernel websocket the server opens.

It is enabled when tabletop_widgets is installed in the server's environment (the data file
``etc/jupyter/jupyter_server_config.d/tabletop_widgets.nodelay.json``). To turn it off::

    jupyter server extension disable tabletop_widgets.nodelay

It wraps the server's kernel websocket connection class (``kernel_websocket_connection_class``
in the web application's settings) in a subclass whose ``connect`` sets no-delay on its
handler first; no class is changed in place. Where that cannot apply (a server without that
setting, a connection without a websocket handler) it logs one line and steps aside.
"""

from __future__ import annotations

NAME = "tabletop_widgets.nodelay"
SETTING = "kernel_websocket_connection_class"
#: What the server's log says when the extension is on (the browser tests look for it).
ACTIVE = f"{NAME}: TCP no-delay on kernel websockets (off: jupyter server extension disable {NAME})"


def _jupyter_server_extension_points():
    return [{"module": NAME}]


def with_nodelay(base: type, log) -> type:
    """A subclass of the connection class ``base`` that sets no-delay on its websocket."""
    warned = []

    def connect(self):
        handler = getattr(self, "websocket_handler", None)
        try:
            handler.set_nodelay(True)
        except Exception as exc:  # no handler, or its stream is gone: the connection goes on as is
            if not warned:
                warned.append(True)
                log.warning(f"{NAME}: cannot set TCP no-delay ({type(exc).__name__}: {exc}); stepping aside")
        return super(cls, self).connect()

    cls = type(base.__name__, (base,), {"connect": connect, "__module__": __name__, "_tw_nodelay": True})
    return cls


def _load_jupyter_server_extension(serverapp):
    log = serverapp.log
    web_app = getattr(serverapp, "web_app", None)
    settings = getattr(web_app, "settings", None)
    base = settings.get(SETTING) if isinstance(settings, dict) else None
    if not isinstance(base, type) or not callable(getattr(base, "connect", None)):
        log.warning(f"{NAME}: this server has no kernel websocket connection class to wrap; stepping aside")
        return
    if not getattr(base, "_tw_nodelay", False):
        settings[SETTING] = with_nodelay(base, log)
    log.info(ACTIVE)
