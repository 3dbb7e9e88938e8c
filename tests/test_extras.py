"""Without the [analysis] extra, the features that need it say what to install."""

import subprocess
import sys

import pytest

INSTALL = "pip install 'tabletop_widgets[analysis]'"


def run_without(module: str, code: str) -> subprocess.CompletedProcess:
    # None in sys.modules makes "import module" fail as if it were not installed.
    prelude = f"import sys; sys.modules[{module!r}] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module, code, feature", [
    ("pandas", "import tabletop_widgets as tw; tw.simulate('mamba', games=1, progress=False)", "tw.simulate"),
    ("gymnasium", "from tabletop_widgets import pettingzoo", "tabletop_widgets.pettingzoo"),
    ("pettingzoo", "from tabletop_widgets.pettingzoo import env", "tabletop_widgets.pettingzoo"),
])
def test_a_missing_module_names_the_extra_to_install(module, code, feature):
    proc = run_without(module, code)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last == f"ModuleNotFoundError: {feature} needs {module}, which is not installed: {INSTALL}"


def test_the_engines_and_the_command_line_games_work_without_the_extra():
    proc = run_without("pandas", "import sys; sys.modules['gymnasium'] = None\n"
                                 "import tabletop_widgets as tw\n"
                                 "from tabletop_widgets.__main__ import main\n"
                                 "m = tw.Match('mamba', seed=1); m.play(m.state.legal_actions()[0])\n"
                                 "sys.exit(main(['games']))")
    assert proc.returncode == 0, proc.stderr
    assert "mamba  (" in proc.stdout


def test_the_command_line_simulate_says_what_to_install_in_one_line():
    proc = run_without("pandas", "from tabletop_widgets.__main__ import main; import sys\n"
                                 "sys.exit(main(['simulate', 'mamba', '--games', '1', '--quiet']))")
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"tabletop-widgets: error: tw.simulate needs pandas, which is not installed: {INSTALL}"
