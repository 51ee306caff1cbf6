# Unsplit shuffle-family schedules for C8-b32 (hand-set), against the default.
import importlib.util, os, re, subprocess, sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../../..'))
sys.path.insert(0, ROOT + '/scripts')
spec = importlib.util.spec_from_file_location('cw', ROOT + '/scripts/compile-workloads.py')
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
from bench import workloads as W
out = sys.argv[1]
ffopt = ROOT + '/build/bin/ff-opt'
allw = {w.name: w for w in W.conv_chains(1) + W.conv_chains(32)}
V = {'C8-b32': [('v2s6', 4, (64, 128, 512), 6), ('v2s8', 4, (64, 128, 512), 8),
                ('v3s6', 8, (64, 64, 256), 6), ('v3s8', 8, (64, 64, 256), 8),
                ('v2l256s8', 4, (64, 128, 256), 8)]}
for n, vs in V.items():
    w = allw[n]
    src = f'/tmp/s23a-{n}.mlir'
    open(src, 'w').write(cw.linalg_text(w, weight_layout='nk'))
    s = subprocess.run([ffopt, src, '--dsm-fuse', '--dsm-search'], check=True, capture_output=True, text=True).stdout
    sched = re.search(r'#dsm\.schedule<[^>]*>', s).group(0)
    for v, c, blk, st in vs:
        gm = -(-w.m // blk[0])
        new = (f'#dsm.schedule<cluster = [1, {c}, 1, {c}], block = [{blk[0]}, {blk[1]}, 64, {blk[2]}], '
               f'grid = [{gm}, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], '
               f'collectives = [shuffle], stages = {st}, cost_ns = 1>')
        f3 = f'/tmp/s23a-{n}-{v}.mlir'; open(f3, 'w').write(s.replace(sched, new))
        r = subprocess.run([ffopt, f3, f'--lower-to-nvvm=format=bin emit-bundle={out}/{n}-{v}', '-o', os.devnull], capture_output=True, text=True)
        print(n, v, 'ok' if r.returncode == 0 else r.stderr[:300])
