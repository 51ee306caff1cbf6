//===- MemRefDescriptor.cpp - memrefs over raw pointers ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Utils/MemRefDescriptor.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

Value mlir::dsm::createMemRefFromPointer(OpBuilder &b, Location loc, Value ptr,
                                         MemRefType type, Value offset,
                                         ValueRange dynamicSizes) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  (void)type.getStridesAndOffset(strides, staticOffset);
  SmallVector<Type> fields{ptr.getType(), ptr.getType(), i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto descType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto cst = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  auto insert = [&](Value desc, Value v, ArrayRef<int64_t> pos) -> Value {
    return LLVM::InsertValueOp::create(b, loc, desc, v, pos);
  };
  Value desc = LLVM::PoisonOp::create(b, loc, descType);
  desc = insert(desc, ptr, {0});
  desc = insert(desc, ptr, {1});
  desc = insert(desc, offset ? offset : cst(0), {2});
  // Dynamic sizes in order, consumed innermost first below.
  size_t nextDynamic = dynamicSizes.size();
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value size = type.isDynamicDim(d) ? dynamicSizes[--nextDynamic]
                                      : cst(type.getDimSize(d));
    desc = insert(desc, size, {3, d});
    desc = insert(desc, cst(strides[d]), {4, d});
  }
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}
