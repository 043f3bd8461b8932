"""Verifiable dice (docs/PROTOCOL.md): the derivation, the commitment and `verify`."""

from __future__ import annotations

import hashlib
import hmac

from shipmate.rules import commitment, die, draw, verify

SEED = "00" * 31 + "2a"


def reference_die(seed_hex: str, i: int) -> int:
    """docs/PROTOCOL.md's derivation, written out again from its text."""
    seed = bytes.fromhex(seed_hex)
    k = 0
    while True:
        msg = str(i).encode() if k == 0 else f"{i}:{k}".encode()
        for b in hmac.new(seed, msg, hashlib.sha256).digest():
            if b < 252:
                return 1 + b % 6
        k += 1


def test_dice_follow_the_published_derivation() -> None:
    assert [die(SEED, i) for i in range(500)] == [reference_die(SEED, i) for i in range(500)]


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_draws_stay_in_range_and_are_fixed_by_the_seed() -> None:
    picks = [draw(SEED, n, 8) for n in range(200)]
    assert set(picks) == set(range(8))
    assert picks == [draw(SEED, n, 8) for n in range(200)]


def log_with_dice(values: list[int]) -> list[dict[str, object]]:
    return [
        {"type": "GameCreated", "version": 0, "seed_hash": commitment(SEED)},
        {"type": "DiceRolled", "version": 1,
         "dice": {"move": {"index": 0, "value": values[0]},
                  "white": [{"index": i, "value": v} for i, v in enumerate(values[1:], 1)]}},
    ]


def test_verify_accepts_an_honest_log() -> None:
    verdict = verify(log_with_dice([die(SEED, i) for i in range(3)]), SEED)
    assert verdict.ok and verdict.dice_checked == 3


def test_verify_rejects_a_tampered_die() -> None:
    values = [die(SEED, i) for i in range(3)]
    values[2] = values[2] % 6 + 1
    verdict = verify(log_with_dice(values), SEED)
    assert not verdict.ok
    assert "die 2" in verdict.problems[0]


def test_verify_rejects_a_seed_that_does_not_match_the_commitment() -> None:
    other = "11" * 32
    verdict = verify(log_with_dice([die(other, i) for i in range(3)]), other)
    assert not verdict.ok
    assert any("commitment" in p for p in verdict.problems)


def test_sixty_thousand_dice_are_fair_by_chi_square() -> None:
    """Chi-square over 60,000 dice of a fresh seed: p > 0.001 (critical value 20.515 for 5 dof)."""
    seed = hashlib.sha256(b"shipmate fairness").hexdigest()
    counts = [0] * 6
    for i in range(60_000):
        counts[die(seed, i) - 1] += 1
    expected = 60_000 / 6
    chi_square = sum((c - expected) ** 2 / expected for c in counts)
    assert chi_square < 20.515, counts
