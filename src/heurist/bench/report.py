"""Benchmark reports: CSV and JSON rows, a Markdown report and matplotlib plots.

The Markdown report has, in order: the coverage of each configuration per
suite; per suite, a summary of each configuration (coverage, plans of the best
known cost, expansions and time summed over the problems every configuration
solved, as Downward Lab compares them) and a problem-by-configuration table of
costs and expansions; then one table per suite and
configuration in the layout of the course write-ups: problem, solution
length, iterations (expansions), max queue size (largest frontier), time.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from heurist.bench.schema import ROW_FIELDS, RunStatus
from heurist.files import output_directory, write_atomically, write_files

Row = dict[str, Any]


def csv_text(rows: list[Row]) -> str:
    """One line per run, the columns of :data:`~heurist.bench.schema.ROW_FIELDS`; empty for none."""
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=ROW_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: "" if row.get(name) is None else row.get(name) for name in ROW_FIELDS})
    return stream.getvalue()


def json_text(rows: list[Row], metadata: dict[str, Any]) -> str:
    """The command and limits, then ``runs``: one object per run (``null`` for none)."""
    return json.dumps({**metadata, "runs": [{name: row.get(name) for name in ROW_FIELDS} for row in rows]},
                      indent=1, default=str) + "\n"


def _ordered(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def best_costs(rows: list[Row]) -> dict[tuple[str, str], float]:
    """Per (suite, problem): the least cost an optimal configuration found.

    Optimal configurations are A*, IDA*, BFS, UCS and the planners' optimal
    searches; the figure is the optimum whenever one of them used an admissible
    heuristic, which every suite here has.
    """
    from heurist.bench.planners import PLANNERS
    from heurist.search import OPTIMAL_ALGORITHMS

    best: dict[tuple[str, str], float] = {}
    for row in rows:
        if row.get("status") != RunStatus.SOLVED or row.get("cost") is None:
            continue
        planner = PLANNERS.get(row["config"])
        optimal = planner.optimal if planner else row.get("algorithm") in OPTIMAL_ALGORITHMS
        if optimal:
            key = (row["suite"], row["problem"])
            best[key] = min(best.get(key, math.inf), float(row["cost"]))
    return best


def _number(value: Any, digits: int = 0) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, float) and (digits or not value.is_integer()):
        return f"{value:.{digits or 2}f}"
    return f"{int(value):,}"


def _seconds(value: Any) -> str:
    return "–" if value is None else f"{float(value):.3f}"


def _outcome(row: Row) -> str:
    """The solution length, or why there is none."""
    status = row.get("status")
    if status == RunStatus.SOLVED:
        return _number(row.get("cost"))
    if status == RunStatus.LIMIT_REACHED:
        return f"limit ({row.get('limit')})"
    return str(status)


def markdown(rows: list[Row], metadata: dict[str, Any]) -> str:
    """The report described in the module docstring."""
    suites = _ordered(row["suite"] for row in rows)
    by_suite: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_suite[row["suite"]].append(row)
    best = best_costs(rows)
    lines = ["# Benchmark results", ""]
    if metadata.get("command"):
        lines += ["```", str(metadata["command"]), "```", ""]
    limits = [
        f"time limit {metadata['time_limit']:g} s CPU" if metadata.get("time_limit") else "no time limit",
        f"max expansions {metadata['max_expansions']:,}" if metadata.get("max_expansions") else None,
        f"memory limit {metadata['memory_limit']:g} MiB" if metadata.get("memory_limit") else None,
        f"killed after {metadata['kill_after']:g} s wall-clock" if metadata.get("kill_after") else None,
    ]
    lines += [
        f"{len(rows)} runs; per run: {', '.join(item for item in limits if item)}. "
        "Times are CPU seconds of the search (heuristic preparation excluded; see total_time in the CSV). "
        "Planners' expansions are their own counts: compare them loosely, costs exactly.",
        "",
        "## Coverage",
        "",
        "Problems solved per configuration and suite.",
        "",
    ]
    for domain in _ordered(row["domain"] for row in rows):
        lines += _coverage_table([row for row in rows if row["domain"] == domain], domain)
    for suite in suites:
        lines += _suite_summary(suite, by_suite[suite], best)
        lines += _side_by_side(by_suite[suite])
    lines += ["## Runs", ""]
    for suite in suites:
        for config in _ordered(row["config"] for row in by_suite[suite]):
            runs = [row for row in by_suite[suite] if row["config"] == config]
            lines += [
                f"### {suite}: {config}",
                "",
                "| problem | solution length | iterations | max queue size | time (s) |",
                "|---|---:|---:|---:|---:|",
            ]
            for row in runs:
                lines.append(
                    f"| {row['problem']} | {_outcome(row)} | {_number(row.get('expansions'))} "
                    f"| {_number(row.get('max_frontier'))} | {_seconds(row.get('search_time'))} |"
                )
            lines.append("")
    return "\n".join(lines)


def _side_by_side(rows: list[Row]) -> list[str]:
    """Problem by configuration: cost / expansions, or why there is no plan."""
    configs = _ordered(row["config"] for row in rows)
    cells = {(row["problem"], row["config"]): row for row in rows}
    lines = [
        "Cost / expansions per problem:",
        "",
        "| problem | " + " | ".join(configs) + " |",
        "|---|" + "---:|" * len(configs),
    ]
    for problem in _ordered(row["problem"] for row in rows):
        line = []
        for config in configs:
            row = cells.get((problem, config))
            if row is None:
                line.append("")
            elif row.get("status") == RunStatus.SOLVED:
                line.append(f"{_number(row.get('cost'))} / {_number(row.get('expansions'))}")
            else:
                line.append(_outcome(row))
        lines.append(f"| {problem} | " + " | ".join(line) + " |")
    return lines + [""]


def _coverage_table(rows: list[Row], domain: str) -> list[str]:
    suites = _ordered(row["suite"] for row in rows)
    lines = [
        f"| {domain} | " + " | ".join(suites) + " | total |",
        "|---|" + "---:|" * (len(suites) + 1),
    ]
    for config in _ordered(row["config"] for row in rows):
        cells, solved_total, run_total = [], 0, 0
        for suite in suites:
            runs = [row for row in rows if row["suite"] == suite and row["config"] == config]
            solved = sum(int(row.get("coverage") or 0) for row in runs)
            solved_total += solved
            run_total += len(runs)
            cells.append(f"{solved}/{len(runs)}" if runs else "")
        lines.append(f"| {config} | " + " | ".join(cells) + f" | {solved_total}/{run_total} |")
    return lines + [""]


def _suite_summary(suite: str, rows: list[Row], best: dict[tuple[str, str], float]) -> list[str]:
    configs = _ordered(row["config"] for row in rows)
    problems = _ordered(row["problem"] for row in rows)
    solved_by = {
        config: {
            row["problem"] for row in rows
            if row["config"] == config and row.get("status") == RunStatus.SOLVED
        }
        for config in configs
    }
    common = [problem for problem in problems if all(problem in solved for solved in solved_by.values())]
    lines = [
        f"## {suite}",
        "",
        f"{len(problems)} problems; {len(common)} solved by every configuration (the sums are over those).",
        "",
        "| config | solved | best-known cost | unsolvable | limit reached | failed | "
        "expansions (common) | search time (common, s) | total wall time (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for config in configs:
        runs = [row for row in rows if row["config"] == config]
        statuses = [row.get("status") for row in runs]
        at_best = sum(
            1 for row in runs
            if row.get("status") == RunStatus.SOLVED and (suite, row["problem"]) in best
            and float(row["cost"]) == best[(suite, row["problem"])]
        )
        common_runs = [row for row in runs if row["problem"] in common]
        expansions = sum(row.get("expansions") or 0 for row in common_runs)
        search_time = sum(row.get("search_time") or 0 for row in common_runs)
        wall = sum(row.get("wall_time") or 0 for row in runs)
        solved, unsolvable, limited = (
            statuses.count(status)
            for status in (RunStatus.SOLVED, RunStatus.UNSOLVABLE, RunStatus.LIMIT_REACHED)
        )
        failed = len(statuses) - solved - unsolvable - limited
        lines.append(
            f"| {config} | {solved}/{len(runs)} | {at_best} | {unsolvable} "
            f"| {limited} | {failed} | {expansions:,} | {search_time:.2f} | {wall:.1f} |"
        )
    lines.append("")
    return lines


MARKERS = "os^vD<>xP*"
"""One marker per configuration, so that overlapping points stay visible."""


def plot_expansions(rows: list[Row], path: Path | None) -> bytes:
    """Expansions (log scale) against the best known optimal cost, one panel per suite."""
    best = best_costs(rows)
    suites = _ordered(row["suite"] for row in rows)

    def draw(axes, suite: str) -> None:
        for number, config in enumerate(_ordered(row["config"] for row in rows if row["suite"] == suite)):
            points = [
                (best[(suite, row["problem"])], max(1, row["expansions"]))
                for row in rows
                if row["suite"] == suite and row["config"] == config and row.get("status") == RunStatus.SOLVED
                and (suite, row["problem"]) in best and row.get("expansions") is not None
            ]
            if points:
                xs, ys = zip(*sorted(points))
                axes.plot(xs, ys, marker=MARKERS[number % len(MARKERS)], markersize=4, linestyle="",
                          label=config, alpha=0.75, fillstyle="none")
        axes.set_yscale("log")
        axes.set_xlabel("optimal cost")
        axes.set_ylabel("expansions")

    return _figure(suites, draw, path, "Expansions of solved runs against the optimal cost")


def plot_coverage(rows: list[Row], path: Path | None) -> bytes:
    """Problems solved within t seconds (search time, log scale), per configuration and suite."""
    suites = _ordered(row["suite"] for row in rows)

    def draw(axes, suite: str) -> None:
        for config in _ordered(row["config"] for row in rows if row["suite"] == suite):
            times = sorted(
                max(float(row.get("search_time") or row.get("wall_time") or 0), 1e-4)
                for row in rows
                if row["suite"] == suite and row["config"] == config and row.get("status") == RunStatus.SOLVED
            )
            if times:
                axes.step(times, range(1, len(times) + 1), where="post", label=config)
        axes.set_xscale("log")
        axes.set_xlabel("time (s)")
        axes.set_ylabel("problems solved")
        total = len({row["problem"] for row in rows if row["suite"] == suite})
        axes.set_ylim(0, total + 0.5)

    return _figure(suites, draw, path, "Coverage against time")


def _figure(suites: list[str], draw, path: Path | None, title: str) -> bytes:
    """The figure as PNG bytes, also written to ``path`` unless it is None."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    columns = min(3, max(1, len(suites)))
    rows_count = math.ceil(len(suites) / columns) if suites else 1
    figure, grid = pyplot.subplots(rows_count, columns, figsize=(5.2 * columns, 4.0 * rows_count), squeeze=False)
    for axes, suite in zip(grid.flat, suites):
        draw(axes, suite)
        axes.set_title(suite)
        axes.grid(True, which="major", alpha=0.3)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=7, loc="best")
    for axes in list(grid.flat)[len(suites):]:
        axes.set_visible(False)
    figure.suptitle(title)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, metadata={"Software": None})
    pyplot.close(figure)
    if path is not None:
        write_atomically(path, buffer.getvalue())
    return buffer.getvalue()


REPORT_FILES = ("results.csv", "results.json", "report.md", "expansions.png", "coverage.png")


def write_reports(rows: list[Row], directory: Path, metadata: dict[str, Any]) -> list[Path]:
    """Write every report into ``directory``, all or none as far as the file system allows; returns their paths.

    Every report is made first, then every path checked, then the files written
    (:func:`heurist.files.write_files`). A failure is an input error naming the path.
    """
    contents = {
        "results.csv": csv_text(rows),
        "results.json": json_text(rows, metadata),
        "report.md": markdown(rows, metadata),
        "expansions.png": plot_expansions(rows, None),
        "coverage.png": plot_coverage(rows, None),
    }
    with output_directory(directory):
        write_files([(directory / name, contents[name]) for name in REPORT_FILES])
    return [directory / name for name in REPORT_FILES]
