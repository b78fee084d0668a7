#!/usr/bin/python3
"""Checks that vq's include graph points only down the layers of docs/architecture.md.

Reads every #include "..." of src/ and include/vq/, maps each file to its layer (its folder under
src/; one unit per metric folder; include/vq is "vq"), and fails when a file includes a header of
a layer above its own or of another unit of its own tier (metric folders never know each other),
or when headers include each other in a cycle. The command line (src/cli), the C interface
(src/capi) and the Python module (src/python) are held tighter: they build against the public API
alone, so they may include only
include/vq's headers and their own. Run by ctest (test `layers`); prints nothing and
exits 0 when the graph is clean.

Usage: check_layers.py [REPOSITORY_ROOT]
"""

import re
import sys
from pathlib import Path

# The layers, top to bottom: a unit may include its own files and those of any tier below its
# own, never one above, never another unit of its own tier. This list is the one place that says
# so; docs/architecture.md draws it.
TIERS = [
    ["cli", "tools", "capi", "python"],  # the programs, the C interface (libvq.so), the Python module
    ["report"],  # the writers
    ["engine"],  # the session: scheduling, executors, the frame loop
    ["model"],  # VMAF models: parsing and prediction
    ["metrics"],  # the registry: the list of every metric
    ["metrics/*"],  # one folder per metric
    ["metrics/toolkit"],  # what every metric uses instead of copying
    ["cuda"],  # the CUDA runtime's owners and the CUDA executor
    ["feature"],  # the plug-in contracts: Feature, Executor, options, the registry's types
    ["io"],  # frame sources
    ["core"],  # the implementation of the public vocabulary, CPU features
    ["vq"],  # include/vq: the public API
]

# Units that may include nothing of src/ but their own files: they build against include/vq alone.
PUBLIC_API_ONLY = {"cli", "capi", "python"}

# Arrows allowed to point up, each naming the including file and the unit it reaches: none today.
# An entry is a debt; delete it with the arrow.
KNOWN_EXCEPTIONS: set[tuple[str, str]] = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCE_SUFFIXES = {".hpp", ".cpp", ".cu", ".cuh", ".h"}


def unit_of(path: Path, root: Path) -> str:
    relative = path.relative_to(root)
    parts = relative.parts
    if parts[0] == "include":
        return parts[1]
    # src/FOLDER/... ; metrics has one unit per folder, and its own files are the registry.
    if parts[1] == "metrics" and len(parts) > 3:
        return f"metrics/{parts[2]}"
    return parts[1]


def tier_of(unit: str) -> int:
    for index, tier in enumerate(TIERS):
        if unit in tier:
            return index
    if unit.startswith("metrics/"):
        return next(i for i, tier in enumerate(TIERS) if "metrics/*" in tier)
    raise SystemExit(f"check_layers: the folder '{unit}' is in no layer: add it to TIERS")


def resolve(include: str, including: Path, root: Path):
    for base in (including.parent, root / "src", root / "include"):
        candidate = (base / include).resolve()
        if candidate.is_file():
            return candidate
        # A header CMake configures into the build tree (include/vq/version.h from version.h.in).
        template = candidate.with_name(candidate.name + ".in")
        if template.is_file():
            return template
    return None


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent).resolve()
    files = [
        p
        for folder in (root / "src", root / "include" / "vq")
        for p in sorted(folder.rglob("*"))
        if p.suffix in SOURCE_SUFFIXES
    ]
    problems = []
    graph = {}
    for path in files:
        name = str(path.relative_to(root))
        unit = unit_of(path, root)
        graph[path] = []
        for include in INCLUDE.findall(path.read_text(errors="replace")):
            target = resolve(include, path, root)
            if target is None:
                problems.append(f"{name}: #include \"{include}\" names no file of the repository")
                continue
            graph[path].append(target)
            target_unit = unit_of(target, root)
            if unit in PUBLIC_API_ONLY and target_unit not in (unit, "vq"):
                problems.append(f"{name}: includes {include}: {unit} builds against include/vq only")
                continue
            if target_unit == unit or (name, target_unit) in KNOWN_EXCEPTIONS:
                continue
            here, there = tier_of(unit), tier_of(target_unit)
            if there < here:
                problems.append(f"{name}: includes {include}: {target_unit} is above {unit}")
            elif there == here:
                problems.append(f"{name}: includes {include}: {target_unit} and {unit} are peers")

    # Headers that include each other (directly or around a loop).
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for target in graph.get(node, []):
            if state.get(target) == "open":
                loop = stack[stack.index(target):] + [target]
                problems.append("include cycle: " + " -> ".join(str(p.relative_to(root)) for p in loop))
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[node] = "done"

    for path in files:
        if path not in state:
            visit(path, [])

    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
