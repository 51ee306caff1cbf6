//===- DSMOps.td - dsm dialect operations ------------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMOPS_TD
#define FF_DIALECT_DSM_IR_DSMOPS_TD

include "ff/Dialect/DSM/IR/DSMDialect.td"
include "ff/Dialect/DSM/IR/DSMEnums.td"
include "ff/Dialect/DSM/IR/DSMAttrs.td"
include "ff/Dialect/DSM/IR/DSMTypes.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Fused chains (tensor level)
//===----------------------------------------------------------------------===//

def DSM_FusedChainOp : DSM_Op<"fused_chain", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "One fused GEMM chain and its schedule";
  let description = [{
    Holds the linalg computation of one fused GEMM chain (an FFN, a gated
    FFN, a conv chain as GEMMs, or a longer chain) as produced by
    `--dsm-fuse`, or of one GEMM (`gemm`) or one gated pair, act(A Bg) *
    (A Bu) (`gated_gemm`: the first kernel of a gated FFN's sequence). The
    region is isolated from above: its block arguments are the chain's
    inputs in operand order, and `dsm.yield` returns its results.
    `kind` says what `--dsm-fuse` recognised; `schedule`, written only by
    `--dsm-search`, is a `#dsm.schedule` (static M) or a
    `#dsm.schedule_table` (dynamic M). `sequence`, also written only by
    `--dsm-search`, says that an FFN chain runs as two single-GEMM
    kernels instead, act(A B) (gated: act(A Bg) * (A Bu)) into an
    intermediate and then C D: the
    schedules of those two GEMMs, in that order (`schedule` keeps the best
    fused plan, for the record); for a dynamic M, such a pair per M bin of
    the schedule table that runs as a sequence, each pair with that bin.

    Example:

    ```mlir
    %e = dsm.fused_chain ffn (%a, %b, %d)
        : (tensor<128x512xbf16>, tensor<512x2048xbf16>, tensor<2048x512xbf16>)
        -> tensor<128x512xbf16> {
    ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x2048xbf16>,
         %w2: tensor<2048x512xbf16>):
      ...
      dsm.yield %out : tensor<128x512xbf16>
    }
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    DSM_ChainKindAttr:$kind,
    OptionalAttr<AnyAttrOf<[DSM_ScheduleAttr, DSM_ScheduleTableAttr]>>:$schedule,
    OptionalAttr<TypedArrayAttrBase<DSM_ScheduleAttr,
        "the schedules of a kernel sequence">>:$sequence);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The contractions of the body and the chain's {M, N, K, L}; fails
    /// (without a diagnostic) when the body does not match `kind`.
    ::mlir::FailureOr<::mlir::dsm::ChainShape> getChainShape();
  }];
}

def DSM_YieldOp : DSM_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"FusedChainOp">]> {
  let summary = "Returns the results of a fused chain";
  let description = [{
    Terminates the body of a `dsm.fused_chain`.

    Example: `dsm.yield %e : tensor<128x512xbf16>`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Cluster identity
//===----------------------------------------------------------------------===//

def DSM_ClusterRankOp : DSM_Op<"cluster_rank", [Pure]> {
  let summary = "Rank of this CTA within its cluster";
  let description = [{
    `%cluster_ctarank`: a number in `[0, cluster size)`. Folds to 0 inside a
    kernel whose `known_cluster_size` is 1x1x1.

    Example: `%r = dsm.cluster_rank : index`
  }];
  let results = (outs Index:$rank);
  let assemblyFormat = "attr-dict `:` type($rank)";
  let hasFolder = 1;
}

def DSM_ClusterShapeOp : DSM_Op<"cluster_shape", [Pure]> {
  let summary = "Shape of this CTA's cluster, in CTAs";
  let description = [{
    `%cluster_nctaid.{x,y,z}`. Folds to constants inside a kernel that fixes
    `known_cluster_size`.

    Example: `%x, %y, %z = dsm.cluster_shape : index, index, index`
  }];
  let results = (outs Index:$x, Index:$y, Index:$z);
  let assemblyFormat = "attr-dict `:` type($x) `,` type($y) `,` type($z)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Cluster-scoped buffers
//===----------------------------------------------------------------------===//

def DSM_AllocOp : DSM_Op<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Allocate a cluster-scoped buffer";
  let description = [{
    Every CTA of the cluster reserves its piece of the buffer at the same
    shared-memory offset, which is what makes `dsm.remote_view` (`mapa`)
    valid. Collective: all ranks must execute it.

    With `at OFFSET` the piece lives at that byte offset (a multiple of 16)
    of the kernel's dynamic shared memory: the materialiser owns the layout
    and may place a buffer over a region that is dead while the buffer is
    live. Without it the piece gets its own static shared-memory array
    (CUDA caps static shared memory at 48 KiB per kernel).

    Example:

    ```mlir
    %c = dsm.alloc : !dsm.buffer<128x1024xbf16, split = [1, 4]>
    %e = dsm.alloc at 65536 : !dsm.buffer<128x128xf32, split = [1, 1]>
    ```
  }];
  let arguments = (ins
    OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs DSM_BufferType:$buffer);
  let assemblyFormat =
      "(`at` $offset^)? attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def DSM_LocalViewOp : DSM_Op<"local_view", [Pure]> {
  let summary = "This rank's piece of a cluster buffer";
  let description = [{
    The piece of the buffer that lives in this CTA, as a workgroup memref.

    Example:

    ```mlir
    %v = dsm.local_view %c : !dsm.buffer<128x1024xbf16, split = [1, 4]>
        -> memref<128x256xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins DSM_BufferType:$buffer);
  let results = (outs AnyStaticShapeMemRef:$view);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer)) `->` type($view)";
  let hasVerifier = 1;
}

def DSM_RemoteViewOp : DSM_Op<"remote_view", [Pure]> {
  let summary = "A peer rank's piece of a cluster buffer (mapa)";
  let description = [{
    The piece of the buffer held by CTA `rank` of this cluster, addressed
    through the `shared::cluster` window (`mapa.shared::cluster`). The view
    may be read and written by ordinary and bulk-asynchronous accesses.

    Example:

    ```mlir
    %p = dsm.remote_view %c[%peer] : !dsm.buffer<128x1024xbf16, split = [1, 4]>
        -> memref<128x256xbf16, #dsm.shared_cluster>
    ```
  }];
  let arguments = (ins DSM_BufferType:$buffer, Index:$rank);
  let results = (outs AnyStaticShapeMemRef:$view);
  let assemblyFormat =
      "$buffer `[` $rank `]` attr-dict `:` qualified(type($buffer)) `->` type($view)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

def DSM_ClusterArriveOp : DSM_Op<"cluster_arrive"> {
  let summary = "Arrive at the cluster barrier (barrier.cluster.arrive)";
  let description = [{
    Non-blocking half of the cluster-wide barrier. `relaxed` drops the
    release semantics: at kernel start (after `fence.mbarrier_init`), and
    wherever the barrier only has to order a peer's later writes after
    accesses of this thread that have already returned (the exit barrier,
    a push's stage rings or scratch slots).
    Every thread of every CTA in the cluster executes it, all 32 lanes of a
    warp together: the lowering reconverges the warp (`bar.warp.sync`) and
    emits the `.aligned` form.

    Example: `dsm.cluster_arrive relaxed`
  }];
  let arguments = (ins UnitAttr:$relaxed);
  let assemblyFormat = "(`relaxed` $relaxed^)? attr-dict";
}

def DSM_ClusterWaitOp : DSM_Op<"cluster_wait"> {
  let summary = "Wait at the cluster barrier (barrier.cluster.wait)";
  let description = [{
    Blocks until every thread of every CTA in the cluster arrived. Like
    `dsm.cluster_arrive`, executed by whole warps (`bar.warp.sync`, then the
    `.aligned` form).

    Example: `dsm.cluster_wait`
  }];
  let assemblyFormat = "attr-dict";
}

def DSM_BarrierCreateOp : DSM_Op<"barrier_create"> {
  let summary = "Create and initialise a transaction-counted barrier";
  let description = [{
    Allocates an mbarrier in this CTA's shared memory and initialises it to
    expect `count` arrivals per phase.

    Example: `%b = dsm.barrier_create count = 1 : !dsm.barrier`
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let results = (outs DSM_BarrierType:$barrier);
  let assemblyFormat = "`count` `=` $count attr-dict `:` type($barrier)";
}

def DSM_ExpectTxOp : DSM_Op<"expect_tx"> {
  let summary = "Arrive and expect transaction bytes on a local barrier";
  let description = [{
    `mbarrier.arrive.expect_tx`: this phase completes once `bytes` have
    landed through bulk copies that name the barrier.

    Example: `dsm.expect_tx %b, %bytes : !dsm.barrier`
  }];
  let arguments = (ins DSM_BarrierType:$barrier, Index:$bytes);
  let assemblyFormat = "$barrier `,` $bytes attr-dict `:` type($barrier)";
}

def DSM_SignalOp : DSM_Op<"signal"> {
  let summary = "Arrive on a barrier of a peer CTA";
  let description = [{
    Remote `mbarrier.arrive` on the barrier of CTA `rank` (through `mapa`),
    with `.release.cta` semantics: the cluster-scoped form measured ~40%
    slower in a GEMM mainloop.

    Example: `dsm.signal %b[%peer] : !dsm.barrier`
  }];
  let arguments = (ins DSM_BarrierType:$barrier, Index:$rank);
  let assemblyFormat = "$barrier `[` $rank `]` attr-dict `:` type($barrier)";
}

def DSM_WaitOp : DSM_Op<"wait"> {
  let summary = "Wait for a phase of a local barrier to complete";
  let description = [{
    `mbarrier.try_wait.parity` in a loop, on the phase with parity `phase`.

    Example: `dsm.wait %b, %parity : !dsm.barrier`
  }];
  let arguments = (ins DSM_BarrierType:$barrier, I1:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` type($barrier)";
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

// Intra-cluster collectives pull by default: after a cluster barrier that
// publishes every rank's source, each rank reads what it needs from its
// peers (`mapa` + `ld.shared::cluster`), combines it and writes its own
// destination; a second cluster barrier ends the op, after which sources may
// be overwritten and destinations read by any thread of the CTA. The push
// forms of dsm.shuffle and dsm.reduce (`push(...)`) replace the second
// barrier with a transaction-counted mbarrier; their descriptions say what
// the other threads take part in. The
// optional `threads` says that only threads [0, threads) along x of each CTA
// execute the op and share its element work; every other thread of the CTA
// must then take part in both barriers (`dsm.cluster_arrive` +
// `dsm.cluster_wait`, twice), as warp-specialised producers do. Without it
// the whole CTA executes the op.
class DSM_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : DSM_Op<mnemonic, traits> {
  let hasVerifier = 1;
}

def DSM_ReduceOp : DSM_CollectiveOp<"reduce", [AttrSizedOperandSegments]> {
  let summary = "All-reduce or reduce-scatter within groups of CTAs";
  let description = [{
    FlashFuser's *reduce*. Every rank of a group of `group_size` CTAs (ranks
    `base + i·group_stride`) contributes `src`, a full tile. With
    `all_reduce` every rank ends with the combined tile in `dst` (the
    `dsm_all_exchange` that ends GEMM0 when K is split in the cluster); with
    `reduce_scatter` rank `i` of the group ends with slice `i` along `axis`
    (the `dsm_reduce_scatter` of the Store phase when N is split). Without
    `push` the exchange is a pull (one barrier pair, ranks combined in rank
    order).

    With `push(%scratch, %barrier, %phase)` (reduce_scatter only) rank `i`
    pushes every slice `j != i` of its `src` into its slot of rank `j`'s
    `scratch` by `st.async`, which completes on rank `j`'s `barrier`: a
    barrier among the executing threads first (each may push slices that
    others stored), then one cluster barrier with a relaxed arrive (every
    `scratch` free, every barrier initialised), then this rank arms its
    barrier for the `group_size - 1`
    incoming slices and waits on phase parity `phase` with cluster-scope
    acquire. It then combines its own slice with the received ones, in rank
    order like the pull, into `dst`, or in place into slice `i` of `src`
    when there is no `dst`; a barrier among the executing threads (named
    barrier 15 with `threads`, else the CTA barrier) ends the op; with
    `threads` every other thread of the CTA takes part in the one cluster
    barrier (`dsm.cluster_arrive` + `dsm.cluster_wait`, once). Slices
    must be contiguous (`axis` 0); `scratch` holds `group_size - 1` of them
    along axis 0, slot `k` from the `k`-th peer in rank order. `src` and
    `scratch` may change again once the op returns; `barrier` must come
    from `dsm.barrier_create count = 1`, serve only this exchange, and be
    used with phases 0, 1, 0, ... on successive executions.

    Example:

    ```mlir
    dsm.reduce reduce_scatter add %p into %q axis = 1 group(4, 1)
        : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
    dsm.reduce reduce_scatter add %t axis = 0 group(2, 1)
        push(%s : !dsm.buffer<1x128x64xf32, split = [1, 1, 1]>, %bar, %parity)
        : !dsm.buffer<2x128x64xf32, split = [1, 1, 1]>
    ```
  }];
  let arguments = (ins
    Arg<DSM_BufferType, "", [MemRead, MemWrite]>:$src,
    Arg<Optional<DSM_BufferType>, "", [MemWrite]>:$dst,
    Arg<Optional<DSM_BufferType>, "", [MemRead, MemWrite]>:$scratch,
    Optional<DSM_BarrierType>:$barrier,
    Optional<I1>:$phase,
    DSM_ReduceModeAttr:$mode,
    DSM_CombinerKindAttr:$combiner,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$axis,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_size,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_stride,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$threads);
  let assemblyFormat = [{
    custom<EnumKeyword>($mode) custom<EnumKeyword>($combiner) $src (`into` $dst^)? `axis` `=` $axis
    `group` `(` $group_size `,` $group_stride `)`
    (`push` `(` $scratch^ `:` qualified(type($scratch)) `,` $barrier `,` $phase `)`)?
    attr-dict `:` qualified(type($src)) (`,` qualified(type($dst))^)?
  }];
  let builders = [
    OpBuilder<(ins "Value":$src, "Value":$dst, "ReduceMode":$mode,
                   "CombinerKind":$combiner, "int64_t":$axis,
                   "int64_t":$groupSize, "int64_t":$groupStride,
                   "IntegerAttr":$threads), [{
      build($_builder, $_state, src, dst, /*scratch=*/Value(),
            /*barrier=*/Value(), /*phase=*/Value(), mode, combiner, axis,
            groupSize, groupStride, threads);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether the exchange pushes (st.async onto the ranks' barriers).
    bool isPush() { return static_cast<bool>(getScratch()); }
    /// Whether the combined slice replaces this rank's slice of `src`.
    bool isInPlace() { return !getDst(); }
  }];
}

def DSM_ShuffleOp : DSM_CollectiveOp<"shuffle", [AttrSizedOperandSegments]> {
  let summary = "Ring exchange (all-gather) of slices within a shuffle group";
  let description = [{
    FlashFuser's *shuffle*. Each of the `group_size` CTAs of a shuffle group
    holds one slice (`src`); after the ring exchange every rank holds all
    slices, concatenated along `axis` in rank order (`dst`). The paper's
    ring schedule, which overlaps GEMM1 on slice `j` with the transfer of
    slice `j+1`, is a kernel-level pipelining of the same exchange.

    Without `push`, a pull all-gather (rank order, one barrier pair). With
    `push(%barrier, %phase)`, rank `i` pushes its slice into slot `i` of
    every rank's `dst`, its own included, by `st.async`, which completes on
    that rank's `barrier` (`mapa` + `mbarrier::complete_tx`): one cluster
    barrier first (every `dst` is free and every barrier initialised), then
    this rank arms its barrier for the group's bytes and waits on phase
    parity `phase` with cluster-scope acquire. No second cluster barrier
    and no CTA barrier: the executing threads (`threads`, or the whole
    block) each see the whole `dst` once their wait returns, and `src` is
    free again then (its last vector reached this rank's own slot). `barrier` must come
    from `dsm.barrier_create count = 1`, serve only this exchange, and be
    used with phases 0, 1, 0, ... on successive executions. With
    `arrived`, the executing threads have already arrived on that cluster
    barrier (`dsm.cluster_arrive`, not relaxed) once this rank's `dst` was
    free, and the op only waits: work in between, such as computing `src`,
    overlaps the peers' skew; the caller then also orders its threads'
    writes of `src` before the op (a barrier among them).

    Without `src` (`dsm.shuffle into %dst ...`, push only), the exchange is
    in place: rank `i`'s slice already lies in slot `i` of its own `dst`,
    and the first executing thread copies it into slot `i` of every peer
    with one `cp.async.bulk.shared::cluster.shared::cta` per peer (the TMA
    unit, no registers), completing on that peer's barrier. The slot must
    be complete and visible to the async proxy when the op starts (the
    writers' `fence.proxy.async` and a barrier with the executing threads),
    and is read until the last peer's wait returns: it must not change
    before the cluster's next barrier.

    Example:

    ```mlir
    dsm.shuffle %s into %g axis = 1 group(2, 1)
        : !dsm.buffer<128x128xbf16, split = [1, 1]>, !dsm.buffer<128x256xbf16, split = [1, 1]>
    dsm.shuffle %s into %g axis = 1 group(2, 1) push(%bar, %parity)
        : !dsm.buffer<128x128xbf16, split = [1, 1]>, !dsm.buffer<128x256xbf16, split = [1, 1]>
    dsm.cluster_arrive
    // ... compute %s ...
    dsm.shuffle %s into %g axis = 1 group(2, 1) push(%bar, %parity) arrived
        : !dsm.buffer<128x128xbf16, split = [1, 1]>, !dsm.buffer<128x256xbf16, split = [1, 1]>
    dsm.shuffle into %g axis = 0 group(2, 1) push(%bar, %parity)
        : !dsm.buffer<256x128xbf16, split = [1, 1]>
    ```
  }];
  let arguments = (ins
    Arg<Optional<DSM_BufferType>, "", [MemRead]>:$src,
    Arg<DSM_BufferType, "", [MemRead, MemWrite]>:$dst,
    Optional<DSM_BarrierType>:$barrier,
    Optional<I1>:$phase,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$axis,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_size,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_stride,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$threads,
    UnitAttr:$arrived);
  let assemblyFormat = [{
    ($src^)? `into` $dst `axis` `=` $axis `group` `(` $group_size `,` $group_stride `)`
    (`push` `(` $barrier^ `,` $phase `)`)? (`arrived` $arrived^)?
    attr-dict `:` custom<ShuffleTypes>(type($src), type($dst))
  }];
  let builders = [
    OpBuilder<(ins "Value":$src, "Value":$dst, "int64_t":$axis,
                   "int64_t":$groupSize, "int64_t":$groupStride), [{
      build($_builder, $_state, src, dst, /*barrier=*/Value(),
            /*phase=*/Value(), axis, groupSize, groupStride,
            /*threads=*/IntegerAttr(), /*arrived=*/false);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether the exchange pushes (st.async onto the ranks' barriers).
    bool isPush() { return static_cast<bool>(getBarrier()); }
    /// Whether each rank's slice already lies in its slot of `dst`.
    bool isInPlace() { return !getSrc(); }
  }];
}

def DSM_MultiplyOp : DSM_CollectiveOp<"multiply"> {
  let summary = "All-exchange that combines by elementwise product";
  let description = [{
    FlashFuser's *multiply*, for gated FFNs run spatially: the two branches
    (e.g. `silu(X·Wg)` and `X·Wu`) are computed by different CTAs of a group
    and every rank ends with their elementwise product.

    Example:

    ```mlir
    dsm.multiply %g into %h group(2, 1)
        : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
    ```
  }];
  let arguments = (ins
    Arg<DSM_BufferType, "", [MemRead]>:$src,
    Arg<DSM_BufferType, "", [MemWrite]>:$dst,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_size,
    ConfinedAttr<I64Attr, [IntPositive]>:$group_stride,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$threads);
  let assemblyFormat = [{
    $src `into` $dst `group` `(` $group_size `,` $group_stride `)` attr-dict
    `:` qualified(type($src)) `,` qualified(type($dst))
  }];
}

def DSM_InterClusterReduceOp : DSM_Op<"inter_cluster_reduce"> {
  let summary = "Reduce a tile into global memory across clusters";
  let description = [{
    Level 2 of FlashFuser's hierarchical reduction: adds this rank's piece of
    `src` into global memory, element `idx` of the piece into
    `dst[offsets + idx]`; elements outside `dst`'s shape are skipped (tails:
    pass a subview that ends where the valid rows end). Lowered to fp32
    vector reductions (`red.relaxed.gpu.global.add.v4/v2.f32`), so the sum
    over clusters depends on their arrival order. With `deterministic` the
    piece is stored instead: `dst` is then this cluster's own plane of a
    workspace, and the consumer sums the planes in cluster order.

    The op does not synchronise: the piece must be complete and visible to
    the executing threads (e.g. after the exit barrier of the `dsm.reduce`
    that produced it), and the caller orders the global writes for their
    consumer (fence and counter). `threads` has the collectives' meaning:
    threads [0, threads) along x execute the op and share its elements.
    `dst`'s innermost stride must be 1, and the innermost offset and the
    row strides must keep every 16-byte vector of the piece 16-byte aligned
    (the lowering takes 2- or 4-wide vectors where the piece's innermost
    extent allows).

    Example:

    ```mlir
    dsm.inter_cluster_reduce add %q into %out[%i, %j] {threads = 256}
        : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
    ```
  }];
  let arguments = (ins
    Arg<DSM_BufferType, "", [MemRead]>:$src,
    Arg<AnyMemRef, "", [MemRead, MemWrite]>:$dst,
    Variadic<Index>:$offsets,
    DSM_CombinerKindAttr:$combiner,
    UnitAttr:$deterministic,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$threads);
  let assemblyFormat = [{
    custom<EnumKeyword>($combiner) $src `into` $dst `[` $offsets `]` (`deterministic` $deterministic^)?
    attr-dict `:` qualified(type($src)) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

#endif // FF_DIALECT_DSM_IR_DSMOPS_TD
