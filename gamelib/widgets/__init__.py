"""The designer's workbench in JupyterLab: explore result tables, playtest a rule set by hand.

* :func:`explore` — choose the game, filter and group by the rule fields a table holds, pick the
  line-up and a metric (a seat's or a player's win rate, seat 0's share of decided games, the
  draw rate, a mean such as turns, the blackout rate, …) and see the chart with 95% intervals
  and the table behind it.  Games of one deal are correlated (seats rotated, or the same deal
  under several rule variants), so every interval is clustered by deal
  (:func:`gamelib.stats.clustered_rate`, :func:`gamelib.stats.clustered_mean_table`).
* :func:`play` — play one game by hand against built-in players: the picture of what your seat
  may see redrawn after each decision, the legal decisions as buttons in the rules' words, the
  opponents moving with their own seeded streams (as in :func:`gamelib.records.play_game`), and
  at the end the game's record to download, checked by :func:`gamelib.records.replay`.

Both return a small object whose ``widget`` is the ipywidgets box (it displays itself in a
notebook) and whose controls are attributes, so tests drive them without a browser.
The two live in :mod:`gamelib.widgets.explorer` and :mod:`gamelib.widgets.playtest`; every name
is importable from ``gamelib.widgets`` as before.
"""

from __future__ import annotations

from gamelib.widgets.explorer import Explorer, explore
from gamelib.widgets.playtest import HUMAN as HUMAN
from gamelib.widgets.playtest import Playtest, play
from gamelib.widgets.playtest import describe as describe

__all__ = ["Explorer", "Playtest", "explore", "play"]
