"""tabletop_widgets.nodelay: the server extension that sets TCP no-delay on kernel websockets."""

import json
import logging
import sys
from pathlib import Path

import pytest

from tabletop_widgets import nodelay
from tabletop_widgets.nodelay import ACTIVE, NAME, SETTING


class Handler:
    """Stands for tornado's WebSocketHandler: records set_nodelay."""

    def __init__(self, fail=False):
        self.nodelay, self.fail = [], fail

    def set_nodelay(self, value):
        if self.fail:
            raise AttributeError("'NoneType' object has no attribute 'set_nodelay'")
        self.nodelay.append(value)


class Connection:
    """Stands for a kernel websocket connection class (jupyter_server's BaseKernelWebsocketConnection)."""

    opened: list = []

    def __init__(self, websocket_handler):
        self.websocket_handler = websocket_handler

    def connect(self):
        # The handler must already be in no-delay mode when the connection starts talking.
        Connection.opened.append(list(getattr(self.websocket_handler, "nodelay", [])))
        return "connected"


class App:
    def __init__(self, settings):
        self.web_app = type("WebApp", (), {"settings": settings})()
        self.log = logging.getLogger("test-nodelay-server")


def test_loading_wraps_the_connection_class_and_connect_sets_no_delay_first(caplog):
    settings = {SETTING: Connection}
    with caplog.at_level(logging.INFO, "test-nodelay-server"):
        nodelay._load_jupyter_server_extension(App(settings))
    wrapped = settings[SETTING]
    assert wrapped is not Connection and issubclass(wrapped, Connection)
    assert Connection.connect is not wrapped.connect  # the server's class is left as it was
    handler = Handler()
    Connection.opened = []
    assert wrapped(handler).connect() == "connected"
    assert handler.nodelay == [True] and Connection.opened == [[True]]
    assert [r.getMessage() for r in caplog.records] == [ACTIVE]
    # Loading twice (two extension apps sharing a server) wraps once.
    nodelay._load_jupyter_server_extension(App(settings))
    assert settings[SETTING] is wrapped


def test_a_connection_that_cannot_take_no_delay_warns_once_and_still_connects(caplog):
    settings = {SETTING: Connection}
    nodelay._load_jupyter_server_extension(App(settings))
    with caplog.at_level(logging.WARNING, "test-nodelay-server"):
        assert settings[SETTING](Handler(fail=True)).connect() == "connected"
        assert settings[SETTING](Handler(fail=True)).connect() == "connected"
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "cannot set TCP no-delay" in warnings[0] and "stepping aside" in warnings[0]


@pytest.mark.parametrize("settings", [{}, {SETTING: None}, {SETTING: "not a class"}, None])
def test_a_server_without_a_connection_class_gets_one_line_and_is_left_alone(settings, caplog):
    app = App(settings)
    before = dict(settings) if settings is not None else None
    with caplog.at_level(logging.INFO, "test-nodelay-server"):
        nodelay._load_jupyter_server_extension(app)
    assert (dict(settings) if settings is not None else None) == before
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "stepping aside" in lines[0] and ACTIVE not in lines


def test_jupyter_servers_own_connection_class_takes_the_wrapper():
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    wrapped = nodelay.with_nodelay(ZMQChannelsWebsocketConnection, logging.getLogger("x"))
    assert issubclass(wrapped, ZMQChannelsWebsocketConnection)
    # The server keeps one table of open sessions for the class: the subclass shares it.
    assert wrapped._open_sessions is ZMQChannelsWebsocketConnection._open_sessions
    assert "websocket_handler" in ZMQChannelsWebsocketConnection.class_trait_names()


def test_the_installed_environment_enables_the_extension():
    """The data file pip installs (editable or not) into the environment's Jupyter config."""
    from jupyter_server.extension.serverextension import ExtensionConfigManager

    path = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / f"{NAME}.json"
    assert json.loads(path.read_text()) == {"ServerApp": {"jpserver_extensions": {NAME: True}}}
    manager = ExtensionConfigManager(read_config_path=[str(Path(sys.prefix) / "etc" / "jupyter")])
    assert manager.get_jpserver_extensions().get(NAME) is True
    assert nodelay._jupyter_server_extension_points() == [{"module": NAME}]
