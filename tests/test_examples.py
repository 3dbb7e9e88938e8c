"""The example notebooks as files and the project's own JupyterLab (`./dev lab`)."""

import asyncio
import functools
import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.ipynb"))
CONFIG = ROOT / "jupyter-config"


@functools.lru_cache(maxsize=None)
def kernel_language_info() -> dict:
    """What a kernel of this environment reports (asked in a subprocess: importing ipykernel
    here would make tqdm.auto draw notebook bars in every later test of this process)."""
    code = "import json; from ipykernel.ipkernel import IPythonKernel; print(json.dumps(IPythonKernel.language_info))"
    return json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_is_stored_clean(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) == (4, 5) and all(cell.get("id") for cell in nb.cells)
    assert nb.metadata.kernelspec == {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    # The kernel's language_info but its version, which the project's lab adds on opening.
    expected = {k: v for k, v in kernel_language_info().items() if k != "version"}
    assert nb.metadata.language_info == expected
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    # a title, then one sentence of what the notebook shows
    opening = re.match(r"# [^\n]+\n\n(This notebook [^\n]+)\n\n", first.source)
    assert opening and opening[1].endswith(".") and ". " not in opening[1], first.source[:300]


def test_the_project_lab_opens_an_example_unmodified_and_saves_it_unchanged(tmp_path):
    config = runpy.run_path(str(CONFIG / "jupyter_server_config.py"), init_globals={"get_config": lambda: _Config()})
    manager = config["ExamplesContentsManager"](root_dir=str(tmp_path))
    source = EXAMPLES[0]
    (tmp_path / "examples").mkdir()
    for path in (f"examples/{source.name}", source.name):
        (tmp_path / path).write_bytes(source.read_bytes())
    model = asyncio.run(manager.get(f"examples/{source.name}"))
    # What JupyterLab compares with the kernel's info before marking the notebook modified.
    assert model["content"]["metadata"]["language_info"] == kernel_language_info()
    asyncio.run(manager.save({"type": "notebook", "format": "json", "content": model["content"]}, f"examples/{source.name}"))
    saved = nbformat.read(tmp_path / "examples" / source.name, as_version=4)
    assert saved.metadata == nbformat.read(source, as_version=4).metadata
    assert [c.source for c in saved.cells] == [c.source for c in nbformat.read(source, as_version=4).cells]
    # A notebook outside examples/ is read and saved as it is.
    other = asyncio.run(manager.get(source.name))
    assert "version" not in other["content"]["metadata"]["language_info"]
    other["content"]["metadata"]["language_info"]["version"] = kernel_language_info()["version"]
    asyncio.run(manager.save({"type": "notebook", "format": "json", "content": other["content"]}, source.name))
    assert nbformat.read(tmp_path / source.name, as_version=4).metadata.language_info == kernel_language_info()


class _Config:
    def __getattr__(self, name):
        value = _Config()
        object.__setattr__(self, name, value)
        return value


def test_the_project_lab_has_no_news_pop_up(tmp_path):
    code = ("from jupyterlab_server.settings_utils import _get_overrides; import json, sys\n"
            "print(json.dumps(_get_overrides(sys.argv[1])[0]))")
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(CONFIG), "JUPYTER_CONFIG_DIR": str(tmp_path / "user")}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True, text=True,
                         check=True).stdout
    notification = json.loads(out)["@jupyterlab/apputils-extension:notification"]
    assert notification["fetchNews"] == "false" and notification["checkForUpdates"] is False
    dev = (ROOT / "dev").read_text()
    lab = dev[dev.index("cmd_lab() {"):dev.index("cmd_bench() {")]
    assert 'JUPYTER_CONFIG_PATH="$ROOT/jupyter-config' in lab


def test_dev_lab_passes_its_arguments_to_jupyterlab_and_says_so():
    help_text = subprocess.run([str(ROOT / "dev"), "--help"], capture_output=True, text=True).stdout
    assert "./dev lab [ARGS...]" in help_text and "--port" in help_text and "jupyter lab" in help_text
    dev = (ROOT / "dev").read_text()
    lab = dev[dev.index("cmd_lab() {"):dev.index("cmd_bench() {")]
    launch = lab[lab.index("exec jupyter lab"):]
    assert re.match(r'exec jupyter lab [^\n]*\\\n[^\n]*"\$@"\n', launch), launch
    assert 'lab)   shift; cmd_lab "$@"' in dev


def test_start_here_links_every_notebook_and_the_binder_badge_opens_it():
    start = nbformat.read(ROOT / "examples" / "start-here.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in start.cells if cell.cell_type == "markdown")
    linked = set(re.findall(r"\]\(([\w.-]+\.ipynb)\)", text))
    assert linked == {p.name for p in EXAMPLES} - {"start-here.ipynb"}
    for target in re.findall(r"\]\((\.\./docs/[\w./-]+)\)", text):
        assert (ROOT / "examples" / target).resolve().exists(), target
    readme = (ROOT / "README.md").read_text()
    assert "urlpath=lab/tree/examples/start-here.ipynb" in readme
