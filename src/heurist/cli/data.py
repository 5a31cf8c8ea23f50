"""``heurist data``: the course data that ships with heurist (list it, show where it is, copy it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains.suites import course_data_directory
from heurist.errors import InputError
from heurist.files import output_directory, write_files

ORDER = 90

EXAMPLES = """examples:
  heurist data                      the folders of course data and what they hold
  heurist data --path               where the installed copy is
  heurist data --copy data          copy it to ./data, where every example in the docs looks"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "data",
        help="the courses' problem files that ship with heurist: list, locate or copy them",
        description="The courses' own problem files (Klotski, Blocks World, Blokus, tiles) ship inside the "
        "package; bench and grade suites read them from there. Copy them to run the documentation's "
        "examples, which name files under data/.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--path", action="store_true", help="print the directory of the installed data")
    action.add_argument("--copy", metavar="DIR", help="copy the data into DIR (a new or empty directory)")
    parser.set_defaults(handler=data)


def data_files(root: Path) -> list[Path]:
    """Every regular file under ``root``, relative to it, in sorted order (links are not followed)."""
    return sorted(path.relative_to(root) for path in root.rglob("*") if path.is_file() and not path.is_symlink())


def data(args: argparse.Namespace) -> int:
    root = course_data_directory()
    if not root.is_dir():
        raise InputError("this installation of heurist has no course data", root)
    if args.path:
        print(root)
        return 0
    files = data_files(root)
    if args.copy is not None:
        target = Path(args.copy)
        if target.is_symlink() or (target.exists() and not target.is_dir()):
            raise InputError("cannot copy into: not a directory", target)
        if target.is_dir() and any(target.iterdir()):
            raise InputError("cannot copy into: the directory is not empty", target)
        with output_directory(target):
            folders = sorted({(target / name).parent for name in files})
            for folder in folders:
                folder.mkdir(parents=True, exist_ok=True)
            write_files([(target / name, (root / name).read_bytes()) for name in files])
        print(f"copied {len(files)} files to {target}")
        return 0
    by_folder: dict[str, int] = {}
    for name in files:
        folder = str(name.parent) if len(name.parts) > 1 else "."
        by_folder[folder] = by_folder.get(folder, 0) + 1
    print(f"course data in {root}:")
    for folder, count in by_folder.items():
        print(f"  {folder:<40} {count:>4} files")
    print("provenance: SOURCES.md in each domain's folder; 'heurist bench --list' shows the suites")
    return 0


__all__ = ["data", "data_files", "register"]
