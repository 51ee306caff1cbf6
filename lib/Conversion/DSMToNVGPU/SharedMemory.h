//===- SharedMemory.h - shared-memory helpers of the patterns ---*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_LIB_CONVERSION_DSMTONVGPU_SHAREDMEMORY_H
#define FF_LIB_CONVERSION_DSMTONVGPU_SHAREDMEMORY_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include <string>

namespace mlir::dsm {

/// The shared::cluster address (`!llvm.ptr<7>`) of `ptr`, a location in
/// this CTA's shared memory, in the CTA of cluster rank `rank` (index): the
/// same offset there, which is valid because every rank lays out its shared
/// memory alike.
inline Value getPeerPointer(OpBuilder &b, Location loc, Value ptr, Value rank) {
  Value rank32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), rank);
  auto type = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  return NVVM::MapaOp::create(b, loc, type, ptr, rank32);
}

/// The address (`!llvm.ptr<3>`, created at the insertion point) of a new
/// internal shared-memory global of `type`, named `base` or `base_N` when
/// that is taken, at the start of the symbol table enclosing `op`; failure
/// when there is none.
inline FailureOr<Value> createSharedGlobal(OpBuilder &b, Operation *op,
                                           StringRef base, Type type,
                                           int64_t alignment) {
  Operation *symbolTableOp = op->getParentWithTrait<OpTrait::SymbolTable>();
  if (!symbolTableOp)
    return failure();
  std::string name = base.str();
  for (unsigned i = 0;
       SymbolTable::lookupSymbolIn(symbolTableOp, name) != nullptr; ++i)
    name = base.str() + "_" + std::to_string(i);
  Location loc = op->getLoc();
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&symbolTableOp->getRegion(0).front());
    global = LLVM::GlobalOp::create(
        b, loc, type, /*isConstant=*/false, LLVM::Linkage::Internal, name,
        Attribute(), alignment,
        static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  }
  return LLVM::AddressOfOp::create(
             b, loc,
             LLVM::LLVMPointerType::get(b.getContext(), global.getAddrSpace()),
             global.getSymName())
      .getResult();
}

} // namespace mlir::dsm

#endif // FF_LIB_CONVERSION_DSMTONVGPU_SHAREDMEMORY_H
