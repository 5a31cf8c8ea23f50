"""Reports of a grading run: CSV, JSON, Markdown, the Gradescope autograder file and JUnit XML.

* ``results.csv`` / ``results.json``: a row per (program, test);
* ``report.md``: the verdict counts per test and per program, then every failure;
* Gradescope (``results.json`` of an autograder): ``score`` and ``tests``, each with ``name``,
  ``score``, ``max_score``, ``status`` (``passed``/``failed``) and ``output``;
  a test's weight is its ``max_score``;
* JUnit XML: a ``testsuite`` per program, a ``testcase`` per test; a run that did not finish
  normally (crashed, timed out, out of memory, no output) is an ``error``, any other
  verdict but ``pass`` a ``failure``.
"""

from __future__ import annotations

import csv
import io
import json
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from heurist.errors import InputError, read_text
from heurist.files import write_atomically, write_files
from heurist.grade.verdicts import TestResult, Verdict

CSV_FIELDS = ["program", "test", "verdict", "passed", "cost", "optimum", "exit_status", "wall_time", "cpu_time",
              "detail", "notes", "isolation"]


def read_weights(path: str | Path) -> dict[str, float]:
    """Test weights from a JSON object ``{"test": weight}`` or lines ``test weight`` (``#`` comments)."""
    text = read_text(path)
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
            return {str(name): float(weight) for name, weight in document.items()}
        except (ValueError, TypeError, AttributeError) as error:
            raise InputError(f"expected a JSON object of test names and weights: {error}", path) from None
    weights = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, weight = line.rpartition(" ")
        try:
            weights[name.strip()] = float(weight)
        except ValueError:
            raise InputError("expected 'TEST WEIGHT'", path, number) from None
        if not name.strip():
            raise InputError("expected 'TEST WEIGHT'", path, number)
    return weights


def csv_text(results: list[TestResult]) -> str:
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        row = result.as_dict()
        row["notes"] = "; ".join(result.notes)
        writer.writerow({name: "" if row.get(name) is None else row[name] for name in CSV_FIELDS})
    return stream.getvalue()


def json_text(results: list[TestResult], metadata: dict[str, Any]) -> str:
    return json.dumps({**metadata, "results": [result.as_dict() for result in results]}, indent=1) + "\n"


def _ordered(values) -> list[str]:
    return list(dict.fromkeys(values))


def _count_table(title: str, key: str, results: list[TestResult]) -> list[str]:
    verdicts = [verdict for verdict in Verdict if any(result.verdict is verdict for result in results)]
    lines = [f"## {title}", "", f"| {key} | passed | " + " | ".join(v.value for v in verdicts) + " |",
             "|---|---:|" + "---:|" * len(verdicts)]
    for name in _ordered(getattr(result, key) for result in results):
        mine = [result for result in results if getattr(result, key) == name]
        counts = Counter(result.verdict for result in mine)
        passed = sum(result.passed for result in mine)
        lines.append(f"| {name} | {passed}/{len(mine)} | " + " | ".join(str(counts.get(v, 0) or "") for v in verdicts)
                     + " |")
    return [*lines, ""]


def _markdown_cell(text: str) -> str:
    """``text`` as one Markdown table cell that cannot start a link, an HTML tag or another cell."""
    for character in "\\`*_[]<>|":
        text = text.replace(character, "\\" + character)
    return text.replace("\n", " ")


def markdown_report(results: list[TestResult], metadata: dict[str, Any]) -> str:
    passed = sum(result.passed for result in results)
    lines = ["# heurist grade", ""]
    if metadata.get("command"):
        lines += [f"`{metadata['command']}`", ""]
    if metadata.get("isolation"):
        lines += [f"Isolation: {metadata['isolation']}.", ""]
    if metadata.get("isolation_warning"):
        lines += [f"**Warning: {metadata['isolation_warning']}.**", ""]
    lines += [f"{passed} of {len(results)} runs passed "
              f"({len(_ordered(r.program for r in results))} programs x {len(_ordered(r.test for r in results))} tests).",
              ""]
    lines += _count_table("Per program", "program", results)
    lines += _count_table("Per test", "test", results)
    failures = [result for result in results if not result.passed]
    if failures:
        lines += ["## Failures", "", "| program | test | verdict | detail |", "|---|---|---|---|"]
        for result in failures:
            detail = _markdown_cell(result.detail)
            lines.append(f"| {result.program} | {result.test} | {result.verdict.value} | {detail} |")
        lines.append("")
    return "\n".join(lines)


def gradescope_document(results: list[TestResult], weights: dict[str, float] | None = None,
                        default_weight: float = 1.0) -> dict[str, Any]:
    """The Gradescope autograder ``results.json``: one entry per (program, test)."""
    weights = weights or {}
    several = len(_ordered(result.program for result in results)) > 1
    tests = []
    for result in results:
        weight = float(weights.get(result.test, default_weight))
        tests.append({
            "name": f"{result.program}: {result.test}" if several else result.test,
            "score": weight if result.passed else 0.0,
            "max_score": weight,
            "status": "passed" if result.passed else "failed",
            "output": result.output_text(),
        })
    return {"score": sum(test["score"] for test in tests), "output_format": "text", "tests": tests}


def junit_xml(results: list[TestResult]) -> str:
    """JUnit XML: ``testsuites`` / a ``testsuite`` per program / a ``testcase`` per test; each suite's
    ``properties`` record the isolation its runs had."""
    root = ElementTree.Element("testsuites", name="heurist grade")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    host = socket.gethostname() or "localhost"
    totals = Counter()
    for index, program in enumerate(_ordered(result.program for result in results)):
        mine = [result for result in results if result.program == program]
        errors = sum(not r.passed and r.verdict.is_error for r in mine)
        failures = sum(not r.passed and not r.verdict.is_error for r in mine)
        seconds = sum(r.wall_time or 0.0 for r in mine)
        suite = ElementTree.SubElement(root, "testsuite", {
            "name": program, "tests": str(len(mine)), "failures": str(failures), "errors": str(errors),
            "skipped": "0", "time": f"{seconds:.3f}", "timestamp": stamp, "hostname": host, "id": str(index),
            "package": "heurist.grade",
        })
        levels = sorted({result.isolation for result in mine if result.isolation})
        if levels:
            properties = ElementTree.SubElement(suite, "properties")
            ElementTree.SubElement(properties, "property", {"name": "isolation", "value": ", ".join(levels)})
        for result in mine:
            case = ElementTree.SubElement(suite, "testcase", {
                "name": result.test, "classname": program, "time": f"{result.wall_time or 0.0:.3f}",
            })
            if not result.passed:
                tag = "error" if result.verdict.is_error else "failure"
                element = ElementTree.SubElement(case, tag, {
                    "message": f"{result.verdict.value}: {result.detail}"[:1000], "type": result.verdict.value,
                })
                element.text = result.output_text()
        totals.update(tests=len(mine), failures=failures, errors=errors)
        totals["time"] += seconds
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", str(totals["errors"]))
    root.set("time", f"{totals['time']:.3f}")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def write_all_reports(results: list[TestResult], metadata: dict[str, Any], *, out: Path | None = None,
                      gradescope: str | Path | None = None, junit: str | Path | None = None,
                      weights: dict[str, float] | None = None, default_weight: float = 1.0) -> list[Path]:
    """Every report asked for, all or nothing: each is written to a temporary file first, and only when all
    are written do they replace their paths (as new regular files: never through a link or a FIFO)."""
    files: list[tuple[Path, str]] = []
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot create: {error.strerror}", out) from None
        files += [(out / "results.csv", csv_text(results)), (out / "results.json", json_text(results, metadata)),
                  (out / "report.md", markdown_report(results, metadata))]
    if gradescope:
        document = gradescope_document(results, weights, default_weight)
        if metadata.get("isolation"):
            document["output"] = f"isolation: {metadata['isolation']}"
            if metadata.get("isolation_warning"):
                document["output"] += f"\nwarning: {metadata['isolation_warning']}"
        files.append((Path(gradescope), json.dumps(document, indent=1) + "\n"))
    if junit:
        files.append((Path(junit), junit_xml(results)))
    write_files(files, replace_special=True)
    return [path for path, _ in files]


def write_reports(results: list[TestResult], out: Path, metadata: dict[str, Any]) -> list[Path]:
    """``results.csv``, ``results.json`` and ``report.md`` in ``out``."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create: {error.strerror}", out) from None
    paths = [out / "results.csv", out / "results.json", out / "report.md"]
    write_atomically(paths[0], csv_text(results))
    write_atomically(paths[1], json_text(results, metadata))
    write_atomically(paths[2], markdown_report(results, metadata))
    return paths


def write_gradescope(results: list[TestResult], path: str | Path, weights: dict[str, float] | None = None,
                     default_weight: float = 1.0) -> None:
    document = gradescope_document(results, weights, default_weight)
    write_atomically(path, json.dumps(document, indent=1) + "\n")


def write_junit(results: list[TestResult], path: str | Path) -> None:
    write_atomically(path, junit_xml(results))


__all__ = ["csv_text", "write_all_reports", "gradescope_document", "json_text", "junit_xml", "markdown_report", "read_weights",
           "write_gradescope", "write_junit", "write_reports"]
