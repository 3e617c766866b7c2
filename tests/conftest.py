"""Shared fixtures: the Garner kernel shadowing the reference engine in the rule tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from gamelib.core import Move, Outcome
from gamelib.garner.rules import GarnerState


@pytest.fixture(scope="module")
def garner_kernel_shadow() -> Iterator[None]:
    """Every legal ``GarnerState.apply`` and every ``outcome()`` of the module's tests is also
    made by the compiled kernel on the same position: the kernel's legal options before and
    after the move must equal ``legal_moves()`` in order, its position after the move must equal
    the reference's, and its result must equal the reference's outcome. So each rule test
    checks both engines."""
    from gamelib.garner import kernel as K

    apply, outcome = GarnerState.apply, GarnerState.outcome

    def shadow_apply(self: GarnerState, move: Move) -> None:
        legal = self.legal_moves()
        if move not in legal:  # the reference refuses it with its reason
            apply(self, move)
            return
        t, st = K.from_reference(self)
        work = K.new_work(t)
        phase = int(st[K.PHASE])
        options = K.legal_groups(t, st, work)
        assert [K.reference_move(phase, o) for o in options] == legal, "kernel legal options"
        site = move.sites[0] if hasattr(move, "sites") else move.site  # type: ignore[attr-defined]
        apply(self, move)
        K.apply(t, st, site, work)
        _, expected = K.from_reference(self)
        assert K.same_position(t, st, expected) == [], f"kernel position after {move!r}"
        after = [K.reference_move(int(st[K.PHASE]), o) for o in K.legal_groups(t, st, work)]
        assert after == self.legal_moves(), f"kernel legal options after {move!r}"

    def shadow_outcome(self: GarnerState) -> Outcome:
        out = outcome(self)
        t, st = K.from_reference(self)
        row = np.zeros(K.N_RESULTS, np.int64)
        scores = np.zeros(2)
        piles = np.zeros((2, self.config.n_suits), np.int64)
        K.result(t, st, row, scores, piles)
        winners: tuple[int, ...] = () if row[K.R_WINNER] < 0 else (int(row[K.R_WINNER]),)
        got: dict[str, Any] = {
            "winners": winners,
            "scores": (float(scores[0]), float(scores[1])),
            "reason": K.REASONS[row[K.R_REASON]],
            "turns": int(row[K.R_TURNS]),
            "suits_won_0": int(row[K.R_SUITS_WON_0]),
            "suits_won_1": int(row[K.R_SUITS_WON_1]),
            "cards_left": int(row[K.R_CARDS_LEFT]),
        }
        want = {
            "winners": out.winners,
            "scores": out.scores,
            "reason": out.reason,
            "turns": out.turns,
            **{k: out.counters[k] for k in ("suits_won_0", "suits_won_1", "cards_left")},
        }
        assert got == want, "kernel result"
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GarnerState, "apply", shadow_apply)
        mp.setattr(GarnerState, "outcome", shadow_outcome)
        yield
