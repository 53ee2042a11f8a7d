#!/usr/bin/env python3
"""scripts/call_graph.py: which of the given object files call which, and whether they call each
other in a circle. Reads the symbol tables (nm): a file calls another when it uses a global symbol
(a function) the other defines. Static functions and static inline helpers of headers are not
calls between files, so they do not count.

    python3 scripts/call_graph.py src/ndd*.o          the edges, then "cycles: none" or the cycles
    python3 scripts/call_graph.py --check src/ndd*.o  only the verdict; exit 1 on a cycle

The index's files must stay free of cycles (doc/architecture.md, "The index's files");
test/scripts/index_call_graph.sh checks it after every build."""
import collections
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "T":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main(argv):
    check = "--check" in argv
    objs = [a for a in argv if a != "--check"]
    if not objs:
        print(__doc__)
        return 2
    owner, uses = {}, {}
    for obj in objs:
        name = os.path.splitext(os.path.basename(obj))[0]
        defined, used = symbols(obj)
        for s in defined:
            owner[s] = name
        uses[name] = used
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for f, used in uses.items():
        for s in used:
            if s in owner and owner[s] != f:
                edges[f][owner[s]].append(s)
    if not check:
        for f in sorted(edges):
            for g in sorted(edges[f]):
                print(f"{f} -> {g}: {', '.join(sorted(edges[f][g]))}")
    found = cycles({f: set(g) for f, g in edges.items()})
    print("cycles:", "none" if not found else "; ".join(" <-> ".join(c) for c in found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
