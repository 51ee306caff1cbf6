//===- ff-opt.cpp - FlashFuser optimizer driver -----------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Parses linalg / dsm / gpu IR and runs FlashFuser's passes and pipelines:
//
//   ff-opt in.mlir --dsm-fuse --dsm-search --lower-to-nvvm
//
//===----------------------------------------------------------------------===//

#include "ff/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ff::test {
// Defined in the test directory, no public header.
void registerTestAnalysisPasses();
} // namespace mlir::ff::test

int main(int argc, char **argv) {
  mlir::ff::registerAllPasses();
  mlir::ff::test::registerTestAnalysisPasses();

  // Only the dialects ff-opt parses or produces; see ff::registerAllDialects.
  mlir::DialectRegistry registry;
  mlir::ff::registerAllDialects(registry);

  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "FlashFuser " << mlir::ff::getVersion() << "\n";
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "FlashFuser optimizer driver\n", registry));
}
