"""graph.py - cycles in a directed graph ({node: set of nodes}).

components() gives the strongly connected components of more than one
node (each is a set of nodes that reach one another: a cycle); walk()
a closed path through every node of one, to print it.
"""

from collections import deque


def components(graph):
    """The strongly connected components of more than one node, each a
    sorted list, in sorted order (iterative Tarjan)."""
    index, low, on, stack, found, n = {}, {}, set(), [], [], 0
    for v0 in sorted(graph):
        if v0 in index:
            continue
        index[v0] = low[v0] = n
        n += 1
        stack.append(v0)
        on.add(v0)
        work = [(v0, iter(sorted(graph.get(v0, ()))))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
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
    return sorted(found)


def shortest(graph, nodes, a, b):
    """The shortest path from a to b (a != b) inside nodes, a first, b
    last; the smallest nodes first among equally short ones."""
    prev, queue = {a: None}, deque([a])
    while queue and b not in prev:
        v = queue.popleft()
        for w in sorted(graph.get(v, ())):
            if w in nodes and w not in prev:
                prev[w] = v
                queue.append(w)
    path, v = [], b
    while v is not None:
        path.append(v)
        v = prev[v]
    return path[::-1]


def walk(graph, comp):
    """A closed path, from the first node back to it, through every node
    of the component comp: the shortest hops to the first node not yet
    on it, then the shortest way home."""
    nodes = set(comp)
    path, seen = [comp[0]], {comp[0]}
    for target in comp[1:]:
        if target not in seen:
            hop = shortest(graph, nodes, path[-1], target)
            path += hop[1:]
            seen.update(hop)
    return path + shortest(graph, nodes, path[-1], comp[0])[1:]
