"""gamelib report: a balance report a designer can send, as one HTML file.

The verdicts are decided here, in the calling process (with a progress bar, and resumable like
:func:`gamelib.verdict.verdict`); their tables are written to a scratch folder, and the report
notebook (``gamelib/templates/report.ipynb``, a parameterized notebook) renders them through
papermill; nbconvert's HTML exporter then writes it without its code cells.  The notebook also
runs on its own (``RESULTS = None`` decides the verdicts inside it), so what a report shows is
what the committed template computes from the data, never typed by hand.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import GamelibError, Player, config_to_json
from gamelib.sim import check_output_path, game_of, player_name
from gamelib.verdict import Question, verdict

__all__ = ["ReportError", "questions_to_json", "report", "template_path"]


class ReportError(GamelibError):
    """The report notebook failed to execute or render."""


def template_path() -> Path:
    """The report notebook shipped with gamelib."""
    return Path(str(resources.files("gamelib") / "templates" / "report.ipynb"))


def questions_to_json(questions: Sequence[Question]) -> list[dict[str, Any]]:
    """Questions as JSON data the template rebuilds with ``QUESTIONS[name](**fields)``."""
    return [{"name": q.name, **dataclasses.asdict(q)} for q in questions]


def write_results(folder: Path, table: pd.DataFrame, tables: dict[str, list[pd.DataFrame]]) -> None:
    """The verdict table and each unit's games, as the template reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = json.loads(table.to_json(orient="records"))
    (folder / "verdict.json").write_text(
        json.dumps({"rows": rows, "run": table.attrs.get("verdict", {})}, indent=1),
        encoding="utf-8",
    )
    index: dict[str, list[str]] = {}
    for i, (label, runs) in enumerate(tables.items()):
        index[label] = []
        for j, t in enumerate(runs):
            name = f"unit-{i}-{j}.parquet"
            keep = [c for c in t.columns if c in _KEPT or c.startswith(_KEPT_PREFIXES)]
            t[keep].to_parquet(folder / name, index=False)
            index[label].append(name)
    (folder / "tables.json").write_text(json.dumps(index, indent=1), encoding="utf-8")


def read_results(
    folder: str | os.PathLike[str],
) -> tuple[pd.DataFrame, dict[str, Any], dict[str, list[pd.DataFrame]]]:
    """(verdict table, what was run, {level: [run tables]}) from :func:`write_results`."""
    folder = Path(folder)
    data = json.loads((folder / "verdict.json").read_text(encoding="utf-8"))
    index = json.loads((folder / "tables.json").read_text(encoding="utf-8"))
    tables = {k: [pd.read_parquet(folder / n) for n in names] for k, names in index.items()}
    return pd.DataFrame(data["rows"]), data["run"], tables


#: the outcome columns the report reads (the rules are stated once, from the config)
_KEPT = ("deal", "rotation", "winner", "n_winners", "reason", "turns", "winner_player")
_KEPT_PREFIXES = ("player_", "score_", "win_")


def ipc_kernel_manager() -> type:
    """A Jupyter kernel manager whose kernel talks over IPC (sockets in the working folder)
    instead of TCP: the kernel then has no reason to print ipykernel's "Kernel is running over
    TCP without encryption" warning into the user's terminal, and nothing listens on a port.

    Each kernel's sockets live in a private temporary folder of their own, removed when the
    kernel shuts down. jupyter_client's default names them ``kernel-ipc-N`` in the working
    folder, where two kernels started at once (two papermill runs from one folder) pick the
    same names and one client talks to the other's kernel ("Invalid Signature")."""
    import shutil

    from jupyter_client.manager import AsyncKernelManager
    from traitlets import Unicode

    class IPCKernelManager(AsyncKernelManager):
        transport = Unicode("ipc")

        def _ip_default(self) -> str:
            return os.path.join(tempfile.mkdtemp(prefix="gamelib-kernel-"), "ipc")

        async def cleanup_resources(self, restart: bool = False) -> None:  # type: ignore[override]
            await super().cleanup_resources(restart=restart)
            folder = os.path.dirname(self.ip)
            if not restart and os.path.basename(folder).startswith("gamelib-kernel-"):
                shutil.rmtree(folder, ignore_errors=True)

    return IPCKernelManager


def __getattr__(name: str) -> Any:
    """``IPCEngine``, built on first use (so importing this module does not import papermill)."""
    if name == "IPCEngine":
        return _ipc_engine()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _ipc_engine() -> type:
    """papermill's engine ``gamelib`` (``papermill --engine gamelib …``, registered by
    gamelib's ``papermill.engine`` entry point): papermill's own nbclient engine with the
    kernel over IPC (:func:`ipc_kernel_manager`), so a papermill run of a notebook prints no
    "Kernel is running over TCP without encryption" warning into the terminal."""
    from papermill.engines import NBClientEngine

    class IPCEngine(NBClientEngine):  # type: ignore[misc]
        @classmethod
        def execute_managed_notebook(cls, nb_man: Any, kernel_name: Any, **kwargs: Any) -> Any:
            kwargs.setdefault("kernel_manager_class", ipc_kernel_manager())
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)

    return IPCEngine


def report(
    config: Any,
    levels: Sequence[str | Player],
    questions: Sequence[Question] | None = None,
    *,
    out: str | os.PathLike[str],
    seed: int = 0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 20_000,
    workers: int | None = None,
    executor: Any = None,
    resume: str | os.PathLike[str] | None = None,
    cache: bool | str | os.PathLike[str] = False,
    max_minutes: float | None = None,
    design: str = "cs",
    progress: bool = True,
    command: str | None = None,
    worth_deals: int | None = None,
    worth_margin: float = 0.02,
    option_deals: int | None = None,
    _names: dict[str, str] | None = None,
) -> Path:
    """Decide the verdicts (as :func:`gamelib.verdict.verdict`, same arguments) and write the
    report to ``out`` (an ``.html`` file): the verdict table across the ladder, charts with
    their intervals, game lengths and victory margins, and what was run — gamelib's version,
    the seed, the rules and ``command``, the command line that reproduces the report.
    ``worth_deals``: also a card worth section (:func:`gamelib.verdict.worth.worth` at the
    strongest level, its game's card table, within ±``worth_margin``, on at most that many
    deals), for a game whose cards can be traded.  ``option_deals``: also an option worth
    section (:func:`gamelib.verdict.options.option_worth`: each class of moves forbidden to the
    strongest level that can be restricted — a stronger one that cannot is named with why —
    on at most that many deals).  Returns the path written."""
    import nbformat
    import papermill
    from nbconvert import HTMLExporter

    path = check_output_path(out, (_names or {}).get("out", "out"), ".html")
    game = game_of(config)
    tables: dict[str, list[pd.DataFrame]] = {}
    table = verdict(
        config,
        levels,
        questions,
        alpha=alpha,
        beta=beta,
        max_games=max_games,
        seed=seed,
        workers=workers,
        executor=executor,
        resume=resume,
        cache=cache,
        max_minutes=max_minutes,
        design=design,
        progress=progress,
        tables=tables,
        _names=_names,
    )
    worth_table = None
    if worth_deals is not None:
        from gamelib.verdict.worth import worth

        if not game.edit_kinds:
            raise GamelibError(f"worth: {game.name} has no cards to trade (no card worth)")
        worth_table = worth(
            config, player_name(levels[-1]), game.edit_kinds[0], margin=worth_margin, alpha=alpha,
            beta=beta, max_deals=worth_deals, seed=seed, workers=workers, executor=executor,
            cache=cache, progress=progress,
        )  # fmt: skip
    options_doc = None
    if option_deals is not None:
        options_doc = _option_section(config, levels, option_deals, alpha, beta, seed, workers,
                                      executor, cache, progress)  # fmt: skip
    asked = questions if questions is not None else []
    with tempfile.TemporaryDirectory(prefix="gamelib-report-") as tmp:
        scratch = Path(tmp)
        write_results(scratch / "results", table, tables)
        if worth_table is not None:
            rows = json.loads(worth_table.to_json(orient="records"))
            doc = {"rows": rows, "run": worth_table.attrs["worth"]}
            (scratch / "results" / "worth.json").write_text(json.dumps(doc), encoding="utf-8")
        if options_doc is not None:
            text = json.dumps(options_doc)
            (scratch / "results" / "options.json").write_text(text, encoding="utf-8")
        params = {
            "GAME": game.name,
            "CONFIG": config_to_json(config),
            "LEVELS": [str(x) for x in table.attrs["verdict"]["levels"]],
            "QUESTIONS": questions_to_json(asked),
            "SEED": seed,
            "ALPHA": alpha,
            "BETA": beta,
            "MAX_GAMES": max_games,
            "COMMAND": command or "",
            "RESULTS": str(scratch / "results"),
        }
        executed = scratch / "report.ipynb"
        try:
            papermill.execute_notebook(
                str(template_path()),
                str(executed),
                parameters=params,
                progress_bar=progress and {"desc": "rendering the report"},
                kernel_name="python3",
                cwd=tmp,
                kernel_manager_class=ipc_kernel_manager(),
            )
        except papermill.PapermillExecutionError as exc:
            raise ReportError(
                f"the report notebook failed in cell {exc.exec_count}: {exc.ename}: {exc.evalue}"
            ) from None
        nb = nbformat.read(executed, as_version=4)  # type: ignore[no-untyped-call]
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True)  # type: ignore[no-untyped-call]
    exporter.exclude_output_prompt = True
    title = f"{game.name.replace('_', ' ').title()}: balance report"
    html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    tmp_out = path.with_name(path.name + ".part")
    tmp_out.write_text(html, encoding="utf-8")
    tmp_out.replace(path)
    return path


def _option_section(
    config: Any,
    levels: Sequence[Any],
    deals: int,
    alpha: float,
    beta: float,
    seed: int,
    workers: int | None,
    executor: Any,
    cache: bool | str | os.PathLike[str],
    progress: bool,
) -> dict[str, Any]:
    """The report's option worth section: the table at the strongest level that can be
    restricted, and why each stronger one cannot (its rows, run and those reasons)."""
    from gamelib.verdict.options import option_worth

    game = game_of(config)
    if not game.options:
        raise GamelibError(f"options: {game.name} names no classes of moves (no option worth)")
    first = next(iter(game.options))
    skipped: list[str] = []
    for level in reversed(list(levels)):
        try:
            game.player(f"{player_name(level)}:forbid={first}")
        except GamelibError as exc:
            skipped.append(str(exc))
            continue
        table = option_worth(
            config, player_name(level), alpha=alpha, beta=beta, max_deals=deals, seed=seed,
            workers=workers, executor=executor, cache=cache, progress=progress,
        )  # fmt: skip
        rows = json.loads(table.to_json(orient="records"))
        return {"rows": rows, "run": table.attrs["options"], "skipped": skipped}
    raise GamelibError(f"options: no level can be restricted: {'; '.join(skipped)}")
