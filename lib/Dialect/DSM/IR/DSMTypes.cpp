//===- DSMTypes.cpp - dsm dialect types -------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMTypes.h"
#include "ff/Dialect/DSM/IR/DSMDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsm;

/// Parses `128x1024xbf16` into a static shape and an element type.
static ParseResult parseTileShape(AsmParser &parser,
                                  SmallVector<int64_t> &shape,
                                  Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printTileShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  for (int64_t d : shape)
    printer << d << 'x';
  printer << elementType;
}

#define GET_TYPEDEF_CLASSES
#include "ff/Dialect/DSM/IR/DSMTypes.cpp.inc"

void DSMDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ff/Dialect/DSM/IR/DSMTypes.cpp.inc"
      >();
}

LogicalResult
BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, Type elementType,
                   ArrayRef<int64_t> split) {
  if (shape.empty())
    return emitError() << "expected a ranked tile shape";
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or float element type, got "
                       << elementType;
  if (split.size() != shape.size())
    return emitError() << "expected " << shape.size()
                       << " split factors, one per dimension, got "
                       << split.size();
  int64_t pieces = 1;
  for (auto [i, dim, parts] : llvm::enumerate(shape, split)) {
    if (dim <= 0)
      return emitError() << "expected positive dimension " << i << ", got "
                         << dim;
    if (parts <= 0 || dim % parts != 0)
      return emitError() << "split factor " << parts << " of dimension " << i
                         << " does not divide its size " << dim;
    pieces *= parts;
  }
  if (pieces > 16)
    return emitError() << "a cluster holds at most 16 CTAs, but the buffer is "
                          "split into "
                       << pieces << " pieces";
  return success();
}

SmallVector<int64_t> BufferType::getPieceShape() const {
  SmallVector<int64_t> piece;
  for (auto [dim, parts] : llvm::zip_equal(getShape(), getSplit()))
    piece.push_back(dim / parts);
  return piece;
}

int64_t BufferType::getNumPieces() const {
  int64_t n = 1;
  for (int64_t parts : getSplit())
    n *= parts;
  return n;
}

int64_t BufferType::getPieceBytes() const {
  int64_t elems = 1;
  for (int64_t d : getPieceShape())
    elems *= d;
  return elems * llvm::divideCeil(getElementType().getIntOrFloatBitWidth(), 8);
}
