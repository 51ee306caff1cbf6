//===- DSMDialect.cpp - dsm dialect registration ----------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMDialect.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsm;

#include "ff/Dialect/DSM/IR/DSMDialect.cpp.inc"

void DSMDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ff/Dialect/DSM/IR/DSMOps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
}
