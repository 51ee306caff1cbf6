# Proxy for two-image 3x3 tiles: C8 at batch 16 over 7x14 images (98 px per
# image: one image per 128-row tile), same M, K, N, L as C8-b32.
import importlib.util, os, re, subprocess, sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../../..'))
sys.path.insert(0, ROOT + '/scripts')
spec = importlib.util.spec_from_file_location('cw', ROOT + '/scripts/compile-workloads.py')
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
from bench import workloads as W
out = sys.argv[1]
ffopt = ROOT + '/build/bin/ff-opt'
w = W.Workload("C8w-b16", "conv", 16 * 7 * 14, 512, 4608, 2048, act="relu",
               conv=(16, 512, 7, 14, 512, 2048, 3, 1))
src = '/tmp/s23c.mlir'
open(src, 'w').write(cw.linalg_text(w, weight_layout='nk'))
s = subprocess.run([ffopt, src, '--dsm-fuse', '--dsm-search'], check=True, capture_output=True, text=True).stdout
sched = re.search(r'#dsm\.schedule<[^>]*>', s).group(0)
print('search', sched)
r = subprocess.run([ffopt, src, '--dsm-fuse', '--dsm-search', f'--lower-to-nvvm=format=bin emit-bundle={out}/C8w-search', '-o', os.devnull], capture_output=True, text=True)
print('search', 'ok' if r.returncode == 0 else r.stderr[:400])
# (variant, cls_n, cls_k, (bm, bn, bl), stages)
V = [('u44', 4, 1, (128, 128, 512), 4), ('u22', 2, 1, (128, 256, 1024), 4),
     ('k48', 4, 2, (128, 128, 256), 4), ('k24', 2, 2, (128, 256, 512), 4),
     ('k28', 2, 4, (128, 256, 256), 4), ('k18', 1, 8, (128, 512, 256), 3),
     ('u44s3', 4, 1, (128, 128, 512), 3), ('k48s3', 4, 2, (128, 128, 256), 3)]
for v, cn, ck, blk, st in V:
    if ck == 1:
        new = (f'#dsm.schedule<cluster = [1, {cn}, 1, {cn}], block = [{blk[0]}, {blk[1]}, 64, {blk[2]}], '
               f'grid = [13, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], '
               f'collectives = [shuffle], stages = {st}, cost_ns = 1>')
    else:
        new = (f'#dsm.schedule<cluster = [1, {cn}, {ck}, {cn*ck}], block = [{blk[0]}, {blk[1]}, {4608//ck}, {blk[2]}], '
               f'grid = [13, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], '
               f'collectives = [all_exchange{", shuffle" if cn > 1 else ""}], stages = {st}, cost_ns = 1>')
    f3 = f'/tmp/s23c-{v}.mlir'; open(f3, 'w').write(s.replace(sched, new))
    r = subprocess.run([ffopt, f3, f'--lower-to-nvvm=format=bin emit-bundle={out}/C8w-{v}', '-o', os.devnull], capture_output=True, text=True)
    print(v, 'ok' if r.returncode == 0 else r.stderr[:400])
