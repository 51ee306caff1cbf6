# Plain cluster-of-one plans (reduce-scatter family, c = 1): blk_m x blk_l x
# stages around the defaults of C5-b1, C5-b32, C6-b32 (and C6-b1, C7-b32).
import importlib.util, os, re, subprocess, sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../../..'))
sys.path.insert(0, ROOT + '/scripts')
spec = importlib.util.spec_from_file_location('cw', ROOT + '/scripts/compile-workloads.py')
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
from bench import workloads as W
out = sys.argv[1]
ffopt = ROOT + '/build/bin/ff-opt'
allw = {w.name: w for w in W.conv_chains(1) + W.conv_chains(32)}
names = sys.argv[2].split(',')
for n in names:
    w = allw[n]
    src = f'/tmp/s23e-{n}.mlir'
    open(src, 'w').write(cw.linalg_text(w, weight_layout='nk'))
    s = subprocess.run([ffopt, src, '--dsm-fuse', '--dsm-search'], check=True, capture_output=True, text=True).stdout
    sched = re.search(r'#dsm\.schedule<[^>]*>', s).group(0)
    print(n, 'default', sched)
    bn = w.n
    i = 0
    for bm in (64, 128):
        for bl in (64, 128, 256, 512):
            if bl > w.l: continue
            for st in (2, 3, 4):
                gm = -(-w.m // bm)
                new = (f'#dsm.schedule<cluster = [1, 1, 1, 1], block = [{bm}, {bn}, 64, {bl}], grid = [{gm}, 1, 1, 1], '
                       f'order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = {st}, cost_ns = 1>')
                f3 = f'/tmp/s23e-{n}-{bm}-{bl}-{st}.mlir'; open(f3, 'w').write(s.replace(sched, new))
                r = subprocess.run([ffopt, f3, f'--lower-to-nvvm=format=bin emit-bundle={out}/{n}-r{i}', '-o', os.devnull], capture_output=True, text=True)
                print(n, f'r{i}', bm, bl, st, 'ok' if r.returncode == 0 else r.stderr.split('\n')[0][-150:])
                if r.returncode == 0: i += 1
