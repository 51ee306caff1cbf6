//===- DSMEnums.td - dsm dialect enumerations --------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMENUMS_TD
#define FF_DIALECT_DSM_IR_DSMENUMS_TD

include "mlir/IR/EnumAttr.td"
include "ff/Dialect/DSM/IR/DSMDialect.td"

/// The unified loop dimensions of a two-GEMM chain
/// C[M,N] = A[M,K] * B[K,N], E[M,L] = act(C) * D[N,L].
def DSM_LoopDim : I32EnumAttr<"LoopDim", "loop dimension of a GEMM chain", [
    I32EnumAttrCase<"m", 0>, I32EnumAttrCase<"n", 1>,
    I32EnumAttrCase<"k", 2>, I32EnumAttrCase<"l", 3>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}

/// Where an intermediate tensor lives; ordered from fastest to slowest.
def DSM_MemTier : I32EnumAttr<"MemTier", "memory tier", [
    I32EnumAttrCase<"reg", 0>, I32EnumAttrCase<"smem", 1>,
    I32EnumAttrCase<"dsm", 2>, I32EnumAttrCase<"global", 3>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}

/// The communication patterns of FlashFuser's dsm_comm abstraction.
def DSM_CollectiveKind : I32EnumAttr<"CollectiveKind", "collective", [
    I32EnumAttrCase<"all_exchange", 0>, I32EnumAttrCase<"shuffle", 1>,
    I32EnumAttrCase<"reduce_scatter", 2>, I32EnumAttrCase<"multiply", 3>,
    I32EnumAttrCase<"inter_cluster_reduce", 4>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}

def DSM_CombinerKind : I32EnumAttr<"CombinerKind", "reduction combiner", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}
def DSM_CombinerKindAttr : EnumAttr<DSM_Dialect, DSM_CombinerKind, "combiner"> {
  let assemblyFormat = "$value";
}

def DSM_ReduceMode : I32EnumAttr<"ReduceMode", "reduce collective mode", [
    I32EnumAttrCase<"all_reduce", 0>, I32EnumAttrCase<"reduce_scatter", 1>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}
def DSM_ReduceModeAttr : EnumAttr<DSM_Dialect, DSM_ReduceMode, "reduce_mode"> {
  let assemblyFormat = "$value";
}

/// The shape of a fused chain, as recognised by --dsm-fuse.
def DSM_ChainKind : I32EnumAttr<"ChainKind", "fused chain kind", [
    I32EnumAttrCase<"gemm", 0>, I32EnumAttrCase<"ffn", 1>,
    I32EnumAttrCase<"gated_ffn", 2>, I32EnumAttrCase<"chain", 3>,
    I32EnumAttrCase<"gated_gemm", 4>]> {
  let cppNamespace = "::mlir::dsm";
  let genSpecializedAttr = 0;
}
def DSM_ChainKindAttr : EnumAttr<DSM_Dialect, DSM_ChainKind, "chain_kind"> {
  let assemblyFormat = "$value";
}

#endif // FF_DIALECT_DSM_IR_DSMENUMS_TD
