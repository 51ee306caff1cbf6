//===- Validate.cpp - Launch-argument validation --------------------------===//

#include "ff/Runtime/Validate.h"

#include <cstdio>

using namespace ff::rt;

static std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += i ? ", " : "";
    s += shape[i] == -1 ? "M" : std::to_string(shape[i]);
  }
  return s + "]";
}

bool ff::rt::computeGrid(const KernelSpec &k, int64_t m,
                         std::array<uint32_t, 3> &grid, std::string &error) {
  uint64_t x = k.grid[0];
  if (k.gridMTile > 0) {
    uint64_t tiles = uint64_t((m + k.gridMTile - 1) / k.gridMTile);
    x *= tiles;
  }
  if (x > 0x7fffffffull) {
    error = "kernel " + k.name + ": grid x = " + std::to_string(x) +
            " for M = " + std::to_string(m) + " exceeds 2^31-1";
    return false;
  }
  if (x % k.cluster[0] != 0) {
    error =
        "kernel " + k.name + ": grid x = " + std::to_string(x) +
        " for M = " + std::to_string(m) +
        " is not a multiple of the cluster x = " + std::to_string(k.cluster[0]);
    return false;
  }
  grid = {uint32_t(x), k.grid[1], k.grid[2]};
  return true;
}

void ff::rt::capPersistentGrid(const KernelSpec &k, int maxActiveClusters,
                               std::array<uint32_t, 3> &grid) {
  if (!k.persistent || maxActiveClusters < 1)
    return;
  uint64_t cap = uint64_t(maxActiveClusters) * k.cluster[0];
  // Past a few waves the hardware's dynamic block scheduling and the
  // wave-synchronous L2 reuse of a one-tile-per-CTA grid win over the
  // epilogue overlap: GEMM-8192 (15.5 waves on 132 SMs) read 13 % more
  // DRAM persistent and ran 4 % slower, GEMM-4096 (3.9 waves) ran 3 %
  // faster (docs/validation.md). The kernel loop serves either grid.
  if (grid[0] > cap && grid[0] <= cap * kMaxPersistentWaves)
    grid[0] = uint32_t(cap);
}

bool ff::rt::validateArgs(const Manifest &man,
                          const std::vector<TensorArg> &args,
                          const PointerQuery *query, int device,
                          LaunchPlan &plan, std::string &error) {
  size_t n = man.numTensors();
  if (args.size() != n) {
    std::string names;
    for (size_t i = 0; i < n; ++i)
      names += (i ? ", " : "") + man.tensor(i).name;
    error = "expected " + std::to_string(n) + " arguments (" + names +
            "), got " + std::to_string(args.size());
    return false;
  }
  // Tensors that some kernel reads through TMA need 16-byte row strides.
  std::vector<bool> viaTma(man.numAllTensors(), false);
  for (const KernelSpec &k : man.kernels)
    for (const ParamSpec &p : k.params)
      if (p.kind == ParamKind::TensorMap || p.kind == ParamKind::TensorMapPtr)
        viaTma[size_t(p.tensor)] = true;

  int64_t m = -1;
  size_t mFrom = 0;
  for (size_t i = 0; i < n; ++i) {
    const TensorSpec &spec = man.tensor(i);
    const TensorArg &a = args[i];
    // Names are built only on the error path (this runs on every launch).
    auto who = [&](size_t t) {
      return std::string(man.isOutput(t) ? "output" : "input") + " '" +
             man.tensor(t).name + "'";
    };
    if (a.dtype != spec.dtype) {
      error = who(i) + ": dtype " + dtypeName(a.dtype) +
              " does not match the bundle's " + dtypeName(spec.dtype);
      return false;
    }
    if (a.shape.size() != spec.shape.size()) {
      error = who(i) + ": rank " + std::to_string(a.shape.size()) +
              " does not match the bundle's shape " + shapeString(spec.shape);
      return false;
    }
    for (size_t d = 0; d < spec.shape.size(); ++d) {
      int64_t got = a.shape[d];
      if (got <= 0) {
        error = who(i) + ": dimension " + std::to_string(d) + " is " +
                std::to_string(got) + " (must be positive)";
        return false;
      }
      if (spec.shape[d] == -1) {
        if (m == -1) {
          m = got;
          mFrom = i;
        } else if (got != m) {
          error = who(i) + ": M = " + std::to_string(got) +
                  " is inconsistent with M = " + std::to_string(m) + " from " +
                  who(mFrom);
          return false;
        }
      } else if (got != spec.shape[d]) {
        error = who(i) + ": dimension " + std::to_string(d) + " is " +
                std::to_string(got) + ", the bundle needs " +
                std::to_string(spec.shape[d]) + " (shape " +
                shapeString(spec.shape) + ")";
        return false;
      }
    }
    if (!a.strides.empty()) {
      if (a.strides.size() != a.shape.size()) {
        error = who(i) + ": " + std::to_string(a.strides.size()) +
                " strides for rank " + std::to_string(a.shape.size());
        return false;
      }
      int64_t expect = 1;
      for (size_t d = a.shape.size(); d-- > 0;) {
        // A stride over an extent of 1 is never used, so PyTorch may report
        // anything there.
        if (a.shape[d] != 1 && a.strides[d] != expect) {
          error = who(i) + ": not contiguous row-major (stride of dimension " +
                  std::to_string(d) + " is " + std::to_string(a.strides[d]) +
                  ", expected " + std::to_string(expect) +
                  "); call .contiguous() first";
          return false;
        }
        expect *= a.shape[d];
      }
    }
    if (a.data == 0) {
      error = who(i) + ": null data pointer";
      return false;
    }
    if (a.data % 16 != 0) {
      error = who(i) + ": data pointer 0x" + [&] {
        char buf[32];
        snprintf(buf, sizeof(buf), "%llx", (unsigned long long)a.data);
        return std::string(buf);
      }() + " is not 16-byte aligned (TMA needs 16)";
      return false;
    }
    int64_t rowBytes = a.shape.back() * dtypeSize(a.dtype);
    if (viaTma[i] && a.shape.size() > 1 && rowBytes % 16 != 0) {
      error = who(i) + ": row of " + std::to_string(rowBytes) +
              " bytes is not a multiple of 16 (TMA stride rule)";
      return false;
    }
    if (query) {
      int dev = -1;
      std::string why;
      if (!(*query)(a.data, dev, why)) {
        error = who(i) + ": " + why;
        return false;
      }
      if (device >= 0 && dev != device) {
        error = who(i) + ": lives on device " + std::to_string(dev) +
                ", the launch targets device " + std::to_string(device);
        return false;
      }
    }
  }
  if (m == -1)
    m = man.chain.m > 0 ? man.chain.m : 1;
  if (man.chain.m > 0 && m != man.chain.m) {
    error = "M = " + std::to_string(m) +
            " but the bundle was built for M = " + std::to_string(man.chain.m);
    return false;
  }
  std::vector<int> seq = man.selectKernels(m);
  int k = seq.empty() ? -1 : seq.front();
  if (k < 0) {
    std::string bins;
    for (const KernelSpec &ks : man.kernels)
      bins += (bins.empty() ? "" : ", ") + std::string("[") +
              std::to_string(ks.mLo) + ", " + std::to_string(ks.mHi) + "]";
    error = "M = " + std::to_string(m) + " is outside every kernel's M bin (" +
            bins + ")";
    return false;
  }
  for (int i : seq) {
    const KernelSpec &ks = man.kernels[size_t(i)];
    if (m % ks.mMultiple != 0) {
      error = "M = " + std::to_string(m) + " is not a multiple of " +
              std::to_string(ks.mMultiple) + ", which kernel " + ks.name +
              " requires";
      return false;
    }
  }
  // Outputs must not overlap any other argument: a kernel reads inputs while
  // it writes outputs.
  auto bytes = [&](size_t i) {
    int64_t e = dtypeSize(args[i].dtype);
    for (int64_t d : args[i].shape)
      e *= d;
    return uint64_t(e);
  };
  for (size_t o = man.chain.inputs.size(); o < n; ++o)
    for (size_t j = 0; j < n; ++j) {
      if (j == o)
        continue;
      uint64_t a0 = args[o].data, a1 = a0 + bytes(o);
      uint64_t b0 = args[j].data, b1 = b0 + bytes(j);
      if (a0 < b1 && b0 < a1) {
        error = "output '" + man.tensor(o).name + "' overlaps " +
                (man.isOutput(j) ? "output '" : "input '") +
                man.tensor(j).name + "'";
        return false;
      }
    }
  plan.m = m;
  plan.kernel = k;
  plan.kernels = seq;
  plan.grids.assign(seq.size(), {1, 1, 1});
  for (size_t i = 0; i < seq.size(); ++i)
    if (!computeGrid(man.kernels[size_t(seq[i])], m, plan.grids[i], error))
      return false;
  plan.grid = plan.grids.front();
  return true;
}
