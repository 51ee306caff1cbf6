//===- Activation.h - recognise elementwise activations ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//
//
// Matchers that recognise what an elementwise linalg op computes from the
// scalar dataflow of its body, not from op names: the same activation written
// as a linalg.generic (torch-mlir, StableHLO), a named op (linalg.max against a
// zero fill) or a generalised named op is recognised the same way. Used by
// --dsm-fuse (to tell the gate of a gated FFN from its up projection) and by
// the lowering (to emit the epilogue).
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_UTILS_ACTIVATION_H
#define FF_DIALECT_DSM_UTILS_ACTIVATION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::dsm {

/// The activations recognised in a scalar body, y = f(x).
enum class ActivationKind {
  identity,  // y = x (casts allowed)
  scale,     // y = c·x
  relu,      // y = max(x, 0)
  gelu_erf,  // y = x·0.5·(1 + erf(x/√2))
  gelu_tanh, // y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
  sigmoid,   // y = 1/(1 + exp(−x)), or 0.5 + 0.5·tanh(x/2)
  silu,      // y = x·sigmoid(x)
};

/// "relu", "gelu_erf", ...
StringRef stringifyActivationKind(ActivationKind kind);

/// Returns true for the activations that are not affine in x (everything but
/// identity and scale).
bool isNonLinear(ActivationKind kind);

/// A value's constant, if it has one (for example a captured arith.constant or
/// a block argument bound to a splat tensor).
using ScalarConstantFn = function_ref<std::optional<double>(Value)>;

/// Recognises y = f(x) in scalar dataflow. `sameAsX` says whether a value
/// (after float casts are stripped) stands for x; `constantOf` gives scalar
/// constants. Float extensions and truncations anywhere in the expression are
/// looked through. Constants are compared with a relative tolerance of 1%,
/// which accepts constants rounded to bf16.
std::optional<ActivationKind>
matchScalarActivation(Value y, function_ref<bool(Value)> sameAsX,
                      ScalarConstantFn constantOf);

/// An activation found in an elementwise linalg op, and the input it applies
/// to.
struct ElementwiseActivation {
  ActivationKind kind;
  OpOperand *input;
};

/// Returns true for a linalg op that is elementwise: all loops parallel, one
/// init whose indexing map is the identity, inputs indexed by projected
/// permutations (broadcasts allowed), and a body of side-effect-free scalar
/// ops without regions or linalg.index.
bool isElementwiseLinalgOp(linalg::LinalgOp op);

/// Recognises a unary activation in an elementwise linalg op: the body must be
/// a function of one tensor input (several inputs bound to the same tensor
/// with the same indexing map count as one) and of constants (captured
/// arith.constant, scalar inputs, or inputs that are splat constants or
/// linalg.fill of a constant). Returns std::nullopt otherwise.
std::optional<ElementwiseActivation> matchActivation(linalg::LinalgOp op);

/// The constant a tensor is filled with: a linalg.fill of an arith.constant,
/// or a splat arith.constant; also a scalar arith.constant.
std::optional<double> getSplatConstant(Value value);

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_UTILS_ACTIVATION_H
