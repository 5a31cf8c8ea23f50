"""Settling claims by computing the truth: exact goal distances, heuristic checks, solution replay.

* :mod:`.space` -- a problem's whole reachable component as arrays, with h* of every state
  (:func:`~heurist.analysis.space.build_state_space`, :func:`~heurist.analysis.space.exact_distances`);
* :mod:`.klotski` -- the same for Klotski with numpy, a breadth-first layer at a time;
* :mod:`.checks` -- admissibility, goal-awareness, safety, consistency, informedness and dominance;
* :mod:`.solutions` -- the courses' solution formats read back, and replayed;
* :mod:`.domains` -- what ``heurist check`` and ``heurist validate`` need from each domain.

The command-line front ends are ``heurist check`` and ``heurist validate``
(:mod:`heurist.cli.check`, :mod:`heurist.cli.validate`).
"""
