// RUN: ff-opt %s --dsm-materialize=reduce-push=false --split-input-file | FileCheck %s

// A GEMM: 1 TMA producer + 2 wgmma consumer warpgroups, 4 stages, registers
// epilogue storing bf16 straight to global memory; host launch function.
// CHECK: module attributes {dsm.bundles = [{chain = {activation = "identity"
// CHECK-SAME: kind = "gemm"
// CHECK-SAME: dynamic_smem = 196608
// CHECK-SAME: grid = array<i64: 2, 1, 1>, grid_m_tile = 128
// CHECK-SAME: {box = array<i64: 64, 128>, {{.*}}kind = "tensormap"{{.*}}tensor = "in0"}
// CHECK-SAME: {box = array<i64: 64, 64>, {{.*}}kind = "tensormap"{{.*}}tensor = "in1"}
// CHECK-SAME: {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}
// CHECK-SAME: gpu.container_module
// CHECK-NOT: func.func @gemm(
// CHECK: gpu.module @gemm_0_module
// CHECK: gpu.func @gemm_0(%[[A:.*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[B:.*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[OUT:.*]]: !llvm.ptr, %[[M:.*]]: i64) kernel
// CHECK-SAME: dsm.tensormap_args = array<i32: 0, 1>, known_block_size = array<i32: 384, 1, 1>
// CHECK-NOT: known_cluster_size
// CHECK: gpu.dynamic_shared_memory
// CHECK-COUNT-2: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: scf.if
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: nvvm.setmaxregister increase 232
// The first k step is peeled: its first wgmma starts the accumulator from
// an undefined value with scale-d = 0 (nothing writes the accumulator
// registers between the fence and the wgmma, so ptxas injects no arrive),
// and it releases no stage.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[FRESH:.*]] = llvm.mlir.undef : !llvm.struct<(f32
// CHECK-NEXT: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[FRESH]], <m = 64, n = 256, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: nvgpu.mbarrier.arrive
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c8{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ACC]], <m = 64, n = 256, k = 16>, D[<f32>, <one>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvgpu.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The bf16 rows leave as 16-byte stores: the lanes of a quad transpose
// groups of four packed pairs (two bfly shuffles by 2, two by 1) outside
// the row bound's scf.if, which holds only the stores.
// CHECK: llvm.extractvalue
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-2: nvvm.shfl.sync {{ *}}bfly %{{.*}}, %{{.*}}, %c2_i32{{[_0-9]*}}, %c31_i32
// CHECK-COUNT-2: nvvm.shfl.sync {{ *}}bfly %{{.*}}, %{{.*}}, %c1_i32{{[_0-9]*}}, %c31_i32
// CHECK: scf.if
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK: func.func @gemm_0_launch(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[HM:.*]]: i64)
// CHECK: arith.ceildivui
// CHECK: gpu.launch_func @gemm_0_module::@gemm_0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64)
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

// -----

// A (1,2) cluster GEMM: A rows multicast, stages released in both CTAs.
// Each CTA loads 64 of the 128 A rows, but both halves land in every CTA:
// the full barrier expects the whole tile, 128 * 128 + 256 * 128 = 49152
// bytes (counting only the own half let a stage complete early).
// CHECK-LABEL: gpu.func @gemmc2_0
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: nvvm.fence.mbarrier.init
// CHECK: dsm.cluster_arrive relaxed
// CHECK: dsm.cluster_wait
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %{{.*}} : {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.get
// CHECK: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// CHECK: dsm.cluster_arrive{{$}}
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: gpu.return
// CHECK: gpu.launch_func @gemmc2_0_module::@gemmc2_0 clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in
func.func @gemmc2(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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


// -----

// A (1,2) cluster of 64 x 64 tiles at 8 stages (it hung on an H100 while
// the full barrier counted only the CTA's own 32 A rows): each CTA loads 32
// rows into both, and expects all 64 A rows plus its B tile, 64 * 128 +
// 64 * 128 = 16384 bytes.
// CHECK-LABEL: gpu.func @gemmc2small_0
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %{{.*}} : {{.*}} -> memref<32x64xbf16, #gpu.address_space<workgroup>>
func.func @gemmc2small(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 64, 64, 16], grid = [4, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8, cost_ns = 1000>}
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

// -----

// A (1,4) cluster FFN split over 2 clusters: GELU in registers into the
// swizzled C tile, second GEMM from shared memory, DSM reduce-scatter of E,
// fp32 workspace across clusters (dsm.inter_cluster_reduce per chunk) with one
// last-arriver cast of every owned column per CTA after the last chunk.
// CHECK: activation = "gelu_tanh"
// CHECK-SAME: {bytes_per_m = 2064 : i64, kind = "workspace", zero = true}
// CHECK-LABEL: gpu.func @ffn_0
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// Each cluster starts its walk over the 8 l chunks at (block / 4) mod 8.
// CHECK: %[[BID:.*]] = gpu.block_id  x
// CHECK: %[[CLU:.*]] = arith.divui %[[BID]], %c4{{.*}} : index
// CHECK: arith.remui %[[CLU]], %c8{{.*}} : index
// Cluster buffers: the partial E chunk after the C tile and D ring, the
// reduced slice (128 x 64/4 fp32) over the dead A/B rings at offset 0.
// CHECK: %[[PART:.*]] = dsm.alloc at 163840 : !dsm.buffer<128x64xf32, split = [1, 1]>
// CHECK: %[[PV:.*]] = dsm.local_view %[[PART]] : !dsm.buffer<128x64xf32, split = [1, 1]> -> memref<128x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[RED:.*]] = dsm.alloc at 0 : !dsm.buffer<128x16xf32, split = [1, 1]>
// The slice is only read by dsm.inter_cluster_reduce: no view of it.
// CHECK-NOT: dsm.local_view %[[RED]]
// The m tile's rows of the fp32 workspace [M, 512] the slices are reduced
// into: a descriptor over the raw argument, then rows [m0, rowEnd).
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x512xf32, strided<[512, 1], offset: ?>>
// CHECK: %[[TILE:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 512] [1, 1]
// CHECK-COUNT-2: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-2: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// Producer: D chunks (box 64 x blk_n) and the cluster barriers of each chunk.
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: dsm.cluster_arrive
// Consumers: activation cloned from the generic (its tanh as tanh.approx).
// CHECK: } else {
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;"
// CHECK: arith.truncf
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: arith.xori
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// GEMM1 (blk_n / 16 wgmmas) starts its accumulator with scale-d = 0.
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK: nvgpu.mbarrier.arrive
// CHECK: vector.store %{{.*}}, %[[PV]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<128x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: dsm.reduce reduce_scatter add %[[PART]] into %[[RED]] axis = 1 group(4, 1) {threads = 256 : i64}
// CHECK: dsm.inter_cluster_reduce add %[[RED]] into %[[TILE]][%{{.*}}, %{{.*}}] {threads = 256 : i64} : !dsm.buffer<128x16xf32, split = [1, 1]>, memref<?x512xf32, strided<[512, 1], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: llvm.fence syncscope("device") release
// CHECK: llvm.atomicrmw add {{.*}} syncscope("device") acq_rel
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.fence syncscope("device") acquire
// CHECK: scf.for
// CHECK: llvm.load volatile
// CHECK: arith.truncf
// CHECK: gpu.launch_func @ffn_0_module::@ffn_0 clusters in
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

// -----

// Gated FFN: gate and up accumulate side by side, silu(g)*u in registers.
// CHECK: activation = "silu"
// CHECK-LABEL: gpu.func @gated_0
// CHECK-COUNT-3: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16
// CHECK: nvvm.setmaxregister increase 232
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: arith.truncf
func.func @gated(%a0: tensor<256x512xbf16>, %a1: tensor<512x512xbf16>, %a2: tensor<512x512xbf16>, %a3: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 64], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x512xbf16>, %wu: tensor<512x512xbf16>, %w2: tensor<512x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x512xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%g_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %u_e = tensor.empty() : tensor<256x512xf32>
    %u_f = linalg.fill ins(%zero : f32) outs(%u_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %u = linalg.matmul ins(%x, %wu : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%u_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %h_e = tensor.empty() : tensor<256x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<256x512xf32>, tensor<256x512xf32>) outs(%h_e : tensor<256x512xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %o: bf16):
      %one = arith.constant 1.0 : f32
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %sg = arith.divf %gv, %den : f32
      %p = arith.mulf %sg, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Conv chain: the collapsed image is a 2-d GEMM operand; its tensormap is
// described over the [rows, cols] view, the output written as the expanded result.
// CHECK: activation = "relu"
// CHECK-SAME: shape = array<i64: 2, 16, 8, 512>
// CHECK-SAME: {box = array<i64: 64, 128>, interleave = "none", kind = "tensormap", l2_promotion = "256B", oob_fill = "zero", swizzle = "128B", tensor = "in0", view = array<i64: 256, 512>}
// CHECK-SAME: {box = array<i64: 64, 64>, interleave = "none", kind = "tensormap", l2_promotion = "256B", oob_fill = "zero", swizzle = "128B", tensor = "in1"}
// CHECK-LABEL: gpu.func @conv_0
// CHECK: arith.maximumf
func.func @conv(%img: tensor<2x16x8x512xbf16>, %w1: tensor<512x128xbf16>, %w2: tensor<128x256xbf16>) -> tensor<2x16x8x256xbf16> {
  %r = dsm.fused_chain ffn (%img, %w1, %w2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x16x8x512xbf16>, tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<2x16x8x256xbf16> {
  ^bb0(%x4: tensor<2x16x8x512xbf16>, %a: tensor<512x128xbf16>, %b: tensor<128x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %x = tensor.collapse_shape %x4 [[0, 1, 2], [3]] : tensor<2x16x8x512xbf16> into tensor<256x512xbf16>
    %e0 = tensor.empty() : tensor<256x128xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x128xf32>) -> tensor<256x128xf32>
    %g = linalg.matmul ins(%x, %a : tensor<256x512xbf16>, tensor<512x128xbf16>) outs(%f0 : tensor<256x128xf32>) -> tensor<256x128xf32>
    %he = tensor.empty() : tensor<256x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x128xf32>) outs(%he : tensor<256x128xbf16>) {
    ^bb0(%v: f32, %o: bf16):
      %c0 = arith.constant 0.0 : f32
      %m = arith.maximumf %v, %c0 : f32
      %t = arith.truncf %m : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x128xbf16>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %y = linalg.matmul ins(%h, %b : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %oe = tensor.empty() : tensor<256x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<256x256xf32>) outs(%oe : tensor<256x256xbf16>) {
    ^bb0(%v: f32, %o2: bf16):
      %t = arith.truncf %v : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %o4 = tensor.expand_shape %o [[0, 1, 2], [3]] output_shape [2, 16, 8, 256] : tensor<256x256xbf16> into tensor<2x16x8x256xbf16>
    dsm.yield %o4 : tensor<2x16x8x256xbf16>
  }
  return %r : tensor<2x16x8x256xbf16>
}

// -----

// A gated FFN as torch-mlir writes it: PyTorch Linear weights [out, in]
// read through (m, k), (n, k), (m, n) maps, and the activation as two
// generics (silu(gate), then * up) capturing a constant of the chain body.
// Gate and up are loaded as K-major boxes (64 n rows x 64 k) and multiplied
// with B layout "col"; D[L, N] is loaded as bl-row boxes per 64-wide n
// chunk; the constant is rematerialised in the kernel. The manifest marks
// the weights "nk" (docs/bundle.md).
// CHECK: activation = "silu"
// CHECK-SAME: inputs = [{dtype = "bf16", name = "in0", shape = array<i64: 128, 128>}, {dtype = "bf16", layout = "nk", name = "in1", {{.*}}}, {dtype = "bf16", layout = "nk", name = "in2", {{.*}}}, {dtype = "bf16", layout = "nk", name = "in3", {{.*}}}]
// CHECK-LABEL: gpu.func @gated_kmajor_0
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<128x64xbf16
// CHECK-COUNT-4: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16
// CHECK-COUNT-2: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: } else {
// Gate and up: each chain's first wgmma starts its accumulator.
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: scf.for
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: arith.truncf
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: gpu.launch_func @gated_kmajor_0_module::@gated_kmajor_0
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
func.func @gated_kmajor(%a0: tensor<128x128xbf16>, %a1: tensor<128x128xbf16>, %a2: tensor<128x128xbf16>, %a3: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  ^bb0(%x: tensor<128x128xbf16>, %wg: tensor<128x128xbf16>, %wu: tensor<128x128xbf16>, %wd: tensor<128x128xbf16>):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %z_e = tensor.empty() : tensor<128x128xf32>
    %z = linalg.fill ins(%zero : f32) outs(%z_e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %g = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wg : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
    %u = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wu : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
    %s_e = tensor.empty() : tensor<128x128xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x128xf32>) outs(%s_e : tensor<128x128xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n0 = arith.negf %a : f32
      %n1 = math.exp %n0 : f32
      %n2 = arith.addf %n1, %one : f32
      %n3 = arith.divf %one, %n2 : f32
      %n4 = arith.mulf %a, %n3 : f32
      linalg.yield %n4 : f32
    } -> tensor<128x128xf32>
    %p_e = tensor.empty() : tensor<128x128xbf16>
    %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %u : tensor<128x128xf32>, tensor<128x128xf32>) outs(%p_e : tensor<128x128xbf16>) {
    ^bb0(%a: f32, %b: f32, %o: bf16):
      %m = arith.mulf %a, %b : f32
      %t = arith.truncf %m : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x128xbf16>
    %e_e = tensor.empty() : tensor<128x128xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %e = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%p, %wd : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%e_f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %y_e = tensor.empty() : tensor<128x128xbf16>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x128xf32>) outs(%y_e : tensor<128x128xbf16>) {
    ^bb0(%a: f32, %o: bf16):
      %t = arith.truncf %a : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x128xbf16>
    dsm.yield %y : tensor<128x128xbf16>
  }
  return %r : tensor<128x128xbf16>
}

// -----

// A 3x3, stride 1, pad 1 convolution as --dsm-fuse writes it (tensor.pad +
// im2col generic + collapsed [3, 3, C, F] filter): an m tile is R = 7 whole
// rows of a 14x14 image (98 of the 128 tile rows); k tile k reads tap
// (r, s) = divmod(k / 2, 3), channels 64 (k mod 2) as one 4-D box
// {64, 14, 7, 1} of the unpadded NHWC input at (c0, s - 1, h0 + r - 1, n);
// A's expect_tx counts 98 rows (98 * 128 + 16384 B of B = 28928); stores
// stop at the tile's 98 rows; the launch has up to ceil(M / 98) CTAs, each
// looping over tiles t = block, + grid, ... (a persistent GEMM kernel).
// CHECK: module attributes {dsm.bundles = [{chain = {{.*}}kind = "gemm"
// CHECK-SAME: grid_m_tile = 98
// CHECK-SAME: {box = array<i64: 64, 14, 7, 1>, {{.*}}tensor = "in0"}
// CHECK-SAME: {box = array<i64: 64, 64>, {{.*}}tensor = "in1", view = array<i64: 1152, 128>}
// CHECK-LABEL: gpu.func @conv3x3_0(
// CHECK: %[[M:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: scf.for %[[T:.*]] = %[[BID]] to
// CHECK: %[[M0:.*]] = arith.muli %[[T]], %c98{{[_0-9]*}} : index
// CHECK: %[[END:.*]] = arith.addi %[[M0]], %c98{{[_0-9]*}} : index
// CHECK: arith.minui %[[M]], %[[END]] : index
// CHECK: %[[IMG:.*]] = arith.divui %[[T]], %c2{{[_0-9]*}} : index
// CHECK: %[[TR:.*]] = arith.remui %[[T]], %c2{{[_0-9]*}} : index
// CHECK: %[[H0:.*]] = arith.muli %[[TR]], %c7{{[_0-9]*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c18{{[_0-9]*}} step
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c28928
// CHECK: %[[TAP:.*]] = arith.divui %[[K]], %c2{{[_0-9]*}} : index
// CHECK: %[[CT:.*]] = arith.remui %[[K]], %c2{{[_0-9]*}} : index
// CHECK: %[[C0:.*]] = arith.muli %[[CT]], %c64{{[_0-9]*}} : index
// CHECK: %[[S:.*]] = arith.remui %[[TAP]], %c3{{[_0-9]*}} : index
// CHECK: %[[COL:.*]] = arith.addi %[[S]], %c-1{{[_0-9]*}} : index
// CHECK: %[[R:.*]] = arith.divui %[[TAP]], %c3{{[_0-9]*}} : index
// CHECK: %[[R1:.*]] = arith.addi %[[H0]], %[[R]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[R1]], %c-1{{[_0-9]*}} : index
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[C0]], %[[COL]], %[[ROW]], %[[IMG]]], {{.*}} -> memref<1x7x14x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: %[[CM0:.*]] = arith.muli %{{.*}}, %c98{{[_0-9]*}} : index
// CHECK: %[[CEND:.*]] = arith.addi %[[CM0]], %c98{{[_0-9]*}} : index
// CHECK: %[[ROWEND:.*]] = arith.minui %[[M]], %[[CEND]] : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[ROWEND]] : index
// CHECK-LABEL: func.func @conv3x3_0_launch(
// CHECK: arith.ceildivui %{{.*}}, %c98
func.func @conv3x3(%x: tensor<2x14x14x128xbf16>, %w: tensor<3x3x128x128xbf16>) -> tensor<2x14x14x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x14x14x128xbf16>, tensor<3x3x128x128xbf16>) -> tensor<2x14x14x128xbf16> {
  ^bb0(%a: tensor<2x14x14x128xbf16>, %b: tensor<3x3x128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x14x14x128xbf16> to tensor<2x16x16x128xbf16>
    %ie = tensor.empty() : tensor<392x1152xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + k floordiv 384, m mod 14 + (k mod 384) floordiv 128, k mod 128)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x16x16x128xbf16>) outs(%ie : tensor<392x1152xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<392x1152xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x128x128xbf16> into tensor<1152x128xbf16>
    %e = tensor.empty() : tensor<392x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<392x128xf32>) -> tensor<392x128xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<392x1152xbf16>, tensor<1152x128xbf16>) outs(%z : tensor<392x128xf32>) -> tensor<392x128xf32>
    %e2 = tensor.empty() : tensor<392x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<392x128xf32>) outs(%e2 : tensor<392x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<392x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [2, 14, 14, 128] : tensor<392x128xbf16> into tensor<2x14x14x128xbf16>
    dsm.yield %y : tensor<2x14x14x128xbf16>
  }
  return %r : tensor<2x14x14x128xbf16>
}

// -----

// The same convolution with an FHWC filter [F, 3, 3, C] (PyTorch's OIHW in
// channels_last memory) read K-major: the manifest marks it "nk" and views
// it as [F, 9C]; the A boxes are unchanged, and each B box is 64 filters x
// 64 k at (k0, n0), the K-major GEMM operand's load.
// CHECK: module attributes {dsm.bundles = [{chain = {{.*}}{dtype = "bf16", layout = "nk", name = "in1", shape = array<i64: 128, 3, 3, 128>}
// CHECK-SAME: {box = array<i64: 64, 14, 7, 1>, {{.*}}tensor = "in0"}
// CHECK-SAME: {box = array<i64: 64, 64>, {{.*}}tensor = "in1", view = array<i64: 128, 1152>}
// CHECK-LABEL: gpu.func @conv3x3_fhwc_0(
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c18{{[_0-9]*}} step
// CHECK: %[[K0:.*]] = arith.muli %[[K]], %c64{{[_0-9]*}} : index
// CHECK: nvgpu.tma.async.load %{{.*}} -> memref<1x7x14x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[K0]], %{{.*}}], {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.wgmma.mma_async {{.*}}B[<bf16>, <one>, <col>]
func.func @conv3x3_fhwc(%x: tensor<2x14x14x128xbf16>, %w: tensor<128x3x3x128xbf16>) -> tensor<2x14x14x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x14x14x128xbf16>, tensor<128x3x3x128xbf16>) -> tensor<2x14x14x128xbf16> {
  ^bb0(%a: tensor<2x14x14x128xbf16>, %b: tensor<128x3x3x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x14x14x128xbf16> to tensor<2x16x16x128xbf16>
    %ie = tensor.empty() : tensor<392x1152xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + k floordiv 384, m mod 14 + (k mod 384) floordiv 128, k mod 128)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x16x16x128xbf16>) outs(%ie : tensor<392x1152xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<392x1152xbf16>
    %wc = tensor.collapse_shape %b [[0], [1, 2, 3]] : tensor<128x3x3x128xbf16> into tensor<128x1152xbf16>
    %e = tensor.empty() : tensor<392x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<392x128xf32>) -> tensor<392x128xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%col, %wc : tensor<392x1152xbf16>, tensor<128x1152xbf16>) outs(%z : tensor<392x128xf32>) -> tensor<392x128xf32>
    %e2 = tensor.empty() : tensor<392x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<392x128xf32>) outs(%e2 : tensor<392x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<392x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [2, 14, 14, 128] : tensor<392x128xbf16> into tensor<2x14x14x128xbf16>
    dsm.yield %y : tensor<2x14x14x128xbf16>
  }
  return %r : tensor<2x14x14x128xbf16>
}

