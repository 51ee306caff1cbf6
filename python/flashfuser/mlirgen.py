"""Generates linalg-on-tensors MLIR for a chain spec.

A spec is a dict such as::

    {"kind": "ffn", "m": 128, "n": 2048, "k": 512, "l": 512,
     "activation": "gelu_tanh", "dtype": "bf16"}

Dimensions follow the dsm dialect's unified loops: the first GEMM is
C[M, N] = X[M, K] · W1[K, N], the second E[M, L] = act(C)[M, N] · W2[N, L]
(gated: act(X·Wg) ⊙ (X·Wu), both [M, N], then · Wd[N, L]; ``gated_gemm``
is that gated product alone). ``m`` may be -1
(or None) for a dynamic M. Optional fields:

- ``weight_layout``: ``"kn"`` (default) takes weights as [in, out] row-major
  (what the kernels read directly); ``"nk"`` takes PyTorch ``nn.Linear``
  weights as stored, [out, in], and emits transposed-B matmuls
  (``linalg.matmul indexing_maps = [...]``). With ``"kn"`` pass
  ``linear.weight.t().contiguous()``.
- ``out_dtype``: dtype of the result (default: ``dtype``); ``"f32"`` keeps the
  fp32 accumulator and drops the final truncation.

GEMMs accumulate in f32 (``linalg.matmul`` into an f32 zero fill); the
activation runs in f32 and truncates to ``dtype`` in the same
``linalg.generic``, which is the form ``--dsm-fuse`` recognises.
"""

from __future__ import annotations

from typing import Dict, List

KINDS = ("gemm", "ffn", "gated_ffn", "gated_gemm")
# Kinds without a second GEMM (no L): --dsm-fuse=fuse-single-gemms wraps them.
SINGLE_KINDS = ("gemm", "gated_gemm")
ACTIVATIONS = ("identity", "relu", "gelu_erf", "gelu_tanh", "silu", "sigmoid")
DTYPES = ("bf16", "f16", "f32")
_ALIASES = {"gelu": "gelu_erf", "none": "identity", "swish": "silu"}


class SpecError(ValueError):
    """A chain spec is incomplete or inconsistent."""


def normalize_spec(spec: Dict) -> Dict:
    """Validates a spec and fills defaults; the result is what cache keys and
    manifests are built from."""
    if not isinstance(spec, dict):
        raise SpecError("a chain spec must be a dict")
    s = dict(spec)
    kind = s.get("kind")
    if kind not in KINDS:
        raise SpecError(f"kind must be one of {', '.join(KINDS)}, got "
                        f"{kind!r}")
    act = s.get("activation", {"gemm": "identity",
                               "gated_gemm": "silu"}.get(kind, "gelu_erf"))
    act = _ALIASES.get(act, act)
    if act not in ACTIVATIONS:
        raise SpecError(f"activation must be one of {', '.join(ACTIVATIONS)}"
                        f", got {s.get('activation')!r}")
    s["activation"] = act
    s.setdefault("dtype", "bf16")
    if s["dtype"] not in ("bf16", "f16"):
        raise SpecError(f"dtype must be bf16 or f16, got {s['dtype']!r}")
    s.setdefault("out_dtype", s["dtype"])
    if s["out_dtype"] not in DTYPES:
        raise SpecError(f"out_dtype must be one of {', '.join(DTYPES)}")
    s.setdefault("weight_layout", "kn")
    if s["weight_layout"] not in ("kn", "nk"):
        raise SpecError("weight_layout must be 'kn' or 'nk'")
    m = s.get("m", -1)
    s["m"] = -1 if m is None else m
    single = kind in SINGLE_KINDS
    need = ("n", "k") if single else ("n", "k", "l")
    for d in need:
        v = s.get(d)
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise SpecError(f"dimension {d} must be a positive integer, got "
                            f"{v!r}")
    if not isinstance(s["m"], int) or (s["m"] <= 0 and s["m"] != -1):
        raise SpecError(f"m must be a positive integer or -1, got {m!r}")
    if single:
        s.pop("l", None)
    known = {"kind", "activation", "dtype", "out_dtype", "weight_layout", "m",
             "n", "k", "l"}
    extra = set(s) - known
    if extra:
        raise SpecError(f"unknown spec fields: {', '.join(sorted(extra))}")
    return s


def input_specs(spec: Dict) -> List[Dict]:
    """Manifest-style inputs/outputs of a (normalized) spec, in argument
    order: inputs then outputs."""
    s = spec
    m, n, k = s["m"], s["n"], s["k"]
    dt, nk = s["dtype"], s["weight_layout"] == "nk"

    def w(name, rows, cols):
        shape = [cols, rows] if nk else [rows, cols]
        return {"name": name, "shape": shape, "dtype": dt,
                "layout": s["weight_layout"]}

    x = {"name": "x", "shape": [m, k], "dtype": dt}
    if s["kind"] == "gemm":
        ins = [x, w("w", k, n)]
        out_cols = n
    elif s["kind"] == "ffn":
        ins = [x, w("w1", k, n), w("w2", n, s["l"])]
        out_cols = s["l"]
    elif s["kind"] == "gated_gemm":
        ins = [x, w("wg", k, n), w("wu", k, n)]
        out_cols = n
    else:
        ins = [x, w("wg", k, n), w("wu", k, n), w("wd", n, s["l"])]
        out_cols = s["l"]
    outs = [{"name": "out", "shape": [m, out_cols], "dtype": s["out_dtype"]}]
    return ins + outs


def _ty(shape, dtype):
    return "tensor<" + "x".join("?" if d == -1 else str(d)
                                for d in shape) + "x" + dtype + ">"


def _act_body(act: str, x: str, out: List[str]) -> str:
    """Appends f32 scalar ops computing act(x); returns the result name."""
    if act == "identity":
        return x
    if act == "relu":
        out.append("%zero_s = arith.constant 0.000000e+00 : f32")
        out.append(f"%relu = arith.maximumf {x}, %zero_s : f32")
        return "%relu"
    if act == "gelu_erf":
        out += ["%c_rsqrt2 = arith.constant 0.70710678118654757 : f32",
                "%c_half = arith.constant 5.000000e-01 : f32",
                "%c_one = arith.constant 1.000000e+00 : f32",
                f"%g0 = arith.mulf {x}, %c_rsqrt2 : f32",
                "%g1 = math.erf %g0 : f32",
                "%g2 = arith.addf %g1, %c_one : f32",
                f"%g3 = arith.mulf {x}, %c_half : f32",
                "%gelu = arith.mulf %g3, %g2 : f32"]
        return "%gelu"
    if act == "gelu_tanh":
        out += ["%c_k = arith.constant 0.79788456080286541 : f32",
                "%c_a = arith.constant 4.471500e-02 : f32",
                "%c_half = arith.constant 5.000000e-01 : f32",
                "%c_one = arith.constant 1.000000e+00 : f32",
                f"%t0 = arith.mulf {x}, {x} : f32",
                f"%t1 = arith.mulf %t0, {x} : f32",
                "%t2 = arith.mulf %t1, %c_a : f32",
                f"%t3 = arith.addf {x}, %t2 : f32",
                "%t4 = arith.mulf %t3, %c_k : f32",
                "%t5 = math.tanh %t4 : f32",
                "%t6 = arith.addf %t5, %c_one : f32",
                f"%t7 = arith.mulf {x}, %c_half : f32",
                "%gelu = arith.mulf %t7, %t6 : f32"]
        return "%gelu"
    if act in ("sigmoid", "silu"):
        out += ["%c_one = arith.constant 1.000000e+00 : f32",
                f"%s0 = arith.negf {x} : f32",
                "%s1 = math.exp %s0 : f32",
                "%s2 = arith.addf %s1, %c_one : f32"]
        num = "%c_one" if act == "sigmoid" else x
        out.append(f"%act = arith.divf {num}, %s2 : f32")
        return "%act"
    raise SpecError(f"unknown activation {act}")


def generate_mlir(spec: Dict) -> str:
    """The linalg MLIR text of a chain spec (one func.func)."""
    s = normalize_spec(spec)
    args = input_specs(s)
    ins, out = args[:-1], args[-1]
    kind, dt, m = s["kind"], s["dtype"], s["m"]
    nk = s["weight_layout"] == "nk"
    lines: List[str] = []
    sig = ", ".join(f"%{a['name']}: {_ty(a['shape'], a['dtype'])}"
                    for a in ins)
    lines.append(f"func.func @ff_{kind}({sig}) -> "
                 f"{_ty(out['shape'], out['dtype'])} {{")
    body: List[str] = []
    dyn = ""
    if m == -1:
        body.append("%c0 = arith.constant 0 : index")
        body.append(f"%m = tensor.dim %x, %c0 : {_ty(ins[0]['shape'], dt)}")
        dyn = "%m"
    body.append("%zero = arith.constant 0.000000e+00 : f32")
    tmp = [0]

    def empty(cols, dtype):
        tmp[0] += 1
        name = f"%empty{tmp[0]}"
        body.append(f"{name} = tensor.empty({dyn}) : {_ty([m, cols], dtype)}")
        return name

    def matmul(a, a_ty, w, w_ty, cols):
        init = empty(cols, "f32")
        tmp[0] += 1
        fill = f"%fill{tmp[0]}"
        acc_ty = _ty([m, cols], "f32")
        body.append(f"{fill} = linalg.fill ins(%zero : f32) outs({init} : "
                    f"{acc_ty}) -> {acc_ty}")
        tmp[0] += 1
        res = f"%mm{tmp[0]}"
        maps = ""
        if nk:
            maps = (" indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
                    "affine_map<(d0, d1, d2) -> (d1, d2)>, "
                    "affine_map<(d0, d1, d2) -> (d0, d1)>]")
        body.append(f"{res} = linalg.matmul{maps} ins({a}, {w} : {a_ty}, "
                    f"{w_ty}) outs({fill} : {acc_ty}) -> {acc_ty}")
        return res

    def elementwise(inputs, cols, out_dtype, act, gate_product):
        """One linalg.generic: act(in0) [* in1], then cast to out_dtype."""
        init = empty(cols, out_dtype)
        tmp[0] += 1
        res = f"%ew{tmp[0]}"
        f32_ty = _ty([m, cols], "f32")
        out_ty = _ty([m, cols], out_dtype)
        ids = ", ".join(["affine_map<(d0, d1) -> (d0, d1)>"] *
                        (len(inputs) + 1))
        body.append(
            f"{res} = linalg.generic {{indexing_maps = [{ids}], "
            f"iterator_types = [\"parallel\", \"parallel\"]}} "
            f"ins({', '.join(inputs)} : {', '.join([f32_ty] * len(inputs))}) "
            f"outs({init} : {out_ty}) {{")
        bargs = ", ".join(f"%in{i}: f32" for i in range(len(inputs)))
        body.append(f"^bb0({bargs}, %out: {out_dtype}):")
        ops: List[str] = []
        v = _act_body(act, "%in0", ops)
        if gate_product:
            ops.append(f"%prod = arith.mulf {v}, %in1 : f32")
            v = "%prod"
        if out_dtype != "f32":
            ops.append(f"%cast = arith.truncf {v} : f32 to {out_dtype}")
            v = "%cast"
        body.extend("  " + o for o in ops)
        body.append(f"  linalg.yield {v} : {out_dtype}")
        body.append(f"}} -> {out_ty}")
        return res

    x_ty = _ty(ins[0]["shape"], dt)
    n, k = s["n"], s["k"]
    w_ty = [_ty(a["shape"], a["dtype"]) for a in ins]
    if kind == "gemm":
        c = matmul("%x", x_ty, "%w", w_ty[1], n)
        result, cols = c, n
        if s["activation"] != "identity" or s["out_dtype"] != "f32":
            result = elementwise([c], n, s["out_dtype"], s["activation"],
                                 False)
    elif kind == "gated_gemm":
        # act(x wg) * (x wu): one generic over both, the gated form
        # --dsm-fuse=fuse-single-gemms recognises.
        g = matmul("%x", x_ty, "%wg", w_ty[1], n)
        u = matmul("%x", x_ty, "%wu", w_ty[2], n)
        result = elementwise([g, u], n, s["out_dtype"], s["activation"], True)
        cols = n
    else:
        if kind == "ffn":
            c = matmul("%x", x_ty, "%w1", w_ty[1], n)
            h = elementwise([c], n, dt, s["activation"], False)
            down, down_ty = "%w2", w_ty[2]
        else:
            g = matmul("%x", x_ty, "%wg", w_ty[1], n)
            u = matmul("%x", x_ty, "%wu", w_ty[2], n)
            h = elementwise([g, u], n, dt, s["activation"], True)
            down, down_ty = "%wd", w_ty[3]
        cols = s["l"]
        e = matmul(h, _ty([m, n], dt), down, down_ty, cols)
        result = e
        if s["out_dtype"] != "f32":
            result = elementwise([e], cols, s["out_dtype"], "identity", False)
    body.append(f"return {result} : {_ty([m, cols], s['out_dtype'])}")
    lines.extend("  " + b for b in body)
    lines.append("}")
    return "\n".join(lines) + "\n"
