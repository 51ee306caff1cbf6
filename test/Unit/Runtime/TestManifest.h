//===- TestManifest.h - A valid manifest shared by the runtime tests ------===//

#ifndef FF_TEST_UNIT_RUNTIME_TESTMANIFEST_H
#define FF_TEST_UNIT_RUNTIME_TESTMANIFEST_H

#include <string>

namespace ff::rt::test {

/// The docs/bundle.md example: a dynamic-M FFN with two M bins.
inline std::string validManifest() {
  return R"({
  "format": "flashfuser-bundle", "version": 1,
  "compiler": "FlashFuser 0.1.0",
  "source_hash": "1111111111111111111111111111111111111111111111111111111111111111",
  "target": {"name": "h100-sxm", "chip": "sm_90a"},
  "chain": {"kind": "ffn", "activation": "gelu_tanh", "dtype": "bf16",
            "m": -1, "n": 2048, "k": 512, "l": 512,
            "inputs": [{"name": "x", "shape": [-1, 512], "dtype": "bf16"},
                       {"name": "w1", "shape": [512, 2048], "dtype": "bf16"},
                       {"name": "w2", "shape": [2048, 512], "dtype": "bf16"}],
            "outputs": [{"name": "out", "shape": [-1, 512], "dtype": "bf16"}]},
  "plan": {"cluster": [1, 4, 1, 1], "block": [128, 128, 64, 128],
           "grid": [1, 4, 1, 1], "stages": 4, "cost_ns": 17500},
  "kernels": [
    {"name": "ff_chain0", "cubin": "ff_chain0.cubin", "ptx": "ff_chain0.ptx",
     "m_lo": 1, "m_hi": 256,
     "block": [384, 1, 1], "cluster": [4, 1, 1], "grid": [4, 1, 1],
     "grid_m_tile": 128, "dynamic_smem": 200704,
     "params": [
       {"kind": "tensormap", "tensor": "x", "box": [64, 128],
        "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero",
        "interleave": "none"},
       {"kind": "tensormap_ptr", "tensor": "w1", "box": [64, 64],
        "swizzle": "128B"},
       {"kind": "ptr", "tensor": "w2"},
       {"kind": "memref", "tensor": "out"},
       {"kind": "i64", "value": "M"},
       {"kind": "i32", "value": 7},
       {"kind": "workspace", "bytes_per_m": 16384, "zero": true}]},
    {"name": "ff_chain1", "cubin": "ff_chain1.cubin",
     "m_lo": 257, "m_hi": 1048576, "m_multiple": 64,
     "block": [384, 1, 1], "cluster": [2, 2, 1], "grid": [2, 4, 1],
     "grid_m_tile": 256, "dynamic_smem": 100000,
     "params": [{"kind": "ptr", "tensor": "x"}, {"kind": "ptr", "tensor": "out"}]}
  ],
  "hash": "0000000000000000000000000000000000000000000000000000000000000000"
}
)";
}

/// An FFN at M = 128 run as a sequence of two kernels sharing one M bin:
/// act(x w1) into the intermediate "c", then c w2 into "out".
inline std::string sequenceManifest() {
  return R"({
  "format": "flashfuser-bundle", "version": 1,
  "compiler": "FlashFuser 0.1.0",
  "source_hash": "1111111111111111111111111111111111111111111111111111111111111111",
  "target": {"name": "h100-sxm", "chip": "sm_90a"},
  "chain": {"kind": "ffn", "activation": "gelu_erf", "dtype": "bf16",
            "m": 128, "n": 2048, "k": 512, "l": 512,
            "inputs": [{"name": "x", "shape": [128, 512], "dtype": "bf16"},
                       {"name": "w1", "shape": [2048, 512], "dtype": "bf16",
                        "layout": "nk"},
                       {"name": "w2", "shape": [512, 2048], "dtype": "bf16",
                        "layout": "nk"}],
            "outputs": [{"name": "out", "shape": [128, 512], "dtype": "bf16"}]},
  "intermediates": [{"name": "c", "shape": [-1, 2048], "dtype": "bf16"}],
  "kernels": [
    {"name": "ff_gemm_0", "cubin": "k0.cubin", "m_lo": 1, "m_hi": 128,
     "block": [384, 1, 1], "cluster": [1, 1, 1], "grid": [32, 1, 1],
     "grid_m_tile": 128, "dynamic_smem": 196608,
     "params": [
       {"kind": "tensormap", "tensor": "x", "box": [64, 128], "swizzle": "128B"},
       {"kind": "tensormap", "tensor": "w1", "box": [64, 64], "swizzle": "128B"},
       {"kind": "ptr", "tensor": "c"}, {"kind": "i64", "value": "M"}]},
    {"name": "ff_gemm_0", "cubin": "k1.cubin", "m_lo": 1, "m_hi": 128,
     "block": [256, 1, 1], "cluster": [1, 1, 1], "grid": [8, 1, 1],
     "grid_m_tile": 64, "dynamic_smem": 131072, "programmatic_launch": true,
     "params": [
       {"kind": "tensormap", "tensor": "c", "box": [64, 64], "swizzle": "128B"},
       {"kind": "tensormap", "tensor": "w2", "box": [64, 64], "swizzle": "128B"},
       {"kind": "ptr", "tensor": "out"}, {"kind": "i64", "value": "M"}]}
  ],
  "hash": "0000000000000000000000000000000000000000000000000000000000000000"
}
)";
}

/// validManifest() with x an NHWC image [-1, 16, 16, 64] (M = N) read
/// through an im2col map: the A operand of a 3x3, stride-1, pad-1 conv.
inline std::string im2colManifest() {
  std::string text = validManifest();
  auto replace = [&](const std::string &from, const std::string &to) {
    text.replace(text.find(from), from.size(), to);
  };
  replace("{\"name\": \"x\", \"shape\": [-1, 512]",
          "{\"name\": \"x\", \"shape\": [-1, 16, 16, 64]");
  replace("\"tensor\": \"x\", \"box\": [64, 128],",
          "\"tensor\": \"x\", \"box\": [64, 128],\n"
          "        \"im2col\": {\"lower\": [-1, -1], \"upper\": [-1, -1]},");
  return text;
}

} // namespace ff::rt::test

#endif // FF_TEST_UNIT_RUNTIME_TESTMANIFEST_H
