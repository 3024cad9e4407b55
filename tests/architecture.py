"""The import rule of both packages that import-linter has no contract for, checked on their
import graph (grimp); the others are import-linter contracts in ``pyproject.toml``
(``lint-imports``, run by ``tox -e lint``): stages import downwards only, each host's folder is
independent of the others, stages reach a host's folder only through the registry, the replay
core is free of the hook package, which never imports hooksim.

- **No import circles**, anywhere in ``hermes_hooks`` or ``hooksim``: an import inside a
  function counts, and so does one under ``TYPE_CHECKING`` (it still ties the two modules
  together: neither can be read, typed or moved without the other). A module that needs a
  type of one that imports it names what it needs as a ``Protocol`` of its own (a session loop
  and its host's profile: ``hosts.session.SessionHost``).

Run as a script (``python tests/architecture.py``) it prints one line per problem and exits 1,
so a planted circle can be checked in a process whose ``sys.path`` holds a modified copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp

PACKAGES = ("hermes_hooks", "hooksim")


def circles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep graph cannot hit the recursion limit.
        work = [(start, iter(sorted(imports.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(imports.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in imports.get(node, ()):
                    found.append(sorted(group))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return sorted(found)


def problems() -> list[str]:
    """One line per import circle; empty when both packages have none."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=False)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    lines = [f"import circle: {' <-> '.join(group)}" for group in circles(imports)]
    return sorted(set(lines))


if __name__ == "__main__":
    found = problems()
    for line in found:
        print(line)
    raise SystemExit(1 if found else 0)
