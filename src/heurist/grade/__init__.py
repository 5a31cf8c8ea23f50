"""``heurist grade``: run students' solvers on tests and give each run a verdict.

* :mod:`.cases` -- the tests (files, directories, bench suites) and the command templates' placeholders;
* :mod:`.optima` -- optimal costs by heurist's own A*, cached per test file;
* :mod:`.isolation` -- the isolation levels (bubblewrap namespaces, a dedicated uid, none) and their set-up;
* :mod:`.sandbox` -- one command in its sandbox, under limits for the whole run, its output files copied out;
* :mod:`.judge` -- an output read, replayed and compared with the optimum;
* :mod:`.runner` -- every program on every test, in threads or on a Dask cluster;
* :mod:`.reports` -- CSV, JSON, Markdown, Gradescope and JUnit;
* :mod:`.verdicts` -- the verdicts and the record of one run.

The layer sits beside :mod:`heurist.bench` and uses its suites and Dask
client; the command line (:mod:`heurist.cli.grade`) only translates arguments.
"""

from heurist.grade.cases import PLACEHOLDERS, Case, collect_cases
from heurist.grade.isolation import Isolation, choose_isolation
from heurist.grade.judge import judge_text
from heurist.grade.optima import OptimumCache, OptimumInfo, default_cache_path
from heurist.grade.runner import Limits, Program, grade, parse_program, run_test, student_programs
from heurist.grade.verdicts import VERDICT_HELP, TestResult, Verdict

__all__ = [
    "PLACEHOLDERS",
    "VERDICT_HELP",
    "Case",
    "Isolation",
    "Limits",
    "OptimumCache",
    "OptimumInfo",
    "Program",
    "TestResult",
    "Verdict",
    "choose_isolation",
    "collect_cases",
    "default_cache_path",
    "grade",
    "judge_text",
    "parse_program",
    "run_test",
    "student_programs",
]
