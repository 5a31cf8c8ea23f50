"""The ``heurist`` command itself: subcommand discovery, help, and the fast path for one subcommand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from heurist.cli.main import command_modules, main

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ["solve", "generate", "blocksworld", "hrd", "blokus", "bench", "check", "export", "render", "validate", "grade", "data"]


def test_help_lists_every_subcommand_in_order(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    positions = [out.index(f"\n    {name}") for name in COMMANDS]
    assert positions == sorted(positions)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_named_subcommand_loads_its_own_module_only(command):
    modules = command_modules(command)
    assert [module.__name__ for module in modules] == [f"heurist.cli.{command}"]


def test_other_words_fall_back_to_every_subcommand(capsys):
    assert [m.__name__.rsplit(".", 1)[1] for m in command_modules("common")] == COMMANDS
    with pytest.raises(SystemExit) as stop:
        main(["common"])  # a helper module, not a subcommand
    assert stop.value.code == 2
    assert "invalid choice: 'common'" in capsys.readouterr().err


def test_a_course_front_end_does_not_import_the_other_subcommands():
    code = (
        "import sys; from heurist.cli.main import main; "
        "main(['blocksworld', 'data/blocksworld/probA03.bwp']); "
        "print(sorted(m for m in sys.modules if m.startswith('heurist.cli.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.splitlines()[-1] == "['heurist.cli.blocksworld', 'heurist.cli.common', 'heurist.cli.main']"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_help_shows_examples(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "example" in out
    assert f"heurist {command} " in out  # a command line to copy
