#!/bin/sh
# Regenerates the LLVM remark fixtures of tests/test_remarks.c from kernels.cl, agprs.cl and kernels.hip with
# LLVM 19 (Debian's clang-19 and llc-19, 19.1.7 when captured).  The logs are the compilers' stderr as a build
# would print it; the tests assert the figures LLVM printed in them.
set -eu
cd "$(dirname "$0")"
R=-Rpass-analysis=kernel-resource-usage
# clang's form: "FILE:L:C: remark: LABEL: VALUE [-Rpass-analysis=kernel-resource-usage]"; two compiles, one log
{ clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c kernels.cl -o /dev/null $R
  clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c agprs.cl -o /dev/null $R; } > gfx942.log 2>&1
clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2 -c kernels.cl -o /dev/null $R > gfx1100.log 2>&1
# llc's form: "remark: FILE:L:C: LABEL: VALUE" (here without debug information: <unknown>:0:0)
tmp=$(mktemp -d)
clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2 -S -emit-llvm kernels.cl -o "$tmp/kernels.ll"
llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx906 -O2 -pass-remarks-analysis=kernel-resource-usage \
    "$tmp/kernels.ll" -o /dev/null > gfx906_llc.log 2>&1
rm -r "$tmp"
# HIP for two targets in one command: the remarks do not say which target a kernel was compiled for
clang-19 -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx942 --offload-arch=gfx1100 -O2 \
    -c kernels.hip -o /dev/null $R > hip_two_targets.log 2>&1
# The same for a light and a register-heavy kernel.  clang 19 compiles the targets in their names' order
# (gfx1100 before gfx942, whatever the command's order: -ccc-print-phases shows it), so lines 1-22 are gfx1100's
# remarks and lines 23-46 gfx942's (compiling for each alone prints the same figures)
clang-19 -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx942 --offload-arch=gfx1100 -O2 \
    -c light_heavy.hip -o /dev/null $R > hip_light_heavy.log 2>&1
clang-19 --version | head -1 > llvm_version.txt
