//===- DSMAttrs.h - dsm dialect attributes and enums ------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMATTRS_H
#define FF_DIALECT_DSM_IR_DSMATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "ff/Dialect/DSM/IR/DSMEnums.h.inc"

namespace mlir::dsm {
/// Chain kinds of one GEMM stage and no second GEMM: `gemm`, `gated_gemm`.
inline bool isSingleGemmKind(ChainKind kind) {
  return kind == ChainKind::gemm || kind == ChainKind::gated_gemm;
}
/// Chain kinds whose gate and up GEMMs share A: `gated_ffn`, `gated_gemm`.
inline bool isGatedKind(ChainKind kind) {
  return kind == ChainKind::gated_ffn || kind == ChainKind::gated_gemm;
}

/// Parses `[e0, e1, ...]` with FieldParser<T> for each element.
template <typename T>
FailureOr<SmallVector<T>> parseBracketList(AsmParser &parser) {
  SmallVector<T> elems;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        FailureOr<T> e = FieldParser<T>::parse(parser);
        if (failed(e))
          return failure();
        elems.push_back(*e);
        return success();
      }))
    return failure();
  return elems;
}

template <typename T>
void printListElement(AsmPrinter &printer, const T &e) {
  if constexpr (std::is_base_of_v<Attribute, T>)
    printer.printAttribute(e);
  else
    printer << e;
}
} // namespace mlir::dsm

#define GET_ATTRDEF_CLASSES
#include "ff/Dialect/DSM/IR/DSMAttrs.h.inc"

#endif // FF_DIALECT_DSM_IR_DSMATTRS_H
