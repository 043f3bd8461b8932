"""Idempotency-Keys: the first answer under a key, success or refusal, is every retry's answer.

A key's record is read and written only inside the step that decides what it holds: a change's
answer by the change's own commit (store/scripts.py's COMMIT_SCRIPT, `GameStore.commit`), a
refusal's by the step that checks the refusal still stands (REFUSE, `GameStore.refuse`). A request
under a key therefore costs the round trips of one without: no lock is taken on the key beforehand.
Two requests with one key may both decide the action; the first step to run stores its answer, and
the other finds it there and answers with it.
"""

from __future__ import annotations

IDEMPOTENCY_TTL = 24 * 3600


class Answered(Exception):
    """The request's answer is the one its Idempotency-Key holds (JSON ``{"status", "body"}``): a
    retry's first answer, a twin request's that stored first, or this request's own refusal."""

    def __init__(self, answer: bytes) -> None:
        super().__init__("the Idempotency-Key holds its answer")
        self.answer = answer
