set -x
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a scripts/gpu/stream_probe.cu -o /tmp/sp -lcuda && /tmp/sp | tee $OUT/probe.txt
. scripts/gpu/build-runtime.sh $PWD /tmp/b >/dev/null
$ffrun .device/s29a/S1 --bench 20 --check | tail -4
ncu --clock-control none --kernel-name regex:ff_ --launch-count 4 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum.per_second,sm__cycles_active.avg $ffrun .device/s29a/S1 --bench 1 2>&1 | grep -v "^==PROF" | tail -40 | tee $OUT/ncu.txt
cat $OUT/probe.txt
