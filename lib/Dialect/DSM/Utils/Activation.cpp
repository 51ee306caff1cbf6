//===- Activation.cpp - recognise elementwise activations -------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//
//
// The scalar body of an elementwise op is flattened into a sum of terms
// c·a1·a2·…, where the atoms are x, 1/(expression) or any other value
// (erf(…), tanh(…), exp(…)). Products are distributed, so every way of
// writing x·0.5·(1 + erf(x/√2)) flattens to {0.5·x, 0.5·x·erf(z)} with
// z = {0.7071·x}; the matchers then compare the terms and recurse into the
// arguments of erf, tanh and exp.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Utils/Activation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dsm;

StringRef mlir::dsm::stringifyActivationKind(ActivationKind kind) {
  switch (kind) {
  case ActivationKind::identity:
    return "identity";
  case ActivationKind::scale:
    return "scale";
  case ActivationKind::relu:
    return "relu";
  case ActivationKind::gelu_erf:
    return "gelu_erf";
  case ActivationKind::gelu_tanh:
    return "gelu_tanh";
  case ActivationKind::sigmoid:
    return "sigmoid";
  case ActivationKind::silu:
    return "silu";
  }
  llvm_unreachable("unknown activation kind");
}

bool mlir::dsm::isNonLinear(ActivationKind kind) {
  return kind != ActivationKind::identity && kind != ActivationKind::scale;
}

//===----------------------------------------------------------------------===//
// Scalar expressions as sums of products
//===----------------------------------------------------------------------===//

namespace {
struct Atom {
  enum class Kind { x, value, recip } kind;
  /// The value (kind::value) or the denominator (kind::recip).
  Value value;

  bool operator==(const Atom &o) const {
    return kind == o.kind && value == o.value;
  }
  bool operator<(const Atom &o) const {
    if (kind != o.kind)
      return kind < o.kind;
    return value.getAsOpaquePointer() < o.value.getAsOpaquePointer();
  }
};

struct Term {
  double coef = 1.0;
  SmallVector<Atom, 4> atoms; // sorted
};

using Poly = SmallVector<Term, 4>;

/// Bounds the work on pathological bodies.
constexpr unsigned kMaxTerms = 16;
constexpr unsigned kMaxAtoms = 8;
constexpr unsigned kMaxDepth = 32;

bool approx(double a, double b) {
  if (b == 0.0)
    return std::fabs(a) < 1e-6;
  return std::fabs(a - b) <= 1e-2 * std::fabs(b);
}

/// Strips float extensions and truncations.
Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

std::optional<double> getAttrConstant(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    if (dense.isSplat())
      return getAttrConstant(dense.getSplatValue<Attribute>());
  return std::nullopt;
}

class Flattener {
public:
  Flattener(function_ref<bool(Value)> sameAsX, ScalarConstantFn constantOf)
      : sameAsX(sameAsX), constantOf(constantOf) {}

  /// The sum-of-products form of `v`, memoised (bodies are DAGs).
  std::optional<Poly> flatten(Value v, unsigned depth = 0);
  std::optional<double> constant(Value v);
  bool isX(Value v) { return sameAsX(stripCasts(v)); }

private:
  std::optional<Poly> flattenUncached(Value v, unsigned depth);

  function_ref<bool(Value)> sameAsX;
  ScalarConstantFn constantOf;
  DenseMap<Value, std::optional<Poly>> cache;
};
} // namespace

static Poly makeAtom(Atom atom) {
  Poly p;
  p.push_back(Term{1.0, {atom}});
  return p;
}

static Poly makeConstant(double c) {
  Poly p;
  p.push_back(Term{c, {}});
  return p;
}

/// Combines terms with the same atoms and drops zero terms.
static Poly normalize(Poly p) {
  Poly out;
  for (Term &t : p) {
    llvm::sort(t.atoms);
    auto it =
        llvm::find_if(out, [&](const Term &o) { return o.atoms == t.atoms; });
    if (it != out.end())
      it->coef += t.coef;
    else
      out.push_back(std::move(t));
  }
  llvm::erase_if(out, [](const Term &t) { return std::fabs(t.coef) < 1e-12; });
  return out;
}

static Poly scale(Poly p, double c) {
  for (Term &t : p)
    t.coef *= c;
  return normalize(std::move(p));
}

static std::optional<Poly> multiply(const Poly &a, const Poly &b) {
  if (a.size() * b.size() > kMaxTerms)
    return std::nullopt;
  Poly out;
  for (const Term &ta : a)
    for (const Term &tb : b) {
      if (ta.atoms.size() + tb.atoms.size() > kMaxAtoms)
        return std::nullopt;
      Term t{ta.coef * tb.coef, ta.atoms};
      t.atoms.append(tb.atoms.begin(), tb.atoms.end());
      out.push_back(std::move(t));
    }
  return normalize(std::move(out));
}

std::optional<double> Flattener::constant(Value v) {
  v = stripCasts(v);
  if (Operation *def = v.getDefiningOp())
    if (auto cst = dyn_cast<arith::ConstantOp>(def))
      return getAttrConstant(cst.getValue());
  if (constantOf)
    return constantOf(v);
  return std::nullopt;
}

std::optional<Poly> Flattener::flatten(Value v, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  v = stripCasts(v);
  auto it = cache.find(v);
  if (it != cache.end())
    return it->second;
  std::optional<Poly> result = flattenUncached(v, depth);
  cache[v] = result;
  return result;
}

std::optional<Poly> Flattener::flattenUncached(Value v, unsigned depth) {
  if (sameAsX(v))
    return makeAtom({Atom::Kind::x, Value()});
  if (std::optional<double> c = constant(v))
    return makeConstant(*c);
  Operation *def = v.getDefiningOp();
  if (!def)
    return makeAtom({Atom::Kind::value, v});

  auto binary = [&](auto combine) -> std::optional<Poly> {
    std::optional<Poly> a = flatten(def->getOperand(0), depth + 1);
    std::optional<Poly> b = flatten(def->getOperand(1), depth + 1);
    if (!a || !b)
      return std::nullopt;
    return combine(*a, *b);
  };

  if (isa<arith::AddFOp>(def))
    return binary([](Poly a, const Poly &b) -> std::optional<Poly> {
      a.append(b.begin(), b.end());
      if (a.size() > kMaxTerms)
        return std::nullopt;
      return normalize(std::move(a));
    });
  if (isa<arith::SubFOp>(def))
    return binary([](Poly a, const Poly &b) -> std::optional<Poly> {
      Poly nb = scale(b, -1.0);
      a.append(nb.begin(), nb.end());
      if (a.size() > kMaxTerms)
        return std::nullopt;
      return normalize(std::move(a));
    });
  if (isa<arith::NegFOp>(def)) {
    std::optional<Poly> a = flatten(def->getOperand(0), depth + 1);
    if (!a)
      return std::nullopt;
    return scale(*a, -1.0);
  }
  if (isa<arith::MulFOp>(def))
    return binary([](const Poly &a, const Poly &b) { return multiply(a, b); });
  if (isa<arith::DivFOp>(def)) {
    std::optional<Poly> num = flatten(def->getOperand(0), depth + 1);
    if (!num)
      return std::nullopt;
    if (std::optional<double> c = constant(def->getOperand(1))) {
      if (*c == 0.0)
        return std::nullopt;
      return scale(*num, 1.0 / *c);
    }
    return multiply(
        *num, makeAtom({Atom::Kind::recip, stripCasts(def->getOperand(1))}));
  }
  // Small integer powers (x³ in the tanh form of GELU).
  if (isa<math::PowFOp, math::FPowIOp>(def)) {
    std::optional<double> e = constant(def->getOperand(1));
    if (e && *e >= 1.0 && *e <= 4.0 && *e == std::floor(*e)) {
      std::optional<Poly> base = flatten(def->getOperand(0), depth + 1);
      if (!base)
        return std::nullopt;
      Poly result = *base;
      for (int i = 1, n = static_cast<int>(*e); i < n; ++i) {
        std::optional<Poly> next = multiply(result, *base);
        if (!next)
          return std::nullopt;
        result = std::move(*next);
      }
      return result;
    }
  }
  return makeAtom({Atom::Kind::value, v});
}

//===----------------------------------------------------------------------===//
// Activation patterns
//===----------------------------------------------------------------------===//

/// Returns true if `p` is c·x^power with c ≈ `coef`.
static bool isMonomial(const Poly &p, double coef, unsigned power = 1) {
  if (p.size() != 1 || !approx(p[0].coef, coef) || p[0].atoms.size() != power)
    return false;
  return llvm::all_of(p[0].atoms,
                      [](const Atom &a) { return a.kind == Atom::Kind::x; });
}

/// Returns the only operand of a unary op of type OpTy defining `atom`.
template <typename OpTy>
static Value getUnaryArg(const Atom &atom) {
  if (atom.kind != Atom::Kind::value)
    return {};
  if (auto op = atom.value.getDefiningOp<OpTy>())
    return op->getOperand(0);
  return {};
}

/// Matches 1 + exp(−x), the denominator of the sigmoid.
static bool isOnePlusExpNegX(Flattener &f, Value denominator) {
  std::optional<Poly> d = f.flatten(denominator);
  if (!d || d->size() != 2)
    return false;
  const Term *one = nullptr, *exp = nullptr;
  for (const Term &t : *d) {
    if (t.atoms.empty())
      one = &t;
    else if (t.atoms.size() == 1)
      exp = &t;
  }
  if (!one || !exp || !approx(one->coef, 1.0) || !approx(exp->coef, 1.0))
    return false;
  Value arg = getUnaryArg<math::ExpOp>(exp->atoms[0]);
  if (!arg)
    return false;
  std::optional<Poly> a = f.flatten(arg);
  return a && isMonomial(*a, -1.0);
}

/// Matches `p` = factor·sigmoid(x) for factor ∈ {1, x}: either
/// factor/(1 + exp(−x)) or 0.5·factor + 0.5·factor·tanh(x/2).
static bool isTimesSigmoid(Flattener &f, const Poly &p, bool timesX) {
  unsigned xs = timesX ? 1 : 0;
  auto countX = [](const Term &t) {
    return llvm::count_if(
        t.atoms, [](const Atom &a) { return a.kind == Atom::Kind::x; });
  };
  if (p.size() == 1) {
    const Term &t = p[0];
    if (!approx(t.coef, 1.0) || t.atoms.size() != xs + 1 ||
        static_cast<unsigned>(countX(t)) != xs)
      return false;
    const Atom &r = t.atoms.back(); // recip sorts after x
    return r.kind == Atom::Kind::recip && isOnePlusExpNegX(f, r.value);
  }
  if (p.size() != 2)
    return false;
  for (int i = 0; i < 2; ++i) {
    const Term &lin = p[i], &th = p[1 - i];
    if (!approx(lin.coef, 0.5) || !approx(th.coef, 0.5) ||
        lin.atoms.size() != xs || static_cast<unsigned>(countX(lin)) != xs ||
        th.atoms.size() != xs + 1 || static_cast<unsigned>(countX(th)) != xs)
      continue;
    Value arg = getUnaryArg<math::TanhOp>(th.atoms.back());
    if (!arg)
      continue;
    std::optional<Poly> a = f.flatten(arg);
    if (a && isMonomial(*a, 0.5))
      return true;
  }
  return false;
}

/// Matches the GELU forms 0.5·x + 0.5·x·erf(x/√2) and
/// 0.5·x + 0.5·x·tanh(√(2/π)·(x + 0.044715·x³)).
static std::optional<ActivationKind> matchGelu(Flattener &f, const Poly &p) {
  if (p.size() != 2)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const Term &lin = p[i], &nl = p[1 - i];
    if (!approx(lin.coef, 0.5) || !approx(nl.coef, 0.5) ||
        lin.atoms.size() != 1 || lin.atoms[0].kind != Atom::Kind::x ||
        nl.atoms.size() != 2 || nl.atoms[0].kind != Atom::Kind::x)
      continue;
    const Atom &g = nl.atoms[1];
    if (Value arg = getUnaryArg<math::ErfOp>(g)) {
      std::optional<Poly> a = f.flatten(arg);
      if (a && isMonomial(*a, M_SQRT1_2))
        return ActivationKind::gelu_erf;
    }
    if (Value arg = getUnaryArg<math::TanhOp>(g)) {
      std::optional<Poly> a = f.flatten(arg);
      if (!a || a->size() != 2)
        continue;
      const double c = std::sqrt(2.0 / M_PI);
      Poly lo{(*a)[0]}, hi{(*a)[1]};
      if (lo[0].atoms.size() > hi[0].atoms.size())
        std::swap(lo, hi);
      if (isMonomial(lo, c, 1) && isMonomial(hi, c * 0.044715, 3))
        return ActivationKind::gelu_tanh;
    }
  }
  return std::nullopt;
}

/// Matches max(x, 0), also as select(x > 0, x, 0) (torch-mlir's form).
static bool matchRelu(Flattener &f, Value y) {
  auto isZero = [&](Value v) {
    std::optional<double> c = f.constant(v);
    return c && *c == 0.0;
  };
  Operation *def = stripCasts(y).getDefiningOp();
  if (!def)
    return false;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
    Value a = def->getOperand(0), b = def->getOperand(1);
    return (f.isX(a) && isZero(b)) || (f.isX(b) && isZero(a));
  }
  auto select = dyn_cast<arith::SelectOp>(def);
  if (!select)
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return false;
  using P = arith::CmpFPredicate;
  P pred = cmp.getPredicate();
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  if (f.isX(rhs) && isZero(lhs)) {
    // 0 < x is x > 0: swap the operands and mirror the predicate.
    std::swap(lhs, rhs);
    switch (cmp.getPredicate()) {
    case P::OLT:
      pred = P::OGT;
      break;
    case P::OLE:
      pred = P::OGE;
      break;
    case P::ULT:
      pred = P::UGT;
      break;
    case P::ULE:
      pred = P::UGE;
      break;
    case P::OGT:
      pred = P::OLT;
      break;
    case P::OGE:
      pred = P::OLE;
      break;
    case P::UGT:
      pred = P::ULT;
      break;
    case P::UGE:
      pred = P::ULE;
      break;
    default:
      return false;
    }
  }
  if (!f.isX(lhs) || !isZero(rhs))
    return false;
  Value t = select.getTrueValue(), e = select.getFalseValue();
  switch (pred) {
  case P::OGT:
  case P::OGE:
  case P::UGT:
  case P::UGE:
    return f.isX(t) && isZero(e);
  case P::OLT:
  case P::OLE:
  case P::ULT:
  case P::ULE:
    return isZero(t) && f.isX(e);
  default:
    return false;
  }
}

std::optional<ActivationKind>
mlir::dsm::matchScalarActivation(Value y, function_ref<bool(Value)> sameAsX,
                                 ScalarConstantFn constantOf) {
  Flattener f(sameAsX, constantOf);
  if (matchRelu(f, y))
    return ActivationKind::relu;
  std::optional<Poly> p = f.flatten(y);
  if (!p)
    return std::nullopt;
  if (isMonomial(*p, 1.0))
    return ActivationKind::identity;
  if (p->size() == 1 && p->front().atoms.size() == 1 &&
      p->front().atoms[0].kind == Atom::Kind::x)
    return ActivationKind::scale;
  if (isTimesSigmoid(f, *p, /*timesX=*/false))
    return ActivationKind::sigmoid;
  if (isTimesSigmoid(f, *p, /*timesX=*/true))
    return ActivationKind::silu;
  return matchGelu(f, *p);
}

//===----------------------------------------------------------------------===//
// Linalg ops
//===----------------------------------------------------------------------===//

std::optional<double> mlir::dsm::getSplatConstant(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return getAttrConstant(cst.getValue());
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return getSplatConstant(fill.getInputs()[0]);
  return std::nullopt;
}

bool mlir::dsm::isElementwiseLinalgOp(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return false;
  Block *body = op.getBlock();
  if (!body)
    return false;
  for (Operation &inner : body->without_terminator())
    if (inner.getNumRegions() != 0 || isa<linalg::IndexOp>(inner) ||
        !isPure(&inner))
      return false;
  return true;
}

std::optional<ElementwiseActivation>
mlir::dsm::matchActivation(linalg::LinalgOp op) {
  if (!isElementwiseLinalgOp(op) ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return std::nullopt;
  Block *body = op.getBlock();
  OpOperand *data = nullptr;
  DenseMap<Value, double> constants;
  SmallPtrSet<Value, 4> xArgs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (std::optional<double> c = getSplatConstant(input->get())) {
      constants[arg] = *c;
      continue;
    }
    if (!data) {
      data = input;
    } else if (input->get() != data->get() ||
               op.getMatchingIndexingMap(input) !=
                   op.getMatchingIndexingMap(data)) {
      return std::nullopt; // a function of two tensors
    }
    xArgs.insert(arg);
  }
  if (!data)
    return std::nullopt;
  Value y = body->getTerminator()->getOperand(0);
  std::optional<ActivationKind> kind = matchScalarActivation(
      y, [&](Value v) { return xArgs.contains(v); },
      [&](Value v) -> std::optional<double> {
        auto it = constants.find(v);
        if (it == constants.end())
          return std::nullopt;
        return it->second;
      });
  if (!kind)
    return std::nullopt;
  return ElementwiseActivation{*kind, data};
}
