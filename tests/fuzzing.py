"""The command-line fuzzer shared by ``tests/test_fuzz.py`` and ``benchmarks/fuzz.py``.

Both import this module (the benchmark puts ``tests/`` on ``sys.path``).
It has three parts:

* **seeds**: the real course files under ``data/`` (Klotski V1/V2/V3 boards,
  ``.bwp`` files, Blokus piece files and a generated Blokus instance file,
  tiles files) and real solution files, made once by running heurist itself
  (``heurist solve`` text and JSON, ``heurist hrd``, ``heurist blocksworld``,
  ``heurist blokus --moves``) plus the course outputs kept in ``data/hrd``;
* **cases**: ``make_case(seed, index)`` builds one command line, fully
  determined by ``(seed, index)``: a command (``solve``, ``hrd``,
  ``blocksworld``, ``blokus``, ``validate``, ``check``, ``render``,
  ``export``, ``generate``, ``bench``), its input files (one of them mutated,
  or an option value mutated, or an output path made bad) and its output
  paths, all inside a fresh temporary working directory;
* **the oracle**: ``run_case`` runs the command as a subprocess
  (``sys.executable -m heurist.cli.main``, with a wall-clock timeout and
  ``--time-limit`` / ``--max-expansions`` / ``-MAX_ITERS`` where the command
  has them; ``use_limits`` changes those) or through another ``runner`` (the
  benchmark's fork server), and ``judge`` checks heurist's promise.

What the oracle demands (each failure is an outcome of its own):

``timeout``
    the process ran past the wall-clock timeout (every case carries limits).
``traceback``
    ``Traceback (most recent call last)`` on stdout or stderr.
``exit N``
    an exit status outside {0, 1, 2, 3} (the fuzzer sends no signal, so 130
    and 143 are violations too).
``stderr lines != 1``
    on exit 2, stderr is not exactly one line (one ``\\n``-terminated line).
``no file/line in message``
    on exit 2, the line is not ``heurist: WHERE: problem`` with WHERE naming
    the culprit: for a mutated file, the path exactly as it was given on the
    command line, optionally followed by a qualifier without a colon (JSON
    plans say ``plan.json step 3``), then ``:LINE`` with
    ``1 <= LINE <= lines in the file + 1`` (lines end at LF, CRLF or CR) when the file is a readable regular
    file (an empty file's error is on line 1); for a missing path, a directory
    or an unreadable file, the path without a line; for a bad output path,
    the path; for a mutated option value, the line must contain one of the
    option's spellings (``--board-size`` or ``-s``). A case whose input is
    not mutated may not exit 2 at all.
``output written on error``
    on exit 2, any file or directory in the working directory was created,
    removed or changed (contents, size or modification time).
``illegal plan``
    on exit 0 of ``solve --format json``: the plan, read from the JSON's
    ``start`` and per-step ``state`` (or ``action``, for domains that read
    plans by their actions), replayed through ``DOMAIN.plain(problem).successors``
    (never through ``heurist.analysis.validation`` or
    ``heurist.search.solutions.replay``), does not start at the instance's
    start, takes a step that is no successor, does not end at a goal, or does
    not cost the stated ``cost``.
``false valid``
    ``heurist validate`` exits 0 on a solution file that, read by the domain's
    own reader (``Domain.read_solution``) and replayed the same way, is
    illegal or does not reach a goal, or that claims "no solution" for an
    instance known to be solvable (every validate case uses such an instance);
    or on a JSON solution whose ``cost`` is not a number (a boolean is not
    one) or whose ``step`` is not the step's own integer.
``left running``
    a process of the case's session is still alive (not a zombie) two
    seconds after heurist exited.

Four classes of cases come on top of the mutations (``round_two``, drawn
from a random stream of their own so that the first cases stay as they were):

* **types in JSON**: a JSON solution with one field given a value of another
  type (``"cost": "60"``, ``"step": true``, null, a list) or a huge number
  (400 digits, ``1e400``);
* **signals**: SIGINT or SIGTERM at a random moment from 40 ms on (start-up
  included: such cases run ``python -m heurist.cli.entry``, the console
  script's guard) to a command that may run long; exit 130 or 143 is then
  allowed, with ``heurist: ... interrupted`` last on stderr or the search's
  ``status: interrupted``;
* **special files**: a FIFO or a link to ``/dev/zero`` at an input path, a
  FIFO with no reader at an output path, and damaged entries in the table
  cache (every case runs with ``HEURIST_CACHE=.heurist-cache``, in its own
  working directory): FIFOs, links to ``/dev/zero``, directories, truncated
  files and files of a valid checksum whose value has the wrong shape. A
  damaged cache is never the culprit: such a case may not exit 2;
* **long legal plans**: a Klotski plan of 5,000 to 200,000 moves back and
  forth before the goal, for ``validate`` and for ``render`` to a PNG or SVG.

The ordinary outcomes are ``ok 0``, ``unsolvable 1``, ``bad input 2`` and
``limit 3``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SRC = ROOT / "src"

OK_STATUSES = {0: "ok 0", 1: "unsolvable 1", 2: "bad input 2", 3: "limit 3"}
VIOLATIONS = ("timeout", "traceback", "exit N", "stderr lines != 1", "no file/line in message",
              "output written on error", "illegal plan", "false valid", "left running")
CACHE = ".heurist-cache"
"""Every case's table cache, relative: in its own working directory."""
TIME_LIMIT, MAX_EXPANSIONS = "2", "20000"
LIMITS = ["--time-limit", TIME_LIMIT, "--max-expansions", MAX_EXPANSIONS]
TIMEOUT = 30.0


def use_limits(time_limit: str, max_expansions: str) -> None:
    """Set the limits the cases built from now on carry (``--time-limit``, ``--max-expansions``,
    ``-MAX_ITERS`` and ``bench``'s own); the test keeps the defaults, the benchmark may pass
    smaller ones. The random choices that build a case do not depend on them."""
    global TIME_LIMIT, MAX_EXPANSIONS, LIMITS
    TIME_LIMIT, MAX_EXPANSIONS = time_limit, max_expansions
    LIMITS = ["--time-limit", TIME_LIMIT, "--max-expansions", MAX_EXPANSIONS]

# ----- seeds ----------------------------------------------------------------------------------

KLOTSKI = sorted(
    [p for p in (DATA / "hrd" / "w23_s24_char").glob("testhrd_*.txt") if "output" not in p.name]
    + sorted((DATA / "hrd" / "f24_w25_goal").glob("*.txt"))
    + [DATA / "hrd" / "f22_numeric" / name for name in
       ("hrd_input0.txt", "hrd_input1.txt", "hrd_input2.txt", "classic_handout.txt",
        "classic_alt_numbering.txt", "lucas_input2.txt")]
)
KLOTSKI_V1 = [p for p in KLOTSKI if p.parent.name == "f22_numeric"]
KLOTSKI_V23 = [p for p in KLOTSKI if p.parent.name != "f22_numeric"]
BWP = ([DATA / "blocksworld" / f"probA0{i}.bwp" for i in range(3, 8)]
       + [DATA / "blocksworld" / f"probB0{i}.bwp" for i in range(3, 6)]
       + sorted((DATA / "blocksworld" / "spring21_testcases").glob("*.bwp")))
BLOKUS_PIECES = [DATA / "blokus" / name for name in ("tiny_set.txt", "tiny_set_2.txt", "small_set.txt")]
TILES = sorted((DATA / "tiles").glob("*.txt"))

# Blokus puzzles on the piece files: (piece file name, `heurist blokus` words, `solve/validate` words)
BLOKUS_PUZZLES = [
    ("tiny_set.txt", ["-s", "4", "7", "-z", "fill"], ["--puzzle", "fill", "--board-size", "4", "7"]),
    ("tiny_set_2.txt", ["-s", "6", "6", "-z", "corners"], ["--puzzle", "corners", "--board-size", "6", "6"]),
    ("small_set.txt", ["-s", "6", "6", "-z", "cover", "-x", "3", "3", "[(2,2), (5,5), (1,4)]"],
     ["--puzzle", "cover", "--board-size", "6", "6", "--start", "3", "3", "--targets", "[(2,2), (5,5), (1,4)]"]),
]


def blokus_instance() -> str:
    """A Blokus instance file (pieces, then puzzle, board, start and targets) as ``heurist generate`` writes it."""
    from heurist.domains import get_domain

    return get_domain("blokus").generate(seed=0, count=1, pieces="tiny_set.txt", board_size=(5, 5))[0][1]


def env() -> dict[str, str]:
    """The subprocesses' environment: this checkout's ``src`` first on the path, no colour."""
    result = dict(os.environ)
    result["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])
    result.update({"MPLBACKEND": "Agg", "NO_COLOR": "1", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8",
                   "HEURIST_CACHE": CACHE})
    return result


def heurist(args: list[str], cwd: Path | str, timeout: float = TIMEOUT,
            interrupt: tuple[int, float] | None = None) -> subprocess.CompletedProcess:
    """``python -m heurist.cli.main ARGS`` in ``cwd``; on timeout its whole process group is killed.

    With ``interrupt=(signum, seconds)`` it runs ``python -m heurist.cli.entry ARGS`` (the console
    script's start-up guard included) and sends ``signum`` to that process alone after ``seconds``.
    """
    module = "heurist.cli.entry" if interrupt else "heurist.cli.main"
    process = subprocess.Popen([sys.executable, "-m", module, *args], cwd=cwd, env=env(),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        if interrupt is not None:
            try:
                process.wait(interrupt[1])
            except subprocess.TimeoutExpired:
                process.send_signal(interrupt[0])
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return subprocess.CompletedProcess(process.args, None, stdout, stderr)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@dataclass
class SolutionSeed:
    domain: str
    instance: Path
    words: list[str]  # instance options for validate / render
    format: str
    text: bytes


def make_solutions(workdir: Path) -> list[SolutionSeed]:
    """Real solution files of every format ``validate`` and ``render --plan`` read."""
    workdir.mkdir(parents=True, exist_ok=True)
    seeds: list[SolutionSeed] = []

    def run(args: list[str]) -> bytes:
        done = heurist(args, workdir, timeout=120)
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    def out_file(args: list[str], name: str) -> bytes:
        run(args)
        return (workdir / name).read_bytes()

    med4 = DATA / "hrd" / "w23_s24_char" / "testhrd_med4.txt"
    probe = [("klotski", med4, []), ("blocksworld", DATA / "blocksworld" / "probA05.bwp", []),
             ("tiles", DATA / "tiles" / "aima-26.txt", [])]
    probe += [("blokus", DATA / "blokus" / name, words) for name, _, words in BLOKUS_PUZZLES[:2]]
    for domain, instance, words in probe:
        seeds.append(SolutionSeed(domain, instance, words, "text", run(["solve", domain, str(instance), *words])))
        seeds.append(SolutionSeed(domain, instance, words, "json",
                                  run(["solve", domain, str(instance), *words, "--format", "json"])))
    seeds.append(SolutionSeed("klotski", med4, [], "hrd", out_file(
        ["hrd", "--algo", "astar", "--inputfile", str(med4), "--outputfile", "v2.txt"], "v2.txt")))
    v1 = DATA / "hrd" / "f22_numeric" / "hrd_input1.txt"
    seeds.append(SolutionSeed("klotski", v1, [], "hrd", out_file(["hrd", str(v1), "dfs.txt", "astar.txt"],
                                                                 "astar.txt")))
    for instance, solution in [("f22_numeric/hrd_input0.txt", "f22_numeric/hrd_solution0.txt"),
                               ("f24_w25_goal/easy3.txt", "f24_w25_goal/easy3.out"),
                               ("f24_w25_goal/med2.txt", "f24_w25_goal/med2.out"),
                               ("w23_s24_char/testhrd_easy1.txt", "w23_s24_char/testhrd_easy1_astar_output_1.txt")]:
        seeds.append(SolutionSeed("klotski", DATA / "hrd" / instance, [], "hrd",
                                  (DATA / "hrd" / solution).read_bytes()))
    bwp = DATA / "blocksworld" / "probA05.bwp"
    seeds.append(SolutionSeed("blocksworld", bwp, [], "trace", run(["blocksworld", str(bwp)])))
    for name, words, solve_words in BLOKUS_PUZZLES[:2]:
        seeds.append(SolutionSeed("blokus", DATA / "blokus" / name, solve_words, "game",
                                  run(["blokus", "-p", name, *words, "--moves"])))
    return seeds


# ----- mutations ------------------------------------------------------------------------------

INVISIBLE = ["\ufeff", "\f", "\u2028", "\u00a0", "\u200b", "\x00", "\v", "\r"]
NUMBER = re.compile(rb"-?\d+")


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def mutate_bytes(data: bytes, rng: random.Random, kind: str) -> bytes:
    """One mutation of a file's bytes; ``kind`` names it (see MUTATIONS)."""
    lines = _lines(data)
    pick = rng.randrange(max(1, len(lines)))
    if kind == "byte flip":
        out = bytearray(data or b"\n")
        for _ in range(rng.randint(1, 3)):
            position = rng.randrange(len(out))
            out[position] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == "delete line":
        return b"\n".join(lines[:pick] + lines[pick + 1:])
    if kind == "duplicate line":
        return b"\n".join(lines[:pick + 1] + lines[pick:])
    if kind == "swap lines":
        other = rng.randrange(max(1, len(lines)))
        lines[pick], lines[other] = lines[other], lines[pick]
        return b"\n".join(lines)
    if kind == "truncate":
        return data[:rng.randrange(max(1, len(data)))]
    if kind == "empty":
        return b""
    if kind == "whitespace only":
        return rng.choice([b" ", b"\n\n\n", b" \t \n  \n", b"\r\n"])
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "tabs":
        if b" " in data and rng.random() < 0.5:
            return data.replace(b" ", b"\t")
        lines[pick] = lines[pick][:1] + b"\t" + lines[pick][1:]
        return b"\n".join(lines)
    if kind == "non-utf8":
        position = rng.randrange(len(data) + 1)
        return data[:position] + rng.choice([b"\xff", b"\xe9", b"\xc3\x28", b"\x80\x80"]) + data[position:]
    if kind == "invisible char":
        character = rng.choice(INVISIBLE).encode()
        line = lines[pick]
        at = rng.randrange(len(line) + 1)
        lines[pick] = line[:at] + character + line[at:]
        return b"\n".join(lines)
    if kind in ("huge number", "negative number", "zero number"):
        numbers = list(NUMBER.finditer(data))
        if not numbers:
            return data + (b"\n99999999999999999999999\n" if kind == "huge number" else b"\n-1\n")
        match = rng.choice(numbers)
        new = {"huge number": rng.choice([b"99999999999999999999999", b"1000000", b"1" + b"0" * 5000]),
               "negative number": b"-" + match.group().lstrip(b"-") if rng.random() < 0.7 else b"-1",
               "zero number": b"0"}[kind]
        return data[:match.start()] + new + data[match.end():]
    if kind == "long line":
        line = lines[pick] or b"x"
        lines[pick] = (line * (200_000 // len(line) + 1))[:200_000]
        return b"\n".join(lines)
    if kind == "replace char":
        if not data:
            return b"0"
        position = rng.randrange(len(data))
        return data[:position] + bytes([rng.choice(b"0123456789.#<>^v12BX -()[],")]) + data[position + 1:]
    raise ValueError(kind)


MUTATIONS = ("byte flip", "delete line", "duplicate line", "swap lines", "truncate", "empty",
             "whitespace only", "crlf", "bom", "tabs", "non-utf8", "invisible char", "huge number",
             "negative number", "zero number", "long line", "replace char")
SPECIAL = ("directory", "unreadable", "missing")


def board_of_size(domain: str, size: int, rng: random.Random) -> bytes:
    """An instance with a board of size 0 or 1000 (rows, columns, stacks or tiles)."""
    if domain == "klotski":
        if size == 0:
            return b"\n"
        if rng.random() < 0.5:  # 1000 rows of 4
            rows = ["^11^", "v11v", "^<>^", "v22v", "2..2"] + ["...."] * (size - 5)
        else:  # 5 rows of 1000
            rows = [row + "." * (size - 4) for row in ["^11^", "v11v", "^<>^", "v22v", "2..2"]]
        return ("\n".join(rows) + "\n").encode()
    if domain == "blocksworld":
        if size == 0:
            return b"0 0 0\n>>>>>>>>>>\n>>>>>>>>>>\n"
        return rng.choice([b"1000 3 3\n>>>>>>>>>>\nAB\nC\n\n>>>>>>>>>>\nCBA\n\n\n>>>>>>>>>>\n",
                           b"3 1000 3\n>>>>>>>>>>\nAB\nC\n\n>>>>>>>>>>\nCBA\n\n\n>>>>>>>>>>\n"])
    if domain == "tiles":
        if size == 0:
            return b"# no board\n"
        numbers = list(range(size))
        rng.shuffle(numbers)
        return ("\n".join(str(n) for n in numbers) + "\n").encode()  # 1000 rows of one tile
    if domain == "blokus":
        return blokus_instance().replace("board: 5 5", f"board: {size} {size}").encode()
    raise ValueError(domain)


# ----- cases ----------------------------------------------------------------------------------


@dataclass
class Case:
    seed: int
    index: int
    command: str
    format: str
    mutation: str
    argv: list[str]
    files: dict[str, Any] = field(default_factory=dict)  # path -> bytes | "directory" | "unreadable"
    culprit: str | None = None  # the mutated path, as on the command line
    culprit_kind: str | None = None  # "file", "special", "output", "option" or None (clean)
    option_flags: tuple[str, ...] = ()
    plan_check: dict | None = None  # solve --format json: {"domain", "instance", "words"}
    validate_check: dict | None = None  # validate: {"domain", "instance", "words", "solution"}
    timeout: float = TIMEOUT
    interrupt: tuple[int, float] | None = None  # (signal, seconds after the start)
    round_two: str = ""  # the class of round_two() that changed the case, if one did

    @property
    def name(self) -> str:
        return f"{self.seed}-{self.index}"

    def describe(self) -> str:
        extra = f" + {self.round_two}" if self.round_two else ""
        return (f"{self.command} [{self.format}] {self.mutation}{extra}: "
                f"heurist {' '.join(map(_quote, self.argv))}")


def _quote(word: str) -> str:
    if re.fullmatch(r"[\w./:=,+-]+", word):
        return word
    return json.dumps(word) if len(word) < 80 else json.dumps(word[:40] + "...")


def _instance_words(domain: str, path: Path, rng: random.Random) -> tuple[list[str], list[str]]:
    """(words for solve/check/render, words for validate) for an instance of ``domain``."""
    if domain != "blokus":
        return [], []
    if path.name.endswith(".txt") and path.name in {name for name, _, _ in BLOKUS_PUZZLES}:
        words = next(w for name, _, w in BLOKUS_PUZZLES if name == path.name)
        return words, words
    return [], []


def _pick_instance(domain: str, rng: random.Random) -> tuple[Path | None, bytes, str]:
    """(seed path, contents, format label) of a real instance of ``domain``."""
    if domain == "klotski":
        path = rng.choice(KLOTSKI)
        label = "klotski V1" if path in KLOTSKI_V1 else ("klotski V3" if "f24" in str(path) else "klotski V2")
        return path, path.read_bytes(), label
    if domain == "blocksworld":
        path = rng.choice(BWP)
        return path, path.read_bytes(), "bwp"
    if domain == "tiles":
        path = rng.choice(TILES)
        return path, path.read_bytes(), "tiles"
    if rng.random() < 0.25:
        return None, blokus_instance().encode(), "blokus instance"
    path = rng.choice(BLOKUS_PIECES)
    return path, path.read_bytes(), "blokus pieces"


def _mutate_into(case: Case, rel: str, data: bytes, domain: str, rng: random.Random) -> None:
    """Put ``data``, mutated (or a special path), at ``rel`` and make it the case's culprit."""
    roll = rng.random()
    if roll < 0.06:
        kind = rng.choice(SPECIAL)
        case.mutation = kind
        case.culprit, case.culprit_kind = rel, "special"
        if kind != "missing":
            case.files[rel] = kind
        return
    if roll < 0.08 and domain:
        size = rng.choice([0, 1000])
        case.mutation = f"board size {size}"
        case.files[rel] = board_of_size(domain, size, rng)
    else:
        kinds = rng.sample(MUTATIONS, 2 if rng.random() < 0.2 else 1)
        case.mutation = " + ".join(kinds)
        for kind in kinds:
            data = mutate_bytes(data, rng, kind)
        case.files[rel] = data
    case.culprit, case.culprit_kind = rel, "file"


BAD_VALUES = ["0", "-1", "nan", "inf", "-inf", "abc", "", "1e309", "99999999999999999999", "3.5", "1,2", "é",
              " 1", "0x10", "--"]
COMMANDS = ("solve", "hrd", "blocksworld", "blokus", "validate", "check", "render", "export", "generate",
            "bench")
WEIGHTS = (22, 7, 7, 8, 20, 7, 9, 4, 8, 3)
DOMAINS = ("klotski", "blocksworld", "blokus", "tiles")


def make_case(seed: int, index: int, solutions: list[SolutionSeed]) -> Case:
    """The case ``index`` of the run with ``seed``: the same pair gives the same case."""
    rng = random.Random(f"{seed}:{index}")
    command = rng.choices(COMMANDS, WEIGHTS)[0]
    case = Case(seed, index, command, "", "none", [])
    mutate = rng.random() < 0.85  # else the seed file as it is
    builder = globals()[f"_case_{command}"]
    builder(case, rng, mutate, solutions)
    if case.mutation == "none" and mutate and rng.random() < 0.5:
        _mutate_option(case, rng)
    round_two(case, random.Random(f"{seed}:{index}:round two"), solutions)
    return case


# ----- round two: types in JSON, signals, special files, long plans ---------------------------------

LONG_RUNNING = ("solve", "hrd", "blocksworld", "blokus", "validate", "check", "bench")
JSON_VALUES = ['"60"', "true", "false", "null", "[]", "{}", '"x"', "1" + "0" * 400, "1e400", "-1e400", "-1",
               "0.5"]
LONG_PLAN_MOVES = (5_000, 50_000, 200_000)
EASY1 = DATA / "hrd" / "w23_s24_char" / "testhrd_easy1.txt"


def round_two(case: Case, rng: random.Random, solutions: list[SolutionSeed]) -> None:
    """Layer one of the round-two classes on ``case`` (or none), from ``rng`` alone."""
    json_roll, roll = rng.random(), rng.random()
    solution = case.validate_check["solution"] if case.validate_check else _render_plan_path(case)
    if (solution and solution.endswith(".json") and isinstance(case.files.get(solution), bytes)
            and case.culprit_kind in (None, "file") and json_roll < 0.5):
        _json_types(case, solution, rng)
    elif roll < 0.05 and case.argv[0] in LONG_RUNNING and case.argv[:2] != ["bench", "--list"]:
        case.interrupt = (rng.choice([signal.SIGINT, signal.SIGTERM]), round(rng.uniform(0.04, 1.0), 3))
        case.round_two = f"signal {signal.Signals(case.interrupt[0]).name} at {case.interrupt[1]:g} s"
    elif roll < 0.25 and any("klotski" in word for word in case.argv[:2]) and case.argv[0] != "export":
        _damage_cache(case, rng)
    elif roll < 0.35 and case.culprit_kind is None and case.argv[0] in ("validate", "render"):
        _long_plan(case, rng)
    elif roll < 0.37 and case.culprit_kind is None:
        _special_path(case, rng)


def _render_plan_path(case: Case) -> str | None:
    if case.argv[0] == "render" and "--plan" in case.argv:
        return case.argv[case.argv.index("--plan") + 1]
    return None


def _json_types(case: Case, path: str, rng: random.Random) -> None:
    """One field of a JSON solution gets a value of another type, or a huge number."""
    try:
        document = json.loads(case.files[path])
    except ValueError:
        return
    if not isinstance(document, dict):
        return
    places: list[tuple[Any, Any]] = [(document, key) for key in ("cost", "status", "plan", "start", "domain")
                                     if key in document]
    plan = document.get("plan")
    if isinstance(plan, list):
        places += [(step, key) for step in plan[:5] if isinstance(step, dict) for key in ("step", "action", "state")
                   if key in step]
    if not places:
        return
    container, key = rng.choice(places)
    value = rng.choice(JSON_VALUES)
    container[key] = "@@VALUE@@"
    case.files[path] = json.dumps(document, indent=1).replace('"@@VALUE@@"', value).encode()
    case.round_two = f"JSON {key}: {value[:12]}"
    case.mutation = "json type"
    case.culprit, case.culprit_kind = path, "file"
    case.plan_check = None


_CACHE_SEEDS: dict[str, dict[str, bytes]] = {}


def cache_seed(instance: bytes, name: str) -> dict[str, bytes]:
    """The table cache files ``heurist solve klotski -H pdb`` makes for an instance (made once, by content)."""
    key = hashlib.sha1(instance).hexdigest()
    if key not in _CACHE_SEEDS:
        with tempfile.TemporaryDirectory(prefix="fuzz-cache-") as directory:
            (Path(directory) / name).write_bytes(instance)
            heurist(["solve", "klotski", name, "--heuristic", "pdb", "--time-limit", "20"], directory, timeout=60)
            root = Path(directory) / CACHE
            _CACHE_SEEDS[key] = {str(path.relative_to(directory)): path.read_bytes()
                                 for path in root.rglob("*.bin")} if root.is_dir() else {}
    return _CACHE_SEEDS[key]


def _damage_cache(case: Case, rng: random.Random) -> None:
    """Put damaged entries where the case's Klotski instance has its pattern databases."""
    instance = next((rel for rel, content in case.files.items()
                     if rel.startswith("in/") and isinstance(content, bytes) and not rel.endswith(".json")
                     and "solution" not in rel), None)
    if instance is None:
        return
    seeds = cache_seed(case.files[instance], Path(instance).name)
    if not seeds:
        return
    kind = rng.choice(["fifo", "dev-zero", "directory", "truncated", "wrong shape"])
    for rel, data in seeds.items():
        if kind == "truncated":
            case.files[rel] = data[: rng.randrange(len(data))]
        elif kind == "wrong shape":
            header = len(b"heurist cache\n") + 1
            import marshal
            import zlib

            stored_key, _ = marshal.loads(data[header + 4:])
            payload = marshal.dumps((stored_key, rng.choice(["text", (1, 2, 3), {"a": "b"}, ({1: "x"}, 2), None])))
            case.files[rel] = data[:header] + zlib.crc32(payload).to_bytes(4, "little") + payload
        else:
            case.files[rel] = kind
    case.round_two = f"cache: {kind}"
    if "--heuristic" not in case.argv and case.argv[0] in ("solve", "check"):
        case.argv += ["--heuristic", "pdb"]


def long_plan(moves: int) -> bytes:
    """A legal CSC384 V2 plan for ``testhrd_easy1.txt``: ``moves`` moves there and back, then the goal."""
    start, goal = "2^22\n2v<>\n<><>\n11.^\n11.v", "2^22\n2v<>\n<><>\n.11^\n.11v"
    boards = [start if index % 2 == 0 else goal for index in range(moves + 1)]
    if moves % 2 == 0:
        boards.append(goal)
    return ("\n\n".join(boards) + "\n").encode()


def _long_plan(case: Case, rng: random.Random) -> None:
    moves = rng.choice(LONG_PLAN_MOVES)
    case.files = {"in/testhrd_easy1.txt": EASY1.read_bytes(), "in/long.txt": long_plan(moves)}
    case.format = "klotski long plan"
    case.round_two = f"long plan of {moves:,} moves"
    case.culprit = case.culprit_kind = None
    if case.argv[0] == "validate":
        case.argv = ["validate", "klotski", "in/testhrd_easy1.txt", "in/long.txt", *LIMITS]
        case.validate_check = {"domain": "klotski", "instance": "in/testhrd_easy1.txt", "words": [],
                               "solution": "in/long.txt"}
    else:
        case.argv = ["render", "klotski", "in/testhrd_easy1.txt", "--plan", "in/long.txt", "--out",
                     f"out/long.{rng.choice(['png', 'svg'])}"]
    case.command = f"{case.argv[0]} klotski"


def _special_path(case: Case, rng: random.Random) -> None:
    """A FIFO or a link to /dev/zero at an input, or a FIFO no one reads at an output."""
    inputs = [rel for rel, content in case.files.items() if rel.startswith("in/") and isinstance(content, bytes)
              and rel in case.argv]
    outputs = [word for word in case.argv if word.startswith("out/") and "." in word.rsplit("/", 1)[-1]]
    if outputs and rng.random() < 0.4:
        target, kind = rng.choice(outputs), "fifo"
        case.culprit_kind = "output"
    elif inputs:
        target, kind = rng.choice(inputs), rng.choice(["fifo", "dev-zero", "dev-zero"])
        case.culprit_kind = "special"
    else:
        return
    case.files[target] = kind
    case.culprit = target
    case.round_two = f"{kind} at {target}"
    case.plan_check = case.validate_check = None


def _mutate_option(case: Case, rng: random.Random) -> None:
    """Give one numeric option of the command line a bad value (the culprit is then the option)."""
    flags = [i for i, word in enumerate(case.argv) if word in (
        "--time-limit", "--max-expansions", "--memory-limit", "--weight", "-MAX_ITERS", "--max-states",
        "--seed", "--count", "--rows", "--cols", "--steps", "--stacks", "--blocks", "--jobs", "--frame-time")]
    if not flags:
        return
    at = rng.choice(flags)
    case.argv[at + 1] = rng.choice(BAD_VALUES)
    case.mutation = f"option {case.argv[at]}={case.argv[at + 1]!r}"
    spellings = {"-MAX_ITERS": ("-MAX_ITERS", "--max-iters"), "--weight": ("--weight", "-w"),
                 "--jobs": ("--jobs", "-j")}
    case.culprit, case.culprit_kind = case.argv[at], "option"
    case.option_flags = spellings.get(case.argv[at], (case.argv[at],))
    case.plan_check = None


def _instance_case(case: Case, rng: random.Random, mutate: bool, domain: str) -> tuple[str, list[str]]:
    path, data, label = _pick_instance(domain, rng)
    case.format = label
    name = path.name if path else "instance.txt"
    rel = f"in/{name}"
    if mutate:
        _mutate_into(case, rel, data, domain, rng)
    else:
        case.files[rel] = data
    words, _ = _instance_words(domain, path, rng) if path else ([], [])
    return rel, list(words)


def _case_solve(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    domain = rng.choice(DOMAINS)
    rel, words = _instance_case(case, rng, mutate, domain)
    algo = rng.choice(["astar", "astar", "bfs", "dfs", "ucs", "greedy", "wastar", "idastar"])
    fmt = rng.choice(["text", "json", "json"])
    case.argv = ["solve", domain, rel, *words, "--algo", algo, "--format", fmt, *LIMITS]
    if algo == "wastar":
        case.argv += ["--weight", "2"]
    if rng.random() < 0.15:
        case.argv += ["--render", f"out/plan.{rng.choice(['svg', 'png', 'html'])}"]
    if rng.random() < 0.05:
        _bad_output(case, rng, "--render", "svg")
    case.command = f"solve {domain}"
    if fmt == "json":
        case.plan_check = {"domain": domain, "instance": rel, "words": words}


def _bad_output(case: Case, rng: random.Random, flag: str, ext: str) -> None:
    """Point an output option at an existing directory or into a missing one."""
    if case.culprit_kind is not None:
        return
    at = case.argv.index(flag) + 1 if flag in case.argv else None
    kind = rng.choice(["directory", "missing directory"])
    target = f"out/taken.{ext}" if kind == "directory" else f"out/nowhere/x.{ext}"
    if kind == "directory":
        case.files[target] = "directory"
    if at is None:
        case.argv += [flag, target]
    else:
        case.argv[at] = target
    case.mutation = f"output path: {kind}"
    case.culprit, case.culprit_kind = target, "output"
    case.plan_check = None


def _case_hrd(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    v1 = rng.random() < 0.35
    path = rng.choice(KLOTSKI_V1 if v1 else KLOTSKI_V23)
    case.format = "klotski V1" if v1 else ("klotski V3" if "f24" in str(path) else "klotski V2")
    rel = f"in/{path.name}"
    if mutate:
        _mutate_into(case, rel, path.read_bytes(), "klotski", rng)
    else:
        case.files[rel] = path.read_bytes()
    if v1:
        case.command = "hrd V1"
        case.argv = ["hrd", rel, "out/dfs.txt", "out/astar.txt", *LIMITS]
    else:
        case.command = "hrd V2/V3"
        case.argv = ["hrd", "--algo", rng.choice(["astar", "dfs"]), "--inputfile", rel,
                     "--outputfile", "out/solution.txt", *LIMITS]
        if rng.random() < 0.1:
            _bad_output(case, rng, "--outputfile", "txt")
    if rng.random() < 0.1:
        case.argv += ["--render", "out/plan.svg"]


def _case_blocksworld(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    rel, _ = _instance_case(case, rng, mutate, "blocksworld")
    case.argv = ["blocksworld", rel, "-H", rng.choice(["H0", "H1", "deadlock", "h6", "prefix"]),
                 "-MAX_ITERS", MAX_EXPANSIONS]
    if rng.random() < 0.1:
        case.argv += ["--render", "out/plan.svg"]


def _case_blokus(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    name, words, _ = rng.choice(BLOKUS_PUZZLES)
    path = DATA / "blokus" / name
    case.format = "blokus pieces"
    rel = f"in/{name}"
    if mutate:
        _mutate_into(case, rel, path.read_bytes(), "", rng)
    else:
        case.files[rel] = path.read_bytes()
    words = list(words)
    algo = rng.choice(["dfs", "bfs", "ucs", "astar"])
    case.argv = ["blokus", "-p", rel, "-f", algo, *words, *LIMITS]
    if rng.random() < 0.4:
        case.argv.append("--moves")


def _solution_case(case: Case, rng: random.Random, mutate: bool, solutions: list[SolutionSeed]) -> SolutionSeed:
    seed = rng.choice(solutions)
    case.format = f"{seed.domain} {seed.format}"
    instance = f"in/{seed.instance.name}"
    case.files[instance] = seed.instance.read_bytes()
    rel = "in/solution" + (".json" if seed.format == "json" else ".txt")
    if mutate:
        _mutate_into(case, rel, seed.text, "", rng)
    else:
        case.files[rel] = seed.text
    return seed


def _case_validate(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    seed = _solution_case(case, rng, mutate, solutions)
    instance = f"in/{seed.instance.name}"
    case.command = f"validate {seed.domain}"
    case.argv = ["validate", seed.domain, instance, "in/solution" + (".json" if seed.format == "json" else ".txt"),
                 *seed.words, *LIMITS]
    if rng.random() < 0.3:
        case.argv += ["--format", "json"]
    if rng.random() < 0.2:
        case.argv.append(rng.choice(["--no-optimality", "--require-optimal"]))
    case.validate_check = {"domain": seed.domain, "instance": instance, "words": seed.words,
                           "solution": case.argv[3]}


def _case_check(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    domain = rng.choice(["klotski", "blocksworld", "tiles", "blokus"])
    rel, words = _instance_case(case, rng, mutate, domain)
    heuristic = {"klotski": "manhattan", "blocksworld": "h1", "tiles": "manhattan", "blokus": "cover"}[domain]
    case.command = f"check {domain}"
    case.argv = ["check", domain, rel, *words, "--heuristic", heuristic, "--max-states", "2000", "--quiet"]


def _case_render(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    ext = rng.choice(["svg", "svg", "png", "html", "gif"])
    if rng.random() < 0.5:
        seed = _solution_case(case, rng, mutate, solutions)
        case.command = "render --plan"
        case.argv = ["render", seed.domain, f"in/{seed.instance.name}", *seed.words, "--plan",
                     "in/solution" + (".json" if seed.format == "json" else ".txt"), "--out", f"out/plan.{ext}"]
    else:
        domain = rng.choice(DOMAINS)
        rel, words = _instance_case(case, rng, mutate, domain)
        case.command = "render"
        case.argv = ["render", domain, rel, *words, "--out", f"out/start.{ext}"]
    if rng.random() < 0.08:
        _bad_output(case, rng, "--out", ext)


def _case_export(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    rel, _ = _instance_case(case, rng, mutate, "blocksworld")
    case.command = "export pddl"
    case.argv = ["export", "pddl", rel, "--out", "out/pddl"]


def _case_generate(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    domain = rng.choice(DOMAINS)
    case.command = f"generate {domain}"
    case.format = "options"
    options = {"klotski": ["--steps", "30"], "blocksworld": ["--stacks", "3", "--blocks", "5"],
               "tiles": ["--rows", "3", "--cols", "3", "--steps", "20"],
               "blokus": ["--pieces", "tiny_set.txt", "--board-size", "5", "5"]}[domain]
    case.argv = ["generate", domain, "--seed", str(rng.randrange(100)), "--count", "2", *options,
                 "--out", "out/gen"]
    if not mutate:
        return
    roll = rng.random()
    if roll < 0.6:
        _mutate_option(case, rng)
    elif roll < 0.8 and domain == "blokus":
        at = case.argv.index("--board-size")
        case.argv[at + 1:at + 3] = rng.choice([["0", "0"], ["1", "1"], ["-3", "5"], ["1000", "1000"], ["x", "5"]])
        case.mutation = f"option --board-size {' '.join(case.argv[at + 1:at + 3])}"
        case.culprit, case.culprit_kind = "--board-size", "option"
        case.option_flags = ("--board-size", "-s", "--targets")  # a board too small for the targets
    elif roll < 0.8 and domain == "klotski":
        case.argv += ["--pieces", rng.choice(["1,2,3,4", "9,9,9,9", "a,b", "1,-1,0,0", "1"])]
        case.mutation = f"option --pieces {case.argv[-1]}"
        case.culprit, case.culprit_kind, case.option_flags = "--pieces", "option", ("--pieces",)
    else:
        _bad_output(case, rng, "--out", "d")
        if case.culprit_kind == "output":
            case.files[case.culprit] = rng.choice([b"an existing file\n", "directory"])
            case.mutation = "output path: " + ("existing file" if isinstance(case.files[case.culprit], bytes)
                                               else "directory")


def _case_bench(case: Case, rng: random.Random, mutate: bool, solutions: list) -> None:
    case.format = "options"
    if rng.random() < 0.4:
        case.command = "bench --list"
        case.argv = ["bench", "--list"]
        return
    case.command = "bench run"
    domain = rng.choice(["tiles", "blocksworld"])
    options = ":--rows 2 --cols 3" if domain == "tiles" else ":--stacks 3 --blocks 3"
    case.argv = ["bench", "--generated", f"{domain}:1:{rng.randrange(10)}{options}", "--algorithms", "astar",
                 "--heuristics", "default", "--time-limit", TIME_LIMIT, "--max-expansions", MAX_EXPANSIONS,
                 "--jobs", "1", "--quiet", "--out", "out/bench"]
    if mutate and rng.random() < 0.5:
        _mutate_option(case, rng)


# ----- running and judging --------------------------------------------------------------------


@dataclass
class Result:
    case: Case
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    violations: list[str]

    @property
    def outcome(self) -> str:
        if self.violations:
            return self.violations[0].split(":")[0]
        return OK_STATUSES.get(self.returncode, f"interrupted {self.returncode}")

    def report(self) -> str:
        stderr = self.stderr if len(self.stderr) < 600 else self.stderr[:300] + " ... " + self.stderr[-300:]
        return (f"case {self.case.name}: {self.case.describe()}\n  exit {self.returncode} after "
                f"{self.seconds:.1f}s; {'; '.join(self.violations)}\n  stderr: {stderr.strip()!r}")


def _materialize(case: Case, workdir: Path) -> None:
    (workdir / "in").mkdir()
    (workdir / "out").mkdir()
    for rel, content in case.files.items():
        path = workdir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == "directory":
            path.mkdir()
        elif content == "fifo":
            os.mkfifo(path)
        elif content == "dev-zero":
            os.symlink("/dev/zero", path)
        elif content == "unreadable":
            if os.geteuid() == 0:  # root reads a mode-000 file: a symlink loop cannot be read by anyone
                os.symlink(path.name, path)
            else:
                path.write_bytes(b"unreadable\n")
                path.chmod(0)
        else:
            path.write_bytes(content)


def snapshot(workdir: Path) -> dict[str, tuple]:
    """Every path under ``workdir`` with its kind and, for files, size, modification time and a digest."""
    found: dict[str, tuple] = {}
    for root, dirs, files in os.walk(workdir):
        dirs[:] = [name for name in dirs if not (root == str(workdir) and name == CACHE)]  # tables may be kept
        for name in dirs + files:
            path = Path(root) / name
            rel = str(path.relative_to(workdir))
            try:
                info = path.lstat()
            except OSError:
                continue
            digest = None
            if path.is_file() and not path.is_symlink():
                try:
                    digest = hashlib.sha1(path.read_bytes()).hexdigest()
                except OSError:
                    digest = "unreadable"
            if path.is_dir() and not path.is_symlink():
                # A directory's size and time change when a file is created and removed in it, as a
                # writability check does; only what it holds counts, and that is listed on its own.
                found[rel] = (info.st_mode, None, None, None)
            else:
                found[rel] = (info.st_mode, info.st_size, info.st_mtime_ns, digest)
    return found


def run_case(case: Case, base: Path | None = None, runner: Any = None) -> Result:
    """Run one case in a fresh working directory under ``base`` and judge it.

    ``runner(argv, cwd, timeout)`` runs heurist and returns a ``CompletedProcess``
    (``returncode`` None on timeout); the default is :func:`heurist`, a subprocess.
    """
    runner = runner or heurist
    workdir = Path(tempfile.mkdtemp(prefix=f"fuzz-{case.name}-", dir=base))
    try:
        _materialize(case, workdir)
        before = snapshot(workdir)
        started = time.monotonic()
        if case.interrupt is not None:  # signals need the real start-up: always a subprocess
            done = heurist(case.argv, workdir, case.timeout, interrupt=case.interrupt)
        else:
            done = runner(case.argv, workdir, case.timeout)
        seconds = time.monotonic() - started
        stdout = done.stdout.decode("utf-8", "replace")
        stderr = done.stderr.decode("utf-8", "replace")
        violations = judge(case, done.returncode, stdout, stderr, before, snapshot(workdir), workdir)
        left = left_running(workdir)
        if left:
            violations.append(f"left running: {left}")
        return Result(case, done.returncode, stdout, stderr, seconds, violations)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def left_running(workdir: Path, grace: float = 2.0) -> str | None:
    """A process still alive (not a zombie) ``grace`` seconds on whose working directory is ``workdir``."""
    deadline = time.monotonic() + grace
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if os.readlink(f"/proc/{entry}/cwd").startswith(str(workdir)):
                    stat_text = Path(f"/proc/{entry}/stat").read_text()
                    if stat_text[stat_text.rfind(")") + 2] != "Z":
                        found.append(Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")[:80])
            except OSError:
                continue
        if not found or time.monotonic() > deadline:
            return b"; ".join(found).decode("utf-8", "replace") if found else None
        time.sleep(0.05)


INTERRUPTED = re.compile(r"^heurist: .*interrupted", re.M)


def judge(case: Case, returncode: int | None, stdout: str, stderr: str, before: dict, after: dict,
          workdir: Path) -> list[str]:
    """Every broken promise of one run, as ``"outcome: detail"`` strings (none when all is well)."""
    violations: list[str] = []
    if returncode is None:
        return [f"timeout: still running after {case.timeout:.0f}s"]
    if "Traceback (most recent call last)" in stdout + stderr:
        last = [line for line in stderr.splitlines() if line.strip()][-1:] or [""]
        violations.append(f"traceback: {last[0][:200]}")
    if case.interrupt is not None and returncode == 128 + case.interrupt[0]:
        if not (INTERRUPTED.search(stderr) or re.search(r'status"?: "?interrupted', stdout)):
            violations.append(f"exit N: exit {returncode} without saying it was interrupted")
        return violations
    if returncode not in OK_STATUSES:
        violations.append(f"exit N: exit {returncode}")
    if returncode == 2:
        lines = stderr.split("\n")
        if not (stderr.endswith("\n") and len(lines) == 2):
            violations.append(f"stderr lines != 1: {stderr.count(chr(10))} lines")
        first = stderr.split("\n", 1)[0]
        problem = message_problem(case, first, workdir)
        if problem:
            violations.append(f"no file/line in message: {problem}")
        if before != after:
            changed = sorted(set(before) ^ set(after) | {k for k in before if k in after and before[k] != after[k]})
            violations.append(f"output written on error: {', '.join(changed)[:200]}")
    if returncode == 0 and case.plan_check is not None:
        problem = check_json_plan(case.plan_check, stdout, workdir)
        if problem:
            violations.append(f"illegal plan: {problem}")
    if returncode == 0 and case.validate_check is not None:
        problem = check_validated(case.validate_check, workdir)
        if problem:
            violations.append(f"false valid: {problem}")
    return violations


def message_problem(case: Case, line: str, workdir: Path) -> str | None:
    """Why an exit-2 message does not name the culprit as the oracle demands, or None."""
    if case.culprit_kind is None:
        return "exit 2 on an input that was not mutated"
    if not line.startswith("heurist: "):
        return "the line does not start with 'heurist: '"
    if case.culprit_kind == "option":
        if not any(flag in line for flag in case.option_flags):
            return f"the message does not name {case.culprit}"
        return None
    path = re.escape(case.culprit)
    if case.culprit_kind in ("special", "output"):
        pattern = rf"heurist: {path}(?: [^:\n]*)?(?::\d+)?: "
        return None if re.match(pattern, line) else f"the message does not start with '{case.culprit}:'"
    match = re.match(rf"heurist: {path}(?: [^:\n]*)?(?::(\d+))?: ", line)
    if not match:
        return f"the message does not start with '{case.culprit}:'"
    if match.group(1) is None:
        return None  # a problem of the whole file (no 2x2 piece, no plan): no line applies
    content = case.files[case.culprit]
    count = len(re.split(rb"\r\n|\r|\n", content))  # lines end at LF, CRLF or CR in every reader
    if not 1 <= int(match.group(1)) <= count + 1:
        return f"line {match.group(1)} is outside the file's {count} lines"
    return None


# ----- independent replay -----------------------------------------------------------------------


def _load(domain_name: str, instance: Path, words: list[str]) -> tuple[Any, Any]:
    from heurist.domains import get_domain, parse_words

    domain = get_domain(domain_name)
    options = parse_words(domain.options, words) if words else {}
    return domain, domain.load(instance, **options)


def replay_states(domain: Any, problem: Any, states: list) -> tuple[str | None, float]:
    """Follow a list of states through the plain problem's successors: (problem or None, cost)."""
    plain = domain.plain(problem)
    if not states or states[0] != plain.initial_state:
        return "does not start at the instance's start", 0.0
    cost = 0.0
    for number, (state, after) in enumerate(zip(states, states[1:]), start=1):
        costs = [c for _, child, c in plain.successors(state) if child == after]
        if not costs:
            return f"step {number} is not a legal move", cost
        cost += min(costs)
    if not plain.is_goal(states[-1]):
        return "does not end at a goal", cost
    return None, cost


def replay_actions(domain: Any, problem: Any, actions: list) -> tuple[str | None, float]:
    """Follow a list of actions through the plain problem's successors: (problem or None, cost)."""
    plain = domain.plain(problem)
    state, cost = plain.initial_state, 0.0
    for number, action in enumerate(actions, start=1):
        for move, child, c in plain.successors(state):
            if move == action:
                state, cost = child, cost + c
                break
        else:
            return f"step {number} is not a legal move", cost
    if not plain.is_goal(state):
        return "does not end at a goal", cost
    return None, cost


def replay_document(domain: Any, problem: Any, document: dict) -> tuple[str | None, float]:
    """Replay a ``solve --format json`` document's plan, by its states or by its actions."""
    plan = document["plan"]
    if domain.reads_states:
        states = [domain.parse_state(problem, document["start"].split("\n"), "start", 1)]
        states += [domain.parse_state(problem, step["state"].split("\n"), "step", 1) for step in plan]
        return replay_states(domain, problem, states)
    actions = [domain.parse_action(problem, step["action"], "step", 1) for step in plan]
    return replay_actions(domain, problem, actions)


def check_json_plan(check: dict, stdout: str, workdir: Path) -> str | None:
    try:
        document = json.loads(stdout)
    except ValueError as error:
        return f"stdout is not JSON ({error})"
    if document.get("status") != "solved":
        return f"exit 0 with status {document.get('status')!r}"
    try:
        domain, problem = _load(check["domain"], workdir / check["instance"], check["words"])
        problem_text, cost = replay_document(domain, problem, document)
    except Exception as error:  # noqa: BLE001 - any failure to read the plan back is a finding
        return f"the plan cannot be read back: {type(error).__name__}: {error}"
    if problem_text:
        return problem_text
    if not math.isclose(cost, float(document.get("cost", math.nan))):
        return f"the plan costs {cost:g}, the document says {document.get('cost')}"
    return None


def json_claim_problem(text: str) -> str | None:
    """What is wrong with the types of a JSON solution's claims (read here, not by heurist), or None."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    cost = document.get("cost")
    if cost is not None and (isinstance(cost, bool) or not isinstance(cost, (int, float))
                             or not math.isfinite(cost)):
        return f"passed a claimed cost of the wrong type or size: {str(cost)[:20]!r}"
    for index, step in enumerate(document.get("plan") or [], start=1):
        number = step.get("step") if isinstance(step, dict) else None
        if isinstance(number, bool) or number != index:
            return f"passed plan entry {index} whose step is {str(number)[:20]!r}"
    return None


def check_validated(check: dict, workdir: Path) -> str | None:
    """Why a solution file that ``validate`` passed is not a solution, or None."""
    try:
        text = (workdir / check["solution"]).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # heurist cannot have read it either; nothing to replay
    try:
        domain, problem = _load(check["domain"], workdir / check["instance"], check["words"])
        solution = domain.read_solution(text, problem, check["solution"])
    except Exception:  # noqa: BLE001 - unreadable here: the reader is heurist's, judged elsewhere
        return None
    if solution.unsolvable:
        return "passed a 'no solution' claim for a solvable instance"
    if check["solution"].endswith(".json"):
        problem_text = json_claim_problem(text)
        if problem_text:
            return problem_text
    if solution.states is not None:
        problem_text, _ = replay_states(domain, problem, list(solution.states))
    else:
        problem_text, _ = replay_actions(domain, problem, list(solution.moves or []))
    return problem_text


# ----- plan mutations for the validator ---------------------------------------------------------


def mutate_plan(document: dict, domain: Any, problem: Any, rng: random.Random, kind: str) -> dict:
    """A ``solve --format json`` document with its plan mutated: swapped, deleted, duplicated or changed steps."""
    document = copy.deepcopy(document)
    plan = document["plan"]
    if kind == "swap" and len(plan) >= 2:
        i, j = rng.sample(range(len(plan)), 2)
        plan[i], plan[j] = plan[j], plan[i]
    elif kind == "delete" and plan:
        del plan[rng.randrange(len(plan))]
    elif kind == "duplicate" and plan:
        i = rng.randrange(len(plan))
        plan.insert(i, copy.deepcopy(plan[i]))
    elif kind == "change" and plan:
        i = rng.randrange(len(plan))
        plain = domain.plain(problem)
        if domain.reads_states:
            before_text = document["start"] if i == 0 else plan[i - 1]["state"]
            before = domain.parse_state(problem, before_text.split("\n"), "x", 1)
        else:
            before = plain.initial_state
            for step in plan[:i]:
                action = domain.parse_action(problem, step["action"], "x", 1)
                before = next((c for a, c, _ in plain.successors(before) if a == action), before)
        children = list(plain.successors(before))
        if children:
            action, child, _ = rng.choice(children)
            plan[i] = {"step": 0, "action": domain.format_action(plain, action),
                       "state": domain.format_state(plain, child)}
        else:
            plan[i] = copy.deepcopy(plan[rng.randrange(len(plan))])
    elif kind == "truncate" and plan:
        del plan[rng.randrange(len(plan)):]
    for number, step in enumerate(plan, start=1):
        step["step"] = number
    document.pop("cost", None)
    document.pop("plan_length", None)
    return document
