//===- PeerPointer.h - shared::cluster addresses of peers -------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_LIB_CONVERSION_DSMTONVGPU_PEERPOINTER_H
#define FF_LIB_CONVERSION_DSMTONVGPU_PEERPOINTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::dsm {

/// The shared::cluster address (`!llvm.ptr<7>`) of `ptr`, a location in
/// this CTA's shared memory, in the CTA of cluster rank `rank` (index): the
/// same offset there, which is valid because every rank lays out its shared
/// memory alike.
inline Value getPeerPointer(OpBuilder &b, Location loc, Value ptr,
                            Value rank) {
  Value rank32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), rank);
  auto type = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  return NVVM::MapaOp::create(b, loc, type, ptr, rank32);
}

} // namespace mlir::dsm

#endif // FF_LIB_CONVERSION_DSMTONVGPU_PEERPOINTER_H
