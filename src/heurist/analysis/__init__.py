"""Settling claims by computing the truth: exact goal distances, heuristic checks, solution replay.

* :mod:`.space` -- a problem's whole reachable component as arrays, with h* of every state
  (:func:`~heurist.search.space.build_state_space`, :func:`~heurist.search.space.exact_distances`);
* :mod:`.checks` -- admissibility, goal-awareness, safety, consistency, informedness and dominance,
  with reports that print themselves as text or JSON;
* :mod:`.solutions` -- the courses' solution formats read back, and replayed;
* :mod:`.domains` -- instances, state spaces and generated families through the domains' hooks
  (a domain's own explorer, solution reader and generator options live in its package).

The command-line front ends are ``heurist check`` and ``heurist validate``
(:mod:`heurist.cli.check`, :mod:`heurist.cli.validate`).
"""
