# Split-K push gather: the split defaults both ways, kn, deterministic, a
# workspace/bulk hand plan, dynamic M.
import importlib.util, os, re, subprocess, sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../../..'))
sys.path.insert(0, ROOT + '/scripts')
spec = importlib.util.spec_from_file_location('cw', ROOT + '/scripts/compile-workloads.py')
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
from bench import workloads as W
out = sys.argv[1]
ffopt = ROOT + '/build/bin/ff-opt'
allw = {w.name: w for w in W.conv_chains(1) + W.conv_chains(32) + W.gemm_chains()}
def run(src, name, search='', lower=''):
    s_opt = '--dsm-search' + (f'={search}' if search else '')
    l_opt = f'--lower-to-nvvm=format=bin emit-bundle={out}/{name}' + (f' {lower}' if lower else '')
    r = subprocess.run([ffopt, src, '--dsm-fuse', s_opt, l_opt, '-o', os.devnull], capture_output=True, text=True)
    print(name, 'ok' if r.returncode == 0 else r.stderr[:300])
for n in ('C7-b1', 'C8-b1'):
    for lay in ('nk', 'kn'):
        src = f'/tmp/s23k-{n}-{lay}.mlir'
        open(src, 'w').write(cw.linalg_text(allw[n], weight_layout=lay))
        run(src, f'{n}-push{lay}')
        if lay == 'nk':
            run(src, f'{n}-pull', lower='shuffle-push=false')
    run(f'/tmp/s23k-{n}-nk.mlir', f'{n}-det', search='deterministic=true')
# Workspace + bulk reduction split plan (C8-b32 [1,1,2,2] 128x256 grid_n 2).
src = '/tmp/s23k-C8-b32.mlir'
open(src, 'w').write(cw.linalg_text(allw['C8-b32'], weight_layout='nk'))
s = subprocess.run([ffopt, src, '--dsm-fuse', '--dsm-search'], check=True, capture_output=True, text=True).stdout
sched = re.search(r'#dsm\.schedule<[^>]*>', s).group(0)
gm = int(re.search(r'grid = \[(\d+),', sched).group(1))
new = (f'#dsm.schedule<cluster = [1, 1, 2, 2], block = [128, 256, 2304, 1024], grid = [{-(-1568 // 128)}, 2, 1, 1], '
       'order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, inter_cluster_reduce], stages = 4, cost_ns = 1>')
f3 = '/tmp/s23k-C8-b32-ws.mlir'; open(f3, 'w').write(s.replace(sched, new))
r = subprocess.run([ffopt, f3, f'--lower-to-nvvm=format=bin emit-bundle={out}/C8b32ws-push', '-o', os.devnull], capture_output=True, text=True)
print('C8b32ws-push', 'ok' if r.returncode == 0 else r.stderr[:400])
# Dynamic M: plain FFN N = 256, K = 4096, L = 1024.
sys.path.insert(0, ROOT + '/python')
from flashfuser.mlirgen import generate_mlir
txt = generate_mlir({"kind": "ffn", "m": -1, "n": 256, "k": 4096, "l": 1024, "activation": "relu", "dtype": "bf16", "weight_layout": "nk"})
open('/tmp/s23k-dsk.mlir', 'w').write(txt)
run('/tmp/s23k-dsk.mlir', 'DSK-push')
