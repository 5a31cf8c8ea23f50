"""``heurist export pddl FILE``: write an instance as a PDDL domain and problem.

A domain that implements ``Domain.export_pddl(path) -> {file name: text}``
handles the instance files with its ``pddl_file_suffixes`` (Blocks World:
``.bwp``); ``--domain NAME`` picks one explicitly.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains import Domain, all_domains
from heurist.errors import InputError
from heurist.files import output_directory, write_files

ORDER = 40


def pddl_exporters() -> dict[str, Domain]:
    """Every domain that exports PDDL, by name."""
    return {domain.name: domain for domain in all_domains() if domain.exports_pddl}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write an instance in another format (PDDL)",
        description="Write an instance in another tool's format.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  heurist export pddl data/blocksworld/probB20.bwp --out pddl/",
    )
    formats = parser.add_subparsers(dest="format", metavar="FORMAT", required=True)
    exporters = pddl_exporters()
    suffixes = ", ".join(
        f"{suffix} ({name})" for name, domain in exporters.items() for suffix in domain.pddl_file_suffixes
    )
    pddl = formats.add_parser(
        "pddl",
        help="a PDDL domain and problem, for Fast Downward, pyperplan and other planners",
        description=(
            "Write DIR/domain.pddl and DIR/STEM.pddl for an instance file. "
            f"Known instance files: {suffixes or 'none'}."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "example:\n"
            "  heurist export pddl data/blocksworld/probB20.bwp --out pddl/\n"
            "  fast-downward.py pddl/domain.pddl pddl/probB20.pddl --search 'astar(lmcut())'"
        ),
    )
    pddl.add_argument("file", metavar="FILE", help="instance file")
    pddl.add_argument(
        "--out", "-o", metavar="DIR", default=".", help="directory to write into (default: current)"
    )
    pddl.add_argument(
        "--domain",
        choices=sorted(exporters),
        help="the instance's domain (default: chosen by the file's suffix)",
    )
    pddl.set_defaults(handler=export_pddl)


def export_pddl(args: argparse.Namespace) -> int:
    exporters = pddl_exporters()
    if args.domain:
        exporter = exporters[args.domain]
    else:
        suffix = Path(args.file).suffix.lower()
        matches = [domain for domain in exporters.values() if suffix in domain.pddl_file_suffixes]
        if not matches:
            known = ", ".join(s for domain in exporters.values() for s in domain.pddl_file_suffixes) or "none"
            raise InputError(
                f"no PDDL exporter for {suffix or 'files without a suffix'!s} (known: {known}); "
                "name one with --domain",
                args.file,
            )
        exporter = matches[0]
    files = exporter.export_pddl(args.file)
    directory = Path(args.out)
    if directory.exists() and not directory.is_dir():
        raise InputError("cannot write: exists and is not a directory", directory)
    with output_directory(directory):
        write_files([(directory / name, text) for name, text in files.items()])
    for name in files:
        print(directory / name)
    return 0
