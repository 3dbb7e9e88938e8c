"""The project's own JupyterLab (`./dev lab` puts this folder on JUPYTER_CONFIG_PATH).

JupyterLab writes the kernel's `language_info` into a notebook's metadata when the kernel
starts, and marks the notebook modified unless the file held exactly that, Python version
included. The example notebooks keep a `language_info` without the version (it differs per
machine); this contents manager adds the running Python's version when an example is opened
and drops it again when it is saved, so an example opens unmodified and saves unchanged. Other
notebooks are read and written as they are.
"""

import copy
import sys

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

VERSION = sys.version.split()[0]  # what ipykernel reports for a kernel of this environment


def _example(path) -> bool:
    return str(path).strip("/").startswith("examples/")


class ExamplesContentsManager(AsyncLargeFileManager):
    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if _example(path) and model.get("type") == "notebook" and model.get("content"):
            info = model["content"].get("metadata", {}).get("language_info")
            if isinstance(info, dict) and info.get("name") == "python" and "version" not in info:
                info["version"] = VERSION
        return model

    async def save(self, model, path=""):
        if _example(path) and model.get("type") == "notebook" and model.get("content"):
            model = copy.deepcopy(model)
            info = model["content"].get("metadata", {}).get("language_info")
            if isinstance(info, dict) and info.get("version") == VERSION:
                del info["version"]
        return await super().save(model, path)


c = get_config()  # noqa: F821  (defined by the config loader)
c.ServerApp.contents_manager_class = ExamplesContentsManager
