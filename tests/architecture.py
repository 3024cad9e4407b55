"""The import rules of both packages, checked on their import graph (grimp).

Two rules:

- **No import circles**, at module level, anywhere in ``hermes_hooks`` or ``hooksim`` (an import
  inside a function counts: it still ties the two modules together; an import under
  ``TYPE_CHECKING`` does not: it only names a type, as a session loop names its profile).
- **hooksim's stages import downwards only**, in the order of ``HOOKSIM_LAYERS``: a stage may
  import any stage below it, never one above; the stages of one row are independent of each
  other. The hook package never imports hooksim.

Run as a script (``python tests/architecture.py``) it prints one line per problem and exits 1,
so a planted circle can be checked in a process whose ``sys.path`` holds a modified copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp

PACKAGES = ("hermes_hooks", "hooksim")

# Top to bottom. A set is one row of independent stages.
HOOKSIM_LAYERS: list[str | set[str]] = [
    "__main__",
    {"cli", "pytest_plugin"},
    "commands",
    {"explore", "real", "record"},
    "judge",
    "report",
    "replay",
    "scenario",
    "hosts",
    "steps",
]


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
    """One line per broken rule; empty when both packages keep them."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    lines = [f"import circle: {' <-> '.join(group)}" for group in circles(imports)]
    for dependency in sorted(
        graph.find_illegal_dependencies_for_layers(HOOKSIM_LAYERS, containers={"hooksim"}),
        key=lambda d: (d.importer, d.imported),
    ):
        for route in sorted(dependency.routes, key=lambda r: (r.heads, r.tails)):
            heads = ", ".join(sorted(route.heads))
            tails = ", ".join(sorted(route.tails))
            lines.append(
                f"{dependency.importer} imports {dependency.imported}, a stage above it:"
                f" {heads} -> {tails}"
            )
    for module, imported_by_it in imports.items():
        if module.split(".")[0] == "hermes_hooks":
            for imported in imported_by_it:
                if imported.split(".")[0] == "hooksim":
                    lines.append(f"the hook package imports hooksim: {module} -> {imported}")
    return sorted(set(lines))


if __name__ == "__main__":
    found = problems()
    for line in found:
        print(line)
    raise SystemExit(1 if found else 0)
