//===- InitAll.h - register FlashFuser dialects and passes -----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Entry points for tools and for MLIR compilers that embed FlashFuser:
//
//   mlir::DialectRegistry registry;
//   mlir::ff::registerAllDialects(registry);
//   mlir::ff::registerAllPasses();
//
//===----------------------------------------------------------------------===//

#ifndef FF_INITALL_H
#define FF_INITALL_H

namespace mlir {
class DialectRegistry;

namespace ff {

/// Registers the dsm dialect and every upstream dialect that FlashFuser's
/// inputs, passes and outputs use.
void registerAllDialects(DialectRegistry &registry);

/// Registers FlashFuser's passes and pipelines, plus the upstream passes the
/// pipelines are built from.
void registerAllPasses();

/// The FlashFuser version string.
const char *getVersion();

} // namespace ff
} // namespace mlir

#endif // FF_INITALL_H
