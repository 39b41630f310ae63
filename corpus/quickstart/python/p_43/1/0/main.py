"""Dijkstra Shortest Path Finder: loads a weighted graph (JSON adjacency list
or CSV edge list), answers shortest-path queries and prints graph statistics."""
import argparse
import csv
import heapq
import json
import random
import sys
from collections import defaultdict
from pathlib import Path


class Graph:
    def __init__(self, directed: bool = False):
        self.directed = directed
        self.adj: dict[str, dict[str, float]] = defaultdict(dict)
        self.warnings: list[str] = []

    def add_edge(self, u: str, v: str, w: float) -> None:
        if u == v:
            self.warnings.append(f"self-loop on {u} ignored")
            return
        if w < 0:
            self.warnings.append(f"negative weight {u}->{v} ({w}): Dijkstra is unreliable, use Bellman-Ford")
        if v in self.adj[u]:
            self.warnings.append(f"duplicate edge {u}-{v}: keeping the lighter weight")
            w = min(w, self.adj[u][v])
        self.adj[u][v] = w
        self.adj[v]  # register the target node even for directed graphs
        if not self.directed:
            self.adj[v][u] = w

    @property
    def edge_count(self) -> int:
        total = sum(len(n) for n in self.adj.values())
        return total if self.directed else total // 2

    def dijkstra(self, source: str) -> tuple[dict[str, float], dict[str, str]]:
        if source not in self.adj:
            raise KeyError(f"unknown node {source!r}")
        dist, prev, heap = {source: 0.0}, {}, [(0.0, source)]
        while heap:
            d, node = heapq.heappop(heap)
            if d > dist[node]:
                continue
            for nxt, w in self.adj[node].items():
                nd = d + w
                if nd < dist.get(nxt, float("inf")):
                    dist[nxt], prev[nxt] = nd, node
                    heapq.heappush(heap, (nd, nxt))
        return dist, prev

    def shortest_path(self, source: str, target: str) -> dict:
        if target not in self.adj:
            raise KeyError(f"unknown node {target!r}")
        dist, prev = self.dijkstra(source)
        if target not in dist:
            return {"source": source, "destination": target, "reachable": False}
        path = [target]
        while path[-1] != source:
            path.append(prev[path[-1]])
        path.reverse()
        return {"source": source, "destination": target, "reachable": True,
                "distance": dist[target], "path": path, "edges": len(path) - 1}

    def stats(self) -> dict:
        n, m = len(self.adj), self.edge_count
        seen, components = set(), 0
        undirected = defaultdict(set)
        for u, nbrs in self.adj.items():
            for v in nbrs:
                undirected[u].add(v)
                undirected[v].add(u)
        for start in self.adj:
            if start in seen:
                continue
            components += 1
            stack = [start]
            while stack:
                node = stack.pop()
                if node not in seen:
                    seen.add(node)
                    stack.extend(undirected[node] - seen)
        pairs = n * (n - 1) if self.directed else n * (n - 1) / 2
        return {"nodes": n, "edges": m, "average_degree": round((m if self.directed else 2 * m) / n, 2) if n else 0,
                "components": components, "density": round(m / pairs, 3) if pairs else 0}


def load_graph(path: Path, directed: bool) -> Graph:
    graph = Graph(directed)
    try:
        if path.suffix == ".json":
            for u, nbrs in json.loads(path.read_text(encoding="utf-8")).items():
                for v, w in nbrs.items():
                    graph.add_edge(str(u), str(v), float(w))
        else:
            with path.open(newline="", encoding="utf-8") as handle:
                for row in csv.DictReader(handle):
                    graph.add_edge(row["source"], row["target"], float(row["weight"]))
    except (ValueError, KeyError, AttributeError, json.JSONDecodeError) as exc:
        raise SystemExit(f"error: malformed graph file {path}: {exc}")
    return graph


def sample_graph(nodes: int = 15, edges: int = 25, seed: int = 7) -> Graph:
    rng, graph = random.Random(seed), Graph()
    names = [chr(ord("A") + i) for i in range(nodes)]
    for a, b in zip(names, names[1:11]):          # a chain keeps A..K connected
        graph.add_edge(a, b, rng.randint(1, 20))
    graph.add_edge("M", "N", 4)                     # M-N-O form a separate component
    graph.add_edge("N", "O", 6)
    while graph.edge_count < edges:
        a, b = rng.sample(names[:12], 2)
        if b not in graph.adj[a]:
            graph.add_edge(a, b, rng.randint(1, 20))
    return graph


def format_result(result: dict, graph: Graph) -> str:
    if not result["reachable"]:
        return f"{result['source']} -> {result['destination']}: no path exists"
    hops = " ".join(f"-({graph.adj[a][b]:g})-> {b}" for a, b in zip(result["path"], result["path"][1:]))
    return f"{result['source']} -> {result['destination']}: distance {result['distance']:g}, {result['edges']} edges: {result['path'][0]} {hops}"


def main() -> int:
    parser = argparse.ArgumentParser(description="Dijkstra shortest paths.")
    parser.add_argument("graph", nargs="?", type=Path, help="JSON adjacency list or CSV edge list")
    parser.add_argument("--source")
    parser.add_argument("--destination")
    parser.add_argument("--directed", action="store_true")
    parser.add_argument("--all", action="store_true", help="distances from source to every node")
    parser.add_argument("--output", type=Path, default=Path("shortest_path.json"))
    args = parser.parse_args()

    if args.graph:
        graph = load_graph(args.graph, args.directed)
        queries = [(args.source, args.destination)] if args.source and args.destination else []
    else:
        print("No graph given; generated a sample graph with 15 nodes and 25 edges")
        graph = sample_graph()
        queries = [("A", "K"), ("C", "H"), ("B", "L"), ("A", "N")]
        args.source, args.all = "A", True

    for warning in graph.warnings:
        print(f"warning: {warning}")
    print("Graph statistics: " + ", ".join(f"{k}={v}" for k, v in graph.stats().items()))

    results = {"queries": [], "all_from_source": None}
    try:
        for src, dst in queries:
            result = graph.shortest_path(src, dst)
            print("  " + format_result(result, graph))
            results["queries"].append(result)
        if args.all and args.source:
            dist, _ = graph.dijkstra(args.source)
            print(f"Shortest distances from {args.source}:")
            for node in sorted(graph.adj):
                print(f"  {node}: {dist[node]:g}" if node in dist else f"  {node}: unreachable")
            results["all_from_source"] = {args.source: dist}
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 1

    args.output.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"Saved results to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
