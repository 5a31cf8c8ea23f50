"""Hostile student programs against ``heurist grade``: every attack of the security model is tried and must fail.

The set-up is the one a TA is warned about: ``heurist grade`` runs from a
directory that holds the hidden tests with their answer files, the optima
cache, the reports and the programs' scripts. Each hostile program copies a
correct answer into its output only when its attack worked, so that
"blocked" is the verdict not being ``pass`` (or an effect being absent).

The grader runs as a separate ``heurist`` process, as a TA would run it, so
that an attack on the grader's process cannot take the test suite with it.
Every run must report the ``namespaces`` isolation level; the module is
skipped where bubblewrap cannot make namespaces (``.ci/run`` installs it).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from heurist.grade.isolation import Isolation, namespaces_work

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
HEURIST = str(Path(sys.prefix) / "bin" / "heurist")
PACKAGE = ROOT / "src" / "heurist"
SECRET = "hostile-secret-4242"
MARK = "33.7"  # the duration of every sleep a hostile program leaves behind: survivors are found by it

pytestmark = pytest.mark.skipif(not namespaces_work(), reason="bubblewrap cannot create namespaces here")


def digest_tree(*paths: Path) -> dict[str, str]:
    found = {}
    for path in paths:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        found.update({str(file): hashlib.sha256(file.read_bytes()).hexdigest() for file in files})
    return found


def survivors() -> list[int]:
    """Processes left by hostile programs (their sleeps are ``sleep 33.7...``)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"sleep\x00" + MARK.encode() in command:
                found.append(int(entry))
    return found


def hostile_programs(ta: Path, home: Path) -> dict[str, str]:
    """name -> shell script; ``pass_`` copies the correct answer into the output file."""
    hidden, cheat, out = ta / "hidden", ta / "cheat", ta / "grades"
    pass_ = f"cp {cheat}/answer.txt output.txt"
    return {
        # reading what must stay hidden
        "answer_symlink": f"ln -s {hidden}/easy.out output.txt",
        "answer_copy": f"cp {hidden}/easy.out output.txt",
        "grader_environment": f'[ "$HEURIST_HOSTILE" = {SECRET} ] && {pass_}',
        "grader_proc": "for f in /proc/[0-9]*/cmdline; do if tr '\\0' ' ' < $f | grep -q -- --gradescope; "
                       f"then {pass_}; fi; done",
        "other_runs": f"sleep 1; find / -name marker-of-another-run 2>/dev/null | grep -q . && {pass_}",
        "marker": f"echo x > marker-of-another-run; sleep 3; {pass_}",
        # writing outside the run
        "write_tests": f"echo 'changed' > {hidden}/easy.txt; echo new > {hidden}/new.txt; {pass_}",
        "write_home": f"echo pwned > {home}/pwned; {pass_}",
        "write_out": f"mkdir -p {out}; echo pwned > {out}/pwned.txt; echo '{{}}' > {out}/results.json; {pass_}",
        "write_cache": f"echo garbage > {ta}/optima.json; {pass_}",
        "write_heurist": f"echo 'raise SystemExit(0)' >> {PACKAGE}/grade/reports.py; {pass_}",
        # outliving the run
        "setsid_survivor": f"setsid sleep {MARK}1 & {pass_}",
        "holds_the_pipes": f"{pass_}; sh -c 'setsid sleep {MARK}2' &",
        "fork_bomb": f"i=0; while [ $i -lt 150 ]; do setsid sleep {MARK}3 & i=$((i+1)); done; wait",
        "memory_together": "for i in 1 2 3 4 5 6; do python3 -c \"b = b'x' * (90 * 2 ** 20); "
                           "import time; time.sleep(20)\" & done; wait",
        # attacking the grader
        "signal_grader": "for p in /proc/[0-9]*; do kill -STOP ${p#/proc/} 2>/dev/null; done; "
                         "for p in /proc/[0-9]*; do kill -KILL ${p#/proc/} 2>/dev/null; done",
        "fifo_output": "mkfifo output.txt",
        "daemon_rewrites_reports": f"(setsid sh -c 'sleep 2; echo pwned > {out}/results.json; "
                                   f"echo pwned > {ta}/gradescope.json; sleep {MARK}4' &); {pass_}",
        "markup_and_escapes": "printf '\\033]0;pwned\\007\\033[31m[bold red]x[/bold red] [/] "
                              "[link=file:///etc/passwd]y[/link]\\n' >&2; "
                              "printf '\\033[2J[/]\\n' > output.txt; exit 3",
        "long_plan": f"cp {cheat}/long.txt output.txt",
        "fill_tmp": f"dd if=/dev/zero of=/tmp/heurist-hostile-fill bs=1M count=4000 2>/dev/null; {pass_}",
    }


EXPECTED = {
    "answer_symlink": "no output",
    "answer_copy": "crashed",
    "grader_environment": "crashed",
    "grader_proc": "no output",
    "other_runs": "crashed",
    "marker": "pass",
    "write_tests": "pass",
    "write_home": "pass",
    "write_out": "pass",
    "write_cache": "pass",
    "write_heurist": "pass",
    "setsid_survivor": "pass",
    "holds_the_pipes": "pass",
    "fork_bomb": "crashed",
    "memory_together": "out of memory",
    "signal_grader": "timed out",  # it stops every process it sees: its own run, itself included
    "fifo_output": "no output",
    "daemon_rewrites_reports": "pass",
    "markup_and_escapes": "crashed",
    "long_plan": "bad format",
    "fill_tmp": "pass",
}


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One grading run of every hostile program, from a TA's directory that holds everything worth stealing."""
    ta = tmp_path_factory.mktemp("ta")
    home = tmp_path_factory.mktemp("home")  # the grader's $HOME
    for folder in ("hidden", "cheat", "hostile"):
        (ta / folder).mkdir()
    puzzle = (DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes()
    (ta / "hidden" / "easy.txt").write_bytes(puzzle)
    done = subprocess.run([HEURIST, "hrd", "--algo", "astar", "--inputfile", str(ta / "hidden" / "easy.txt"),
                           "--outputfile", str(ta / "hidden" / "easy.out")], capture_output=True)
    assert done.returncode == 0, done.stderr
    answer = (ta / "hidden" / "easy.out").read_text()
    (ta / "cheat" / "answer.txt").write_text(answer)
    first, second = answer.strip().split("\n\n")[:2]  # a legal move there and back, 1,500 times
    (ta / "cheat" / "long.txt").write_text("\n\n".join(first if n % 2 == 0 else second for n in range(3001)) + "\n")
    scripts = hostile_programs(ta, home)
    for name, script in scripts.items():
        (ta / "hostile" / f"{name}.sh").write_text(script + "\n")
    (ta / "optima.json").write_text("")
    programs = []
    for name in scripts:
        programs += ["--program", f"{name}=sh {{dir}}/hostile/{name}.sh {{output}}"]
    protected = digest_tree(ta / "hidden", PACKAGE)
    environment = {**os.environ, "HEURIST_HOSTILE": SECRET, "HOME": str(home)}
    started = time.perf_counter()
    grading = subprocess.run(
        [HEURIST, "grade", "klotski", *programs, "hidden", "--timeout", "10", "--memory-limit", "300",
         "--max-processes", "32", "--max-plan-steps", "1000", "--disk-limit", "64", "--jobs", "2",
         "--cache", "optima.json", "--out", "grades", "--gradescope", "gradescope.json"],
        cwd=ta, env=environment, capture_output=True, timeout=300)
    seconds = time.perf_counter() - started
    after_grader = survivors()
    time.sleep(3)  # a daemon would strike now
    results = json.loads((ta / "grades" / "results.json").read_text())
    return {"ta": ta, "home": home, "grading": grading, "seconds": seconds, "results": results,
            "rows": {row["program"]: row for row in results["results"]}, "protected": protected,
            "survivors": after_grader + survivors(), "gradescope": (ta / "gradescope.json").read_text()}


def test_every_attack_gets_the_verdict_of_a_blocked_attack(attacked):
    found = {name: row["verdict"] for name, row in attacked["rows"].items()}
    assert found == EXPECTED
    assert attacked["grading"].returncode == 1  # some failed; the grader was neither stopped nor killed


def test_every_run_reports_namespace_isolation(attacked):
    assert attacked["results"]["isolation"] == Isolation.NAMESPACES.value
    assert {row["isolation"] for row in attacked["results"]["results"]} == {"namespaces"}
    assert "isolation: namespaces" in attacked["grading"].stdout.decode()


def test_hidden_things_stay_unread_and_unchanged(attacked):
    ta = attacked["ta"]
    assert digest_tree(ta / "hidden", PACKAGE) == attacked["protected"]
    assert not (ta / "hidden" / "new.txt").exists()
    assert not (attacked["home"] / "pwned").exists()
    assert not (ta / "grades" / "pwned.txt").exists()
    assert not Path("/tmp/heurist-hostile-fill").exists()
    cache = json.loads((ta / "optima.json").read_text())
    assert len(cache["optima"]) == 1


def test_nothing_outlives_its_run_and_reports_stay_as_written(attacked):
    assert attacked["survivors"] == []
    ta = attacked["ta"]
    assert json.loads((ta / "grades" / "results.json").read_text()) == attacked["results"]
    assert attacked["gradescope"] == (ta / "gradescope.json").read_text()
    assert json.loads(attacked["gradescope"])["score"] == sum(row["passed"] for row in attacked["results"]["results"])


def test_limits_hold_for_the_whole_run(attacked):
    rows = attacked["rows"]
    assert "processes together used more than 300 MiB" in rows["memory_together"]["detail"]
    assert rows["fork_bomb"]["detail"] == "more than 32 processes at once: killed"
    assert rows["holds_the_pipes"]["wall_time"] < 5  # a child holding stdout does not make it time out
    assert rows["long_plan"]["detail"] == "a plan of 3,000 steps is too long to judge (--max-plan-steps 1,000)"
    assert "a symbolic link" in rows["answer_symlink"]["detail"]
    assert "not a regular file" in rows["fifo_output"]["detail"]
    assert attacked["seconds"] < 120


def test_what_a_student_printed_cannot_reach_the_terminal_or_reports(attacked):
    printed = attacked["grading"].stdout + attacked["grading"].stderr
    assert b"\x1b" not in printed and b"\x07" not in printed
    reports = [path.read_text() for path in (attacked["ta"] / "grades").iterdir()] + [attacked["gradescope"]]
    assert not any("\x1b" in text or "\x07" in text for text in reports)
    row = attacked["rows"]["markup_and_escapes"]
    assert "[/]" in row["report"] and "[bold red]x[/bold red]" in row["report"]  # shown as text, not applied


def test_other_students_can_neither_read_nor_break_a_classmate(tmp_path):
    submissions = tmp_path / "submissions"
    answer = tmp_path / "answer.txt"
    puzzle = tmp_path / "hidden" / "easy.txt"
    puzzle.parent.mkdir()
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    subprocess.run([HEURIST, "hrd", "--algo", "astar", "--inputfile", str(puzzle), "--outputfile", str(answer)],
                   check=True, capture_output=True)
    (submissions / "alice").mkdir(parents=True)
    (submissions / "alice" / "solve.sh").write_text(f"echo '{answer.read_text()}' > \"$1\"\n")
    (submissions / "alice" / "notes.txt").write_text("alice's private notes\n")
    (submissions / "eve").mkdir()
    (submissions / "eve" / "solve.sh").write_text(
        f"cat {submissions}/alice/notes.txt && cp {submissions}/alice/solve.sh . && sh solve.sh \"$1\"\n"
        f"echo 'exit 1' > {submissions}/alice/solve.sh\n")
    before = digest_tree(submissions / "alice")
    done = subprocess.run([HEURIST, "grade", "klotski", "--programs", str(submissions), "--program",
                           "sh solve.sh {output}", str(puzzle.parent), "--no-cache", "--timeout", "10",
                           "--out", str(tmp_path / "grades"), "-q"], capture_output=True, timeout=120)
    assert done.returncode == 1, done.stderr
    rows = {row["program"]: row["verdict"] for row in json.loads((tmp_path / "grades/results.json").read_text())
            ["results"]}
    assert rows == {"alice": "pass", "eve": "crashed"}
    assert digest_tree(submissions / "alice") == before


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_link_or_fifo_at_a_report_path_is_refused_before_any_run(tmp_path, kind):
    puzzle = tmp_path / "easy.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    report = tmp_path / "gradescope.json"
    if kind == "symlink":
        report.symlink_to(target)
    else:
        os.mkfifo(report)
    done = subprocess.run([HEURIST, "grade", "klotski", "--program", "true", str(puzzle), "--no-cache",
                           "--gradescope", str(report)], capture_output=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1 and "not a regular file" in done.stderr.decode()
    assert target.read_text() == "precious\n"


def test_sigterm_kills_every_run_and_writes_no_half_report(tmp_path):
    puzzle = tmp_path / "easy.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    grader = subprocess.Popen([HEURIST, "grade", "klotski", "--program", f"sleep {MARK}5", "--program",
                               f"b=sleep {MARK}6", str(puzzle), "--no-cache", "--jobs", "2", "--timeout", "60",
                               "--out", str(tmp_path / "grades")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while len(survivors()) < 2 and time.time() < deadline:
        time.sleep(0.1)
    assert len(survivors()) == 2
    grader.send_signal(signal.SIGTERM)
    _, stderr = grader.communicate(timeout=30)
    assert grader.returncode == 143
    assert "interrupted" in stderr.decode() and "no report was written" in stderr.decode()
    time.sleep(0.5)
    assert survivors() == []
    shutil.rmtree(tmp_path)
    assert not (tmp_path / "grades" / "results.json").exists()


def test_no_isolation_is_said_loudly_and_recorded(tmp_path):
    puzzle = tmp_path / "easy.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    done = subprocess.run([HEURIST, "grade", "klotski", "--program", "true", str(puzzle), "--no-cache",
                           "--isolation", "none", "--out", str(tmp_path / "grades"), "-q"],
                          capture_output=True, timeout=60)
    assert "NO ISOLATION" in done.stderr.decode()
    document = json.loads((tmp_path / "grades" / "results.json").read_text())
    assert document["isolation"] == "none" and "NO ISOLATION" in document["isolation_warning"]
    assert "NO ISOLATION" in (tmp_path / "grades" / "report.md").read_text()


@pytest.mark.skipif(os.geteuid() != 0, reason="the dedicated-uid level needs root")
def test_dedicated_uid_runs_as_another_user_and_kills_what_it_leaves():
    tmp_path = Path(tempfile.mkdtemp(prefix="heurist-uid-test-", dir="/tmp"))  # pytest's own is private to root
    os.chmod(tmp_path, 0o755)
    puzzle = tmp_path / "easy.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    answer = tmp_path / "answer.txt"
    subprocess.run([HEURIST, "hrd", "--algo", "astar", "--inputfile", str(puzzle), "--outputfile", str(answer)],
                   check=True, capture_output=True)
    answer.chmod(0o644)
    script = tmp_path / "solve.sh"
    script.write_text(f'[ "$(id -u)" -ge 61000 ] && cp {answer} output.txt; setsid sleep {MARK}7 &\n')
    script.chmod(0o755)
    done = subprocess.run([HEURIST, "grade", "klotski", "--program", f"sh {script} {{output}}", str(puzzle), "--no-cache",
                           "--isolation", "dedicated-uid", "--out", str(tmp_path / "grades"), "-q",
                           "--workdir", str(tmp_path)], capture_output=True, timeout=60)
    assert "isolation is weak" in done.stderr.decode()
    row = json.loads((tmp_path / "grades" / "results.json").read_text())["results"][0]
    assert (row["verdict"], row["isolation"]) == ("pass", "dedicated uid")
    assert survivors() == []
    shutil.rmtree(tmp_path)


@pytest.mark.parametrize("directory", ["/", "~"])
def test_the_whole_file_system_or_home_is_never_the_program_directory(tmp_path, directory):
    puzzle = tmp_path / "easy.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_easy1.txt").read_bytes())
    done = subprocess.run([HEURIST, "grade", "klotski", "--program", "true", str(puzzle), "--no-cache"],
                          cwd=os.path.expanduser(directory), capture_output=True, timeout=60)
    assert done.returncode == 2
    assert "would show the runs the whole file system or your home directory" in done.stderr.decode()
