"""The GPU's power state while a benchmark times, as the protocol asks
(perf-anchors.md 4.3: leave the clocks alone, note their reading).

An H200 under a sustained chain meets its 700 W cap within a second and
slows down: S3's sequence at M = 256 reads 140 us in a 30 ms ff-run and
157-169 us after seconds of load (the fortieth session, docs/validation.md),
while nvidia-smi's sampled SM clock mostly reads 1980 MHz. So each timing
window is bracketed by two NVML readings, and a row reports what they
bound exactly: the share of the time NVML counts as power-capped (its
power violation counter; 70-100 % under back-to-back 8192^3 matmuls on an
H200, 0 % while idle), beside the SM clock read at each window's end
(after the GPU drained, so it recovers: weak evidence). NVML's energy
counter is not used: it advances in steps too coarse for windows of tens
of milliseconds. Read-only queries through the driver's libnvidia-ml;
without it every field is empty.
"""
import collections
import ctypes
import statistics
import time

Reading = collections.namedtuple("Reading", "t power_capped_ns sm_mhz")

_NVML_CLOCK_SM = 1
_NVML_PERF_POLICY_POWER = 0


class _Violation(ctypes.Structure):
    _fields_ = [("reference_time", ctypes.c_ulonglong),
                ("violation_time", ctypes.c_ulonglong)]


class Monitor:
    """NVML readings of the GPU with `uuid` (torch's device uuid, without
    the "GPU-" prefix); read() gives None where NVML or the GPU is not
    found."""

    def __init__(self, uuid, library="libnvidia-ml.so.1"):
        self.dev = None
        try:
            self.lib = ctypes.CDLL(library)
        except OSError:
            return
        dev = ctypes.c_void_p()
        if self.lib.nvmlInit_v2() != 0 or not uuid or \
                self.lib.nvmlDeviceGetHandleByUUID(
                    f"GPU-{uuid}".encode(), ctypes.byref(dev)) != 0:
            return
        self.dev = dev

    def read(self):
        if self.dev is None:
            return None
        mhz, viol = ctypes.c_uint(), _Violation()
        t = time.perf_counter()
        # Either may be unsupported on a board: then left out, not wrong.
        capped = None
        if self.lib.nvmlDeviceGetViolationStatus(
                self.dev, _NVML_PERF_POLICY_POWER, ctypes.byref(viol)) == 0:
            capped = viol.violation_time
        sm = None
        if self.lib.nvmlDeviceGetClockInfo(self.dev, _NVML_CLOCK_SM,
                                           ctypes.byref(mhz)) == 0:
            sm = mhz.value
        return Reading(t, capped, sm)


def summarize(windows):
    """{power_capped_pct, sm_mhz} over `windows`, (start, end) Reading
    pairs: the share of their time NVML counted as power-capped and the
    median SM clock at their ends; empty strings for what no window
    measured."""
    w = [(a, b) for a, b in windows if a is not None and b is not None and
         b.t > a.t]
    out = dict(power_capped_pct="", sm_mhz="")
    capped = [(a, b) for a, b in w if a.power_capped_ns is not None and
              b.power_capped_ns is not None]
    if capped:
        ns = sum(b.power_capped_ns - a.power_capped_ns for a, b in capped)
        out["power_capped_pct"] = round(
            min(100.0, 100 * ns / 1e9 / sum(b.t - a.t for a, b in capped)))
    mhz = [b.sm_mhz for _, b in w if b.sm_mhz is not None]
    if mhz:
        out["sm_mhz"] = round(statistics.median(mhz))
    return out
