//===- consumer.cpp - an MLIR tool embedding FlashFuser -------------------===//
//
// Part of the FlashFuser project.
//
// Parses a module with dsm ops through FlashFuser's registration entry points
// and runs the canonicalizer on it, as an embedding compiler would.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: ff-consumer FILE.mlir\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::ff::registerAllDialects(registry);
  mlir::ff::registerAllPasses();
  mlir::MLIRContext ctx(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &ctx);
  if (!module)
    return 1;
  mlir::PassManager pm(&ctx);
  pm.addPass(mlir::createCanonicalizerPass());
  if (mlir::failed(pm.run(*module)))
    return 1;

  unsigned chains = 0;
  module->walk([&](mlir::dsm::FusedChainOp) { ++chains; });
  llvm::outs() << "FlashFuser " << mlir::ff::getVersion() << ": " << chains
               << " fused chain(s)\n";
  module->print(llvm::outs());
  return 0;
}
