"""gemmtune.tune(): runs the `tune` program on a list of problems and returns its JSON report.

The tuner is a separate program on purpose (it forks a measuring process and compile workers,
and a crashing candidate must not take the caller down), so this runs it as a subprocess:
``tune --shapes - --format json`` with the problems on its standard input.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

Problem = Union[str, Sequence]  # "nn:64x64x64", "64 64 64 tn", (64, 64, 64) or (64, 64, 64, "tn")


class TuneError(RuntimeError):
    """`tune` refused its input (exit_code 2: a bad problem, database, GPU or family) or failed
    while running (3); ``message`` is what it wrote to standard error."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__(f"tune exited with {exit_code}: {message}")
        self.exit_code = exit_code
        self.message = message


def find_tune(tune_binary: Optional[os.PathLike | str] = None) -> str:
    """The `tune` program: `tune_binary`, else $GEMMTUNE_TUNE, else the one installed with this
    package (pip install), else the build tree's (build/bin/tune beside build/python/), else the
    first on PATH. Raises FileNotFoundError naming the places looked at."""
    here = Path(__file__).resolve().parent
    candidates = [tune_binary, os.environ.get("GEMMTUNE_TUNE"), here / "bin" / "tune", here.parent.parent / "bin" / "tune"]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and Path(candidate).is_file():
            return os.fspath(candidate)
    on_path = shutil.which("tune")
    if on_path:
        return on_path
    raise FileNotFoundError("no tune program: pass tune_binary=, set GEMMTUNE_TUNE, or put tune on PATH "
                            f"(looked at {', '.join(os.fspath(c) for c in candidates if c)})")


def _shapes_text(problems: Iterable[Problem]) -> str:
    lines = []
    for problem in problems:
        if isinstance(problem, str):
            lines.append(problem)
        else:
            lines.append(" ".join(str(field) for field in problem))
    return "".join(line + "\n" for line in lines)


def tune(problems: Union[os.PathLike, str, Iterable[Problem]], db: os.PathLike | str = "tuned.db", gpu: str = "any", *,
         strategy: Optional[str] = None, budget: Union[int, str, None] = None,
         time_limit: Union[int, float, str, None] = None, families: Optional[Sequence[str]] = None,
         jobs: Optional[int] = None, retune: bool = False, dry_run: bool = False, arch: Optional[str] = None,
         extra_args: Sequence[str] = (), tune_binary: Optional[os.PathLike | str] = None) -> dict:
    """Tunes `problems` (a shapes file's path, or a list of problems in the shapes file's grammar:
    strings or (M, N, K[, layout]) tuples) into the database `db` on the GPU whose name contains
    `gpu` ("any": the first); with dry_run=True, compiles for `arch` without a GPU. The other
    arguments are tune's flags (time_limit: --time-limit, seconds or a text such as "10m"; the
    report's problems then say "cut" or "not_started" in their "time_limit"). Returns tune's JSON report (``tune --format json``: the run and one
    entry a problem, docs/cli.md). Raises TuneError when tune exits with 2 or 3."""
    command = [find_tune(tune_binary), "--db", os.fspath(db), "--format", "json", "-q"]
    if isinstance(problems, (str, os.PathLike)):
        command += ["--shapes", os.fspath(problems)]
        stdin = None
    else:
        command += ["--shapes", "-"]
        stdin = _shapes_text(problems)
    if dry_run:
        command += ["--dry-run"] + (["--arch", arch] if arch else [])
    else:
        command += ["--gpu", gpu]
    for flag, value in (("--strategy", strategy), ("--budget", budget), ("--time-limit", time_limit), ("--jobs", jobs)):
        if value is not None:
            command += [flag, str(value)]
    if families:
        command += ["--families", ",".join(families)]
    if retune:
        command.append("--retune")
    command += list(extra_args)
    run = subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise TuneError(run.returncode, run.stderr.strip())
    return json.loads(run.stdout)
