//===- DSMDialect.td - dsm dialect definition --------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMDIALECT_TD
#define FF_DIALECT_DSM_IR_DSMDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def DSM_Dialect : Dialect {
  let name = "dsm";
  let cppNamespace = "::mlir::dsm";
  let summary = "Distributed shared memory of Hopper thread-block clusters";
  let description = [{
    The `dsm` dialect models what FlashFuser (arXiv 2512.12949) adds to GEMM
    chain fusion: a thread-block *cluster* whose shared memories form one
    distributed shared memory (DSM) pool, and the collectives that move tiles
    between the CTAs of a cluster.

    It has three layers:
    - `dsm.fused_chain`, a tensor-level region holding one fused GEMM chain
      and, once `--dsm-search` ran, its `#dsm.schedule`;
    - cluster-scoped buffers (`!dsm.buffer`), their rank-local and remote
      views, cluster identity and synchronisation;
    - the collectives `dsm.reduce` (all-reduce / reduce-scatter),
      `dsm.shuffle` (ring exchange / all-gather), `dsm.multiply` (all-exchange
      combining by product) and `dsm.inter_cluster_reduce`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
}

class DSM_Op<string mnemonic, list<Trait> traits = []>
    : Op<DSM_Dialect, mnemonic, traits>;

class DSM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DSM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class DSM_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<DSM_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

/// An array parameter written `[a, b, c]`.
class DSM_ListParameter<string elt, string desc = "">
    : ArrayRefParameter<elt, desc> {
  let parser = "::mlir::dsm::parseBracketList<" # elt # ">($_parser)";
  // Attributes print fully qualified (#dsm.schedule<...>), so that a plan
  // reads the same inside a table as on its own.
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer,
                            [&](auto e) { ::mlir::dsm::printListElement($_printer, e); });
    $_printer << ']';
  }];
}

#endif // FF_DIALECT_DSM_IR_DSMDIALECT_TD
