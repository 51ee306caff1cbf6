"""Checks a --dsm-search dump written with rank=R: the recorded plan of the
chain is the R-th lowerable candidate, and ranks are ordered by cost."""
import json
import sys

dump, rank = sys.argv[1], int(sys.argv[2])
chain = json.load(open(dump))["chains"][0]
cands = chain["lowerable_candidates"]
assert [c["rank"] for c in cands] == list(range(len(cands))), "ranks"
costs = [c["cost_ns"] for c in cands]
assert costs == sorted(costs), "lowerable candidates not best first"
assert all(c["lowerable"] for c in cands)
keys = ("cluster", "block", "grid", "stages", "cost_ns")
chosen = {k: chain["chosen"][k] for k in keys}
want = {k: cands[rank][k] for k in keys}
assert chosen == want, "chosen %s != candidate %d %s" % (chosen, rank, want)
if rank > 0:
    assert chosen != {k: cands[0][k] for k in keys}, "rank 0 plan recorded"
print("rank %d ok: %d lowerable candidates" % (rank, len(cands)))
