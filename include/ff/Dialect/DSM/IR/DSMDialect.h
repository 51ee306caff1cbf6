//===- DSMDialect.h - dsm dialect -------------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMDIALECT_H
#define FF_DIALECT_DSM_IR_DSMDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "ff/Dialect/DSM/IR/DSMDialect.h.inc"

#endif // FF_DIALECT_DSM_IR_DSMDIALECT_H
