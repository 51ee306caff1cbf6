// RUN: ff-opt %s --lower-to-nvvm | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// The host keeps a launch function lowered to LLVM; the kernel is PTX.
// IR: gpu.binary @gemm_0_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, {{.*}}assembly =
// IR: llvm.func @gemm_0_launch(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64)
// IR: gpu.launch_func @gemm_0_module::@gemm_0 blocks in
// IR-NOT: dsm.fused_chain

// TMA descriptors are byval grid constants, dynamic smem follows the
// barriers at 1024-byte alignment.
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX: .param .align 64 .b8 gemm_0_param_0[128]
// PTX: .param .align 64 .b8 gemm_0_param_1[128]
// PTX: .param .u64 .ptr .align 1 gemm_0_param_2
// PTX: .param .u64 gemm_0_param_3
// PTX: .maxntid 384, 1, 1
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40
// PTX-DAG: mbarrier.try_wait.parity
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232
// PTX-DAG: wgmma.fence.sync.aligned
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX-DAG: wgmma.commit_group.sync.aligned
// PTX-DAG: wgmma.wait_group.sync.aligned 1
// PTX-DAG: mbarrier.arrive

// MANIFEST: "chain": {
// MANIFEST: "kind": "gemm"
// MANIFEST: "compiler": "FlashFuser 0.1.0",
// MANIFEST: "format": "flashfuser-bundle",
// MANIFEST: "hash": "{{[0-9a-f]+}}",
// MANIFEST: "kernels": [
// MANIFEST: "dynamic_smem": 196608,
// MANIFEST: "grid_m_tile": 128,
// MANIFEST: "name": "gemm_0",
// MANIFEST: "kind": "tensormap",
// MANIFEST: "swizzle": "128B",
// MANIFEST: "kind": "i64",
// MANIFEST: "value": "M"
// MANIFEST: "ptx": "gemm_0.ptx"
// MANIFEST: "source_hash": "{{[0-9a-f]+}}",
// MANIFEST: "target": {
// MANIFEST-NEXT: "chip": "sm_90a",
// MANIFEST-NEXT: "name": "h100-sxm"
// MANIFEST: "version": 1

func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}
