"""Balance verdicts: decisions with stated error rates (holds / fails / undecided), sequential,
at every level of a skill ladder.  See :mod:`gamelib.verdict.sequential` for the method."""

from gamelib.verdict.questions import QUESTIONS, Fair, Length, Question, Skill, Stalls, Target
from gamelib.verdict.run import (
    COLUMNS,
    decide,
    default_questions,
    format_verdicts,
    redecide,
    verdict,
)
from gamelib.verdict.sequential import FAILS, HOLDS, UNDECIDED, Band, bounds, decide_streams

__all__ = [
    "COLUMNS",
    "FAILS",
    "HOLDS",
    "QUESTIONS",
    "UNDECIDED",
    "Band",
    "Fair",
    "Length",
    "Question",
    "Skill",
    "Stalls",
    "Target",
    "bounds",
    "decide",
    "decide_streams",
    "default_questions",
    "format_verdicts",
    "redecide",
    "verdict",
]
