"""``heurist generate DOMAIN``: write random instances."""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains import Domain, all_domains
from heurist.errors import InputError
from heurist.files import write_atomically

ORDER = 20


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="write random solvable instances",
        description="Write random instances of a domain, reproducible from --seed. "
        "'heurist generate DOMAIN --help' lists the domain's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  heurist generate klotski --seed 1 --count 10 --out puzzles/\n"
        "  heurist generate klotski --seed 2 --steps 2000 > one.txt",
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in all_domains():
        if domain.generate is None or domain.add_generate_arguments is None:
            continue
        sub = domains.add_parser(domain.name, help=f"random {domain.name} instances")
        sub.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
        sub.add_argument("--count", type=int, default=1, help="how many instances (default: 1)")
        sub.add_argument(
            "--out",
            metavar="DIR",
            help="write one file per instance into DIR (default: print to standard output)",
        )
        domain.add_generate_arguments(sub)
        sub.set_defaults(handler=lambda args, domain=domain: generate(domain, args))


def generate(domain: Domain, args: argparse.Namespace) -> int:
    if args.count < 1:
        raise InputError("must be at least 1", "--count")
    if args.count > 1 and not args.out:
        raise InputError("more than one instance needs --out DIR (one file each)", "--count")
    instances = list(domain.generate(args))
    if args.out:
        directory = Path(args.out)
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in instances:
            write_atomically(directory / name, text)
            print(directory / name)
    else:
        for _, text in instances:
            print(text, end="" if text.endswith("\n") else "\n")
    return 0
