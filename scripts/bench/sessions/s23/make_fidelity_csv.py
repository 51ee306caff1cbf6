import json, os, re, sys, csv
sys.path.insert(0, 'scripts/bench')
from fidelity import read_log, current_candidates
import importlib.util
spec = importlib.util.spec_from_file_location('fk', 'scripts/bench/fit-kernel-model.py')
fk = importlib.util.module_from_spec(spec); spec.loader.exec_module(fk)
out = sys.argv[1]; pairs = sys.argv[2:]
rows = []; dumps = {}
for i in range(0, len(pairs), 2):
    bdir, log = pairs[i], pairs[i+1]
    meas = read_log(log)
    for d in sorted(os.listdir(bdir)):
        m = re.match(r'^(.*)-r(\d+)$', d)
        if not m: continue
        st, us = meas.get(d, ('missing', None))
        if st != 'PASS': continue
        doc = json.load(open(f'{bdir}/{d}/manifest.json'))
        k = doc['kernels'][0]; plan, chain = k['plan'], doc['chain']
        w = m.group(1)
        if w not in dumps:
            c = current_candidates('build/bin/ff-opt', w, 'target=h100-sxm')
            dumps[w] = {(kk[0], kk[1], kk[2][1:], kk[3]): v for kk, v in c.items()}
        key = (tuple(plan['cluster']), tuple(plan['block']), tuple(plan['grid'][1:]), plan['stages'])
        cand = dumps[w].get(key)
        cps = cand['kernel_ctas_per_sm'] if cand else (2 if 2 * (k['dynamic_smem'] + 2048) <= 233472 else 1)
        kind = chain['kind']
        rows.append({"workload": w, "sweep_rank": int(m.group(2)) + (1000 if 's23e' in bdir else 0),
            "kind": "gated_ffn" if kind in ("gated_ffn", "gated_conv") else kind,
            "m": chain["m"], "n": chain["n"], "k": chain["k"], "l": chain["l"],
            "cluster_n": plan["cluster"][1], "cluster_k": plan["cluster"][2], "cluster_l": plan["cluster"][3],
            "blk_m": plan["block"][0], "blk_n": plan["block"][1], "blk_k": plan["block"][2], "blk_l": plan["block"][3],
            "grid_n": plan["grid"][1], "stages": plan["stages"], "ctas_per_sm": cps, "status": st, "measured_us": us})
with open(out, 'w', newline='') as f:
    wr = csv.DictWriter(f, fieldnames=fk.CSV_FIELDS); wr.writeheader(); wr.writerows(rows)
print(len(rows), 'rows')
