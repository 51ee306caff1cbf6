//===- DSMTypes.h - dsm dialect types ---------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMTYPES_H
#define FF_DIALECT_DSM_IR_DSMTYPES_H

#include "ff/Dialect/DSM/IR/DSMAttrs.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "ff/Dialect/DSM/IR/DSMTypes.h.inc"

#endif // FF_DIALECT_DSM_IR_DSMTYPES_H
