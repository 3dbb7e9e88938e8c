"""The JS step of the Python build (hatch-jupyter-builder's ``build-function``).

Like ``hatch_jupyter_builder.npm_builder``, but installs the exact versions of
``package-lock.json`` with ``npm ci`` (``npm install`` only when there is no lock), then runs
``npm run <build_cmd>``. Skipped when the bundles are newer than the sources, with
``--skip-npm`` or with ``HATCH_JUPYTER_BUILDER_SKIP_NPM=1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hatch_jupyter_builder.utils import is_stale, normalize_cmd


def npm_ci_builder(target_name, version, path="js", build_cmd="build", source_dir=None, build_dir=None,
                   force=False, npm="npm", **_ignored):
    if "--skip-npm" in sys.argv or os.environ.get("HATCH_JUPYTER_BUILDER_SKIP_NPM") == "1":
        return
    if build_dir and source_dir and not force and not is_stale(build_dir, source_dir):
        return
    root = Path(path).resolve()
    command = normalize_cmd(npm)
    install = "ci" if (root / "package-lock.json").is_file() else "install"
    subprocess.run([*command, install], cwd=root, check=True)
    subprocess.run([*command, "run", build_cmd], cwd=root, check=True)
