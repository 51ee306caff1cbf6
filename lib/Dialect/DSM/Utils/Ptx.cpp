//===- Ptx.cpp - inline PTX statements ------------------------------------===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Utils/Ptx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cassert>
#include <string>

using namespace mlir;

void dsm::createPtxStatement(OpBuilder &b, Location loc, ValueRange operands,
                             StringRef text, StringRef constraints) {
  std::string clobbers =
      constraints.empty() ? "~{memory}" : (constraints + ",~{memory}").str();
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, text, clobbers,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

Value dsm::createTanhApproxF32(OpBuilder &b, Location loc, Value x) {
  // Pure: no side effects, so CSE and DCE treat it like the math op.
  return LLVM::InlineAsmOp::create(
             b, loc, TypeRange{b.getF32Type()}, ValueRange{x},
             "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

Value dsm::createL2EvictFirstPolicy(OpBuilder &b, Location loc) {
  // Pure: CSE may share one policy register between loads.
  return LLVM::InlineAsmOp::create(
             b, loc, TypeRange{b.getI64Type()}, ValueRange{},
             "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

void dsm::createGlobalAddF32(OpBuilder &b, Location loc, Value ptr,
                             ValueRange values) {
  size_t n = values.size();
  assert((n == 1 || n == 2 || n == 4) && "red.global adds 1, 2 or 4 floats");
  std::string regs, constraints = "l";
  for (size_t i = 0; i < n; ++i) {
    regs += (i ? ", $" : "$") + std::to_string(i + 1);
    constraints += ",f";
  }
  std::string text = n > 1
                         ? "red.relaxed.gpu.global.add.v" + std::to_string(n) +
                               ".f32 [$0], {" + regs + "};"
                         : "red.relaxed.gpu.global.add.f32 [$0], $1;";
  SmallVector<Value> operands{ptr};
  operands.append(values.begin(), values.end());
  createPtxStatement(b, loc, operands, text, constraints);
}
