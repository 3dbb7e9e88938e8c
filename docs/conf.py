"""The documentation site: Sphinx with myst-nb, built offline by ``./dev docs``.

The source directory is the repository's root (``sphinx-build -c docs . OUT``) so that the
rules pages, the architecture page, the README's tour and the example notebooks are read
where they live, with their relative links intact. Notebooks are executed at build time;
each widget is shown by its ``application/javascript`` fallback, a self-contained replay that
steps in the page with no kernel and no network (myst-nb writes it as a raw ``<script>``, which
builds the replay's container right where it stands and hides the widget's picture before it).
"""

from __future__ import annotations

import tabletop_widgets

project = "tabletop_widgets"
author = "the tabletop_widgets authors"
copyright = "the tabletop_widgets authors"
release = tabletop_widgets.__version__ if hasattr(tabletop_widgets, "__version__") else ""

extensions = ["myst_nb"]

root_doc = "docs/index"
# Only these are pages; everything else in the repository (the venv, node_modules, tests…)
# is not walked for sources.
include_patterns = ["docs/**", "examples/*.ipynb", "README.md"]
exclude_patterns = ["docs/_build", "docs/_extra", "**/.ipynb_checkpoints",
                    ".venv", "js", "build", "tests", "bench", "binder", "tabletop_widgets"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Execute every example notebook on each build: the pages show what the code does today.
nb_execution_mode = "force"
nb_execution_timeout = 180
nb_execution_raise_on_error = True
nb_execution_show_tb = True
# The live widget view needs a kernel; the page shows the widget's replay fallback instead,
# and no widget manager is loaded from a CDN.
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
    ("html", "application/vnd.jupyter.widget-state+json", None),
    ("html", "application/javascript", 20),  # the replay, before any picture
]
nb_ipywidgets_js = {}
nb_merge_streams = True

html_theme = "furo"
html_title = "tabletop_widgets"
html_static_path = []
# The site's root page leads to the documentation's first page.
html_extra_path = ["_extra"]
html_show_sourcelink = False
html_copy_source = False
# Furo's arrow-key page turning stays off: on these pages ← and → step the widgets' replays.
html_theme_options = {"navigation_with_keys": False}

# Warnings are errors in ./dev docs (-W); these are not the project's to fix.
suppress_warnings = ["myst.xref_missing", "misc.highlighting_failure"]
