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
# PTX only (no compiled kernel), and a cubin of zero kernels
nvcc -fatbin -gencode arch=compute_90,code=compute_90 $src/units.cu -o "$out/units_ptx.fatbin"
nvcc -cubin -arch=sm_90 $src/no_kernel.cu -o "$out/no_kernel_sm90.cubin"
# launch bounds checked: a minimum reached, and one that shared memory prevents
nvcc -cubin -arch=sm_90 $src/bounds.cu -o "$out/bounds_sm90.cubin"
# A fatbinary in .rodata (no .nv_fatbin section), after a candidate magic whose header does not validate:
# the layout of libraries such as cuFFT, which keep their fatbinaries in .ldata
tmp=$(mktemp -d)
printf '\120\355\125\272\007\000\020\000' > "$tmp/blob" # 0xBA55ED50, version 7: not a fatbinary
head -c 8 /dev/zero >> "$tmp/blob"
cat "$out/units_zstd.fatbin" >> "$tmp/blob"
(cd "$tmp" && ld -r -b binary blob -o blob.o)
objcopy --rename-section .data=.rodata,alloc,load,readonly,data,contents "$tmp/blob.o" "$out/units_rodata.o"
rm -r "$tmp"
# -rdc=true linked into an executable: every kernel twice, relocatable (__nv_relfatbin) and linked (.nv_fatbin);
# the linked sm_90+ cubins lay out the reserved shared-memory window without a .nv.shared.reserved.* section
nvcc -rdc=true -no-compress -cudart=shared -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_120,code=sm_120 $src/linked.cu -o "$out/linked_app"
strip "$out/linked_app"
# Arch variants: sm_90a, sm_100f, sm_120f in a fatbinary (the entry header says so), sm_100a and sm_100f as bare
# cubins (only the .note.nv.tkinfo note says so; e_flags are those of plain sm_100)
nvcc -fatbin -no-compress -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_100f,code=sm_100f \
    -gencode arch=compute_120f,code=sm_120f $src/units.cu -o "$out/units_variants.fatbin"
# sm_90a's entry before plain sm_90's: each entry keeps its own variant
nvcc -fatbin -no-compress -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=sm_90 $src/units.cu \
    -o "$out/units_sm90a_sm90.fatbin"
nvcc -cubin -arch=sm_100a $src/units.cu -o "$out/units_sm100a.cubin"
nvcc -cubin -arch=sm_100f $src/units.cu -o "$out/units_sm100f.cubin"
# Blackwell's records (virtual resources, tensor-memory CTA group, setmaxnreg), from PTX: ptxas, not nvcc
ptxas -arch=sm_100a -v $src/tcgen05.ptx -o "$out/tcgen05_sm100a.cubin" 2> "$out/ptxas_tcgen05.log"
# setmaxnreg kept (EIATTR 0x54) only where the register count at entry is fixed; C7508 where it is dropped
nvcc -cubin -arch=sm_90a -Xptxas -v $src/setmaxnreg.cu -o "$out/setmaxnreg_sm90a.cubin" 2> "$out/ptxas_setmaxnreg.log"
