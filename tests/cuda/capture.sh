#!/bin/sh
# Regenerates the captured compiler output under tests/data (CUDA 13.0 was used for the checked-in files).
# Usage: tests/cuda/capture.sh [OUTDIR]   (default tests/data; run from the repository root)
set -eu
out=${1:-tests/data}
src=tests/cuda
for a in 75 80 90 120; do
    nvcc -cubin -arch=sm_$a -maxrregcount=64 -Xptxas -v $src/kernels.cu -o "$out/kernels_sm$a.cubin" \
        2> "$out/ptxas_sm$a.log"
done
targets="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_120,code=sm_120"
# shellcheck disable=SC2086
nvcc -fatbin -no-compress $targets -Xptxas -v $src/units.cu -o "$out/units.fatbin" 2> "$out/ptxas_units.log"
# shellcheck disable=SC2086
nvcc -c -no-compress $targets $src/units.cu -o "$out/units_host.o"
# shellcheck disable=SC2086
nvcc -rdc=true -c -no-compress $targets -Xptxas -v $src/units.cu -o "$out/units_rdc.o" 2> "$out/ptxas_units_rdc.log"
nvcc -fatbin -compress-mode=size -gencode arch=compute_80,code=sm_80 $src/units.cu -o "$out/units_zstd.fatbin"
nvcc -fatbin -compress-mode=speed -Xfatbin=-compress-all -gencode arch=compute_80,code=sm_80 $src/units.cu \
    -o "$out/units_lz4.fatbin"
# CUDA 13 compresses relocatable device code by default: a default -rdc object holds zstd entries
# shellcheck disable=SC2086
nvcc -rdc=true -c $targets $src/units.cu -o "$out/units_rdc_zstd.o"
