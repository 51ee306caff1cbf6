//===- DSMAttrs.td - dsm dialect attributes ----------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMATTRS_TD
#define FF_DIALECT_DSM_IR_DSMATTRS_TD

include "ff/Dialect/DSM/IR/DSMDialect.td"
include "ff/Dialect/DSM/IR/DSMEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"


//===----------------------------------------------------------------------===//
// #dsm.target
//===----------------------------------------------------------------------===//

def DSM_TargetAttr : DSM_Attr<"Target", "target"> {
  let summary = "Hardware description used by the schedule search";
  let description = [{
    A typed description of one Hopper part: what the cost model of
    `--dsm-search` reads. Bandwidths are in GB/s, capacities in bytes, the
    clock in MHz, peaks in dense TFLOP/s. `dsm_gbps` and `dsm_latency` hold
    one entry per cluster size 2, 4, 8, 16 (the aggregate bandwidth of a
    cluster's SM-to-SM network and the remote shared-memory latency in
    cycles). Integers throughout: the model needs no finer resolution and the
    attribute stays exactly printable.

    Example:

    ```mlir
    #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132,
      smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536,
      max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830,
      hbm_gbps = 3350, l2_bytes = 52428800,
      dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280],
      tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"marketing name">:$name,
    StringRefParameter<"LLVM chip, e.g. sm_90a">:$chip,
    "int64_t":$sms,
    "int64_t":$smem_per_sm,
    "int64_t":$smem_per_block,
    "int64_t":$regs_per_sm,
    "int64_t":$max_cluster,
    "int64_t":$max_cluster_nonportable,
    "int64_t":$clock_mhz,
    "int64_t":$hbm_gbps,
    "int64_t":$l2_bytes,
    DSM_ListParameter<"int64_t">:$dsm_gbps,
    DSM_ListParameter<"int64_t">:$dsm_latency,
    "int64_t":$tflops_bf16,
    "int64_t":$tflops_f16,
    "int64_t":$tflops_f32
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// #dsm.schedule
//===----------------------------------------------------------------------===//

def DSM_ScheduleAttr : DSM_Attr<"Schedule", "schedule"> {
  let summary = "Execution plan of one fused GEMM chain";
  let description = [{
    The decision `--dsm-search` records on a `dsm.fused_chain` and every later
    pass carries out. Dimensions are the unified loops of the chain
    `C[M,N] = A[M,K]·B[K,N]`, `E[M,L] = act(C)·D[N,L]`, always listed in the
    order `[m, n, k, l]`:

    - `cluster`: CTAs per cluster along each dimension
      (`cls_m, cls_n, cls_k, cls_l`, FlashFuser §III-A). The cluster has
      `cls_m·cls_n·cls_k` CTAs; GEMM1 re-partitions the same CTAs as
      `cls_m × cls_l × cls_reduce` with `cls_shuffle = cls_l / cls_k` and
      `cls_reduce = cls_n·cls_k / cls_l`, which must be whole (checked by
      `dsm.fused_chain`, which knows the chain: a single GEMM has no GEMM1
      and may split k alone, `cls_l = 1`).
    - `block`: the tile one CTA computes per step along each dimension.
    - `grid`: clusters along each dimension. `k` and `l` are never split
      across clusters (pruning rules 3 and 4); `n > 1` needs an
      inter-cluster reduce of E.
    - `order`: the loop nest, outermost first; `spatial`: the dimensions
      mapped onto the grid and cluster (the rest are temporal loops). A
      temporal `n` may still have `cls_n > 1` (never `grid[n] > 1`): the
      n loop is then split over the cluster's CTAs, each walking `N / cls_n`
      in `blk_n` steps, and the E partials it leaves are reduced in the
      cluster (`reduce_scatter`); a single GEMM has no such reduction.
    - `residency`: the memory tier of each intermediate, in chain order.
    - `collectives`: the `dsm_comm` patterns the kernel uses; exactly those
      the cluster shape implies for the chain it is attached to (checked by
      `dsm.fused_chain`).
    - `stages`: depth of the operand pipeline; `cost_ns`: the model's
      estimate in nanoseconds.
    - `m_lo`, `m_hi`: for dynamic M, the bin of rows this plan serves
      (omitted, i.e. 0, for static M).
    - `deterministic`: results must be bitwise reproducible. A plan that
      splits N across clusters (`grid[n] > 1`) then reduces E through one
      workspace plane per cluster, summed in cluster order, instead of
      fp32 atomics (omitted, i.e. false, by default).
    - `swap_ab`: a single GEMM kernel computes its tile transposed, the
      weight as wgmma's M side (`blk_n`: 64 rows per consumer warpgroup)
      and A's rows as its N side (`blk_m`: any multiple of 8 up to 256), and
      stores the result transposed: an M of a few hundred rows then pads to
      8 rows instead of 128 (cuBLAS's small-M kernels do the same). Static M
      and K-major weights only (omitted, i.e. false, by default).

    Example:

    ```mlir
    #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128],
      grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n],
      residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce],
      stages = 4, cost_ns = 17500>
    ```
  }];
  let parameters = (ins
    DSM_ListParameter<"int64_t">:$cluster,
    DSM_ListParameter<"int64_t">:$block,
    DSM_ListParameter<"int64_t">:$grid,
    DSM_ListParameter<"::mlir::dsm::LoopDim">:$order,
    DSM_ListParameter<"::mlir::dsm::LoopDim">:$spatial,
    DSM_ListParameter<"::mlir::dsm::MemTier">:$residency,
    DSM_ListParameter<"::mlir::dsm::CollectiveKind">:$collectives,
    "int64_t":$stages,
    "int64_t":$cost_ns,
    DefaultValuedParameter<"int64_t", "0">:$m_lo,
    DefaultValuedParameter<"int64_t", "0">:$m_hi,
    DefaultValuedParameter<"bool", "false">:$deterministic,
    DefaultValuedParameter<"bool", "false">:$swap_ab
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// CTAs per cluster: cls_m * cls_n * cls_k.
    int64_t getClusterSize() const;
    /// cls_l / cls_k: CTAs of one shuffle group.
    int64_t getShuffleGroupSize() const;
    /// cls_n * cls_k / cls_l: shuffle groups taking part in one reduce.
    int64_t getReduceGroupSize() const;
    int64_t getClusterDim(::mlir::dsm::LoopDim d) const {
      return getCluster()[static_cast<unsigned>(d)];
    }
    int64_t getBlockDim(::mlir::dsm::LoopDim d) const {
      return getBlock()[static_cast<unsigned>(d)];
    }
    int64_t getGridDim(::mlir::dsm::LoopDim d) const {
      return getGrid()[static_cast<unsigned>(d)];
    }
    bool isSpatial(::mlir::dsm::LoopDim d) const;
    bool uses(::mlir::dsm::CollectiveKind c) const;
    /// Checks that `collectives` is exactly the set a chain of `kind` needs
    /// under this plan (the attribute alone cannot tell: splitting n needs a
    /// reduction only when a second GEMM reduces over it).
    ::mlir::LogicalResult verifyCollectives(::mlir::dsm::ChainKind kind,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// Whether this plan serves a bin of a dynamic-M table.
    bool hasMBin() const { return getMHi() != 0; }
  }];
}

def DSM_ScheduleTableAttr : DSM_Attr<"ScheduleTable", "schedule_table"> {
  let summary = "Plans of a dynamic-M chain, one per M bin";
  let description = [{
    FlashFuser picks a precompiled kernel at run time by binning M. Each entry
    is a `#dsm.schedule` with an `m_lo`/`m_hi` bin; the bins are sorted,
    disjoint and contiguous from 1.

    Example:

    ```mlir
    #dsm.schedule_table<[#dsm.schedule<..., m_lo = 1, m_hi = 64>,
                         #dsm.schedule<..., m_lo = 65, m_hi = 4096>]>
    ```
  }];
  let parameters = (ins
    DSM_ListParameter<"::mlir::dsm::ScheduleAttr">:$plans);
  let assemblyFormat = "`<` $plans `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The plan whose bin holds `m`, or null.
    ::mlir::dsm::ScheduleAttr lookup(int64_t m) const;
  }];
}

//===----------------------------------------------------------------------===//
// Memory space of remote (peer-CTA) shared memory
//===----------------------------------------------------------------------===//

def DSM_SharedClusterAttr : DSM_Attr<"SharedCluster", "shared_cluster"> {
  let summary = "Memory space of a peer CTA's shared memory (shared::cluster)";
  let description = [{
    The memory space of a memref obtained by `dsm.remote_view`: an address in
    the `shared::cluster` window that `mapa` produces. Lowers to LLVM address
    space 7.

    Example: `memref<128x64xbf16, #dsm.shared_cluster>`.
  }];
}

#endif // FF_DIALECT_DSM_IR_DSMATTRS_TD
