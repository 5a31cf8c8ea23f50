"""Output files are written whole, with ordinary permissions, or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from heurist.errors import InputError
from heurist.files import write_atomically


def test_text_is_written_byte_for_byte_without_newline_translation(tmp_path: Path) -> None:
    write_atomically(tmp_path / "out.txt", "a\r\nb\n")
    assert (tmp_path / "out.txt").read_bytes() == b"a\r\nb\n"


def test_bytes_replace_an_existing_file_and_leave_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "picture.png"
    target.write_bytes(b"old")
    write_atomically(target, b"\x89PNG new")
    assert target.read_bytes() == b"\x89PNG new"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["picture.png"]


def test_files_get_the_usual_permissions_not_private_ones(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        write_atomically(tmp_path / "problem.bwp", "3 2 2\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "problem.bwp").stat().st_mode) == 0o644


def test_an_unwritable_place_is_an_input_error_naming_it(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.txt"
    with pytest.raises(InputError) as raised:
        write_atomically(target, "x")
    assert str(target) in str(raised.value)
