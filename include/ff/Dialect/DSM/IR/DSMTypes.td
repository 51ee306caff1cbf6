//===- DSMTypes.td - dsm dialect types ---------------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMTYPES_TD
#define FF_DIALECT_DSM_IR_DSMTYPES_TD

include "ff/Dialect/DSM/IR/DSMDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def DSM_BufferType : DSM_Type<"Buffer", "buffer"> {
  let summary = "A logical tile distributed over the CTAs of a cluster";
  let description = [{
    A cluster-scoped buffer: a logical tile of `shape` whose pieces live in
    the shared memory of the CTAs of one cluster. `split` gives the number of
    pieces along each dimension; piece `(i0, i1, ...)` (row-major) lives in
    the CTA of rank `i0 * split[1] * ... + i1 * ... + ...` of the buffer's
    group. A split of all ones means every rank holds a full replica.
    Every rank allocates its piece at the same shared-memory offset, which is
    what makes `mapa` (`dsm.remote_view`) valid.

    Example: a 128x1024 bf16 intermediate split by columns over 4 CTAs, each
    holding 128x256:

    ```mlir
    !dsm.buffer<128x1024xbf16, split = [1, 4]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    DSM_ListParameter<"int64_t">:$split);
  let assemblyFormat =
      "`<` custom<TileShape>($shape, $elementType) `,` `split` `=` $split `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Shape of the piece one rank holds.
    ::llvm::SmallVector<int64_t> getPieceShape() const;
    /// Number of ranks the tile is split over.
    int64_t getNumPieces() const;
    /// Bytes of one rank's piece.
    int64_t getPieceBytes() const;
  }];
}

def DSM_BarrierType : DSM_Type<"Barrier", "barrier"> {
  let summary = "A transaction-counted barrier in a CTA's shared memory";
  let description = [{
    An mbarrier: completes a phase once its expected arrivals happened and
    the transaction bytes it expects (`dsm.expect_tx`) have landed. Peers may
    signal it remotely (`dsm.signal`); only its owner waits on it.

    Example: `!dsm.barrier`.
  }];
}

#endif // FF_DIALECT_DSM_IR_DSMTYPES_TD
