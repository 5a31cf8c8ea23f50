"""``heurist generate DOMAIN``: write random instances."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from heurist.cli.common import (
    add_option_arguments,
    domain_examples,
    domain_examples_epilog,
    option_values,
    positive_int,
    whole_number,
)
from heurist.domains import Domain, named_domains
from heurist.errors import InputError
from heurist.files import output_directory, write_files

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 20
MAX_COUNT = 100_000
"""More instances than any benchmark needs; a bigger count is a typo."""


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words, lambda domain: domain.can_generate)
    parser = subparsers.add_parser(
        "generate",
        help="write random solvable instances",
        description="Write random instances of a domain, reproducible from --seed. "
        "'heurist generate DOMAIN --help' lists the domain's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=domain_examples_epilog("generate", domains_list),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        sub = domains.add_parser(
            domain.name, help=f"random {domain.name} instances",
            formatter_class=argparse.RawDescriptionHelpFormatter, epilog=domain_examples(domain, "generate"),
        )
        sub.add_argument("--seed", type=whole_number, default=0, help="random seed (default: 0)")
        sub.add_argument("--count", type=positive_int, default=1, help="how many instances (default: 1)")
        sub.add_argument(
            "--out",
            metavar="DIR",
            help="write one file per instance into DIR (default: print to standard output)",
        )
        add_option_arguments(sub, domain.generate_options, f"{domain.name} generator")
        sub.set_defaults(handler=lambda args, domain=domain: generate(domain, args))


def generate(domain: Domain, args: argparse.Namespace) -> int:
    if not 1 <= args.count <= MAX_COUNT:
        raise InputError(f"must be between 1 and {MAX_COUNT:,}", "--count")
    if args.count > 1 and not args.out:
        raise InputError("more than one instance needs --out DIR (one file each)", "--count")
    instances = domain.generate(seed=args.seed, count=args.count, **option_values(args, domain.generate_options))
    if args.out:
        directory = Path(args.out)
        if directory.exists() and not directory.is_dir():
            raise InputError("cannot write: exists and is not a directory", directory)
        with output_directory(directory):
            files = [(directory / name, text) for name, text in instances]
            write_files(files)
        for path, _ in files:
            print(path)
    else:
        for _, text in instances:
            print(text, end="" if text.endswith("\n") else "\n")
    return 0
