// RUN: ff-opt %s --dsm-materialize=self-cleaning-workspace-max-kib=516 | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-materialize=self-cleaning-workspace-max-kib=515 | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-materialize=self-cleaning-workspace-max-kib=0 | FileCheck %s --check-prefix=OFF

// This chain's atomic workspace is 2064 B per row x 256 rows = 516 KiB.
// Up to the limit it is cleared by the kernel: each finisher stores zeros
// over the sums it has read and the last arriver resets its counter, so the
// manifest asks the runtime to clear the buffer only when it allocates it
// (self_cleaning) instead of before every launch. Above the limit (on an
// H100 the finishers' longer tail made workspaces above ~400 KiB slower,
// docs/validation.md), and by default (0: off until these kernels have had
// their compute-sanitizer run), the runtime clears it before each launch.
// CHECK: {bytes_per_m = 2064 : i64, kind = "workspace", self_cleaning = true, zero = true}
// CHECK-LABEL: gpu.func @ffn_0
// CHECK: %[[OLD:.*]] = llvm.atomicrmw add {{.*}} syncscope("device") acq_rel
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %{{.*}} : i32
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: llvm.getelementptr
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr{{$}}
// CHECK-NEXT: }
// The finisher issues both of a thread's loads (512 quads, 256 threads)
// before it uses the first, then stores zeros over each sum it read.
// CHECK: scf.for %{{.*}} = %thread_id_x to %c512{{.*}} step %c512
// CHECK: %[[V0:.*]] = scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: llvm.load volatile {{.*}} -> vector<4xf32>
// CHECK: %[[V1:.*]] = scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: llvm.load volatile {{.*}} -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: scf.if
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<4xf32>
// CHECK-NEXT: llvm.store %[[Z]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr{{$}}
// CHECK: llvm.extractelement %[[V0]]
// CHECK: llvm.mlir.zero : vector<4xf32>
// CHECK-NEXT: llvm.store
// CHECK: llvm.extractelement %[[V1]]
// OFF: {bytes_per_m = 2064 : i64, kind = "workspace", zero = true}
// OFF-LABEL: gpu.func @ffn_0
// OFF-NOT: llvm.mlir.zero : vector<4xf32>
// OFF: gpu.launch_func
func.func @ffn(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %h_e = tensor.empty() : tensor<256x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.7978845608 : f32
      %k1 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %gv, %gv : f32
      %x3 = arith.mulf %x2, %gv : f32
      %a3 = arith.mulf %x3, %k1 : f32
      %in = arith.addf %gv, %a3 : f32
      %sc = arith.mulf %in, %k0 : f32
      %th = math.tanh %sc : f32
      %p1 = arith.addf %th, %one : f32
      %hx = arith.mulf %gv, %half : f32
      %y = arith.mulf %hx, %p1 : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x1024xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}
