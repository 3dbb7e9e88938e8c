"""What the benchmark scripts share (imported by them; `./dev bench` runs only bench_*.py)."""

from __future__ import annotations

import json
import pathlib


def write_results(doc: dict, path) -> None:
    """Write a benchmark's figures as JSON to ``path`` (its folder made if needed) and say where."""
    out = pathlib.Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"written {out}")
