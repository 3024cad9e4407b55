"""Shards: one corpus split over N machines, each running its part, every item in exactly one.

``hooksim run --shard K/N`` (K from 1), or the variables CI engines set when no flag is given:
Bazel's ``TEST_TOTAL_SHARDS`` and ``TEST_SHARD_INDEX`` (from 0), GitLab's ``CI_NODE_TOTAL`` and
``CI_NODE_INDEX`` (from 1). The split depends only on the items' ids and the durations file, so
every machine computes the same split without talking to the others:

- with durations (``--durations-file``, a JSON object ``{item id: seconds}`` as pytest-split's
  ``.test_durations``, written by any run): longest first, each to the least loaded shard; an
  item the file does not know weighs the mean of those it does;
- without: the same number of items each (give or take one), dealt in an order a hash of
  their ids fixes, so a shard is a fair sample of the corpus rather than one folder of it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import beneath
from .items import Item

ENVIRONMENTS = (  # (total, index, first index)
    ("TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", 0),
    ("CI_NODE_TOTAL", "CI_NODE_INDEX", 1),
)


class ShardError(ValueError):
    """A shard that cannot be; ``str()`` is the line to print."""


@dataclass(frozen=True)
class Shard:
    number: int  # from 1
    total: int

    def __str__(self) -> str:
        return f"{self.number}/{self.total}"


# More shards than this is a mistake, not a corpus: the number stays a small int.
MAX_SHARDS = 1_000_000


def _whole(text: str) -> bool:
    """Decimal digits only (``isdigit`` takes ``²``, which ``int`` refuses), and few of them."""
    return text.isdecimal() and len(text) <= 18


def parse(text: str) -> Shard:
    """``K/N`` with 1 <= K <= N."""
    number, slash, total = text.partition("/")
    if not (slash and _whole(number) and _whole(total)):
        raise ShardError(f"expected K/N such as 1/4, got {text!r}")
    return _checked(int(number), int(total), text)


def _checked(number: int, total: int, said: str) -> Shard:
    if total > MAX_SHARDS:
        raise ShardError(f"{said}: at most {MAX_SHARDS:,} shards")
    if total < 1:
        raise ShardError(f"{said}: there must be at least one shard")
    if not 1 <= number <= total:
        raise ShardError(f"{said}: the shard must be between 1 and {total}")
    return Shard(number, total)


def from_environment(env: Mapping[str, str] = os.environ) -> Shard | None:
    """The shard a CI engine's variables name (None: they name none)."""
    for total_name, index_name, first in ENVIRONMENTS:
        total, index = env.get(total_name), env.get(index_name)
        if total is None and index is None:
            continue
        said = f"{total_name}={total} {index_name}={index}"
        if not (total and index and _whole(total) and _whole(index)):
            raise ShardError(f"{said}: both must be set to whole numbers")
        return _checked(int(index) - first + 1, int(total), said)
    return None


MAX_DURATIONS = 64 * 1024 * 1024


def read_durations(path: Path) -> dict[str, float]:
    """The durations file's seconds per item id; {} when it does not exist yet. Read within
    bounds (a regular file, its size, its depth); every value a finite number of seconds."""
    try:
        data = beneath.load_json(path, MAX_DURATIONS)
    except FileNotFoundError:
        return {}
    except beneath.Refused as e:
        raise ShardError(f"--durations-file: {e}") from None
    except OSError as e:
        raise ShardError(f"--durations-file {path}: cannot be read ({e.strerror})") from None
    if not isinstance(data, dict) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < float("inf")
        for v in data.values()
    ):
        raise ShardError(
            f"--durations-file {path}: expected an object of item id: seconds (finite, >= 0)"
        )
    return {str(k): float(v) for k, v in data.items()}


def write_durations(path: Path, measured: Mapping[str, float]) -> None:
    """Update the file with these runs' seconds, keeping what it knew of the others (another
    shard's items), sorted by id so the file diffs well; written whole or not at all."""
    durations = {**read_durations(path), **{k: round(v, 3) for k, v in measured.items()}}
    text = json.dumps(dict(sorted(durations.items())), indent=1) + "\n"
    beneath.write_file(path, text.encode())


def pick(items: list[Item], shard: Shard, durations: Mapping[str, float]) -> list[Item]:
    """The items of ``shard``, in their given order."""
    numbers = assign([item.id for item in items], shard.total, durations)
    return [item for item, number in zip(items, numbers, strict=True) if number == shard.number]


def assign(ids: list[str], total: int, durations: Mapping[str, float]) -> list[int]:
    """The shard (from 1) of each id.

    With more shards than ids, each id has a shard of its own, the first ones in order (the
    least loaded shard is an empty one, the first of them): the shards past that many are
    empty, and never made."""
    known = [durations[i] for i in ids if i in durations]
    mean = sum(known) / len(known) if known else 1.0
    weight = {i: durations.get(i, mean) for i in ids}
    loads = [0.0] * min(total, max(len(set(ids)), 1))
    shard_of: dict[str, int] = {}
    for i in sorted(set(ids), key=lambda i: (-weight[i], _hash(i))):
        lightest = min(range(len(loads)), key=lambda n: (loads[n], n))
        loads[lightest] += weight[i]
        shard_of[i] = lightest + 1
    return [shard_of[i] for i in ids]


def _hash(text: str) -> str:
    """A stable order unrelated to the folder layout: a shard is a fair sample of the corpus."""
    return hashlib.sha256(text.encode()).hexdigest()
