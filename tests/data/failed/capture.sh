#!/bin/sh
# Regenerates the failed-compile fixtures of tests/test_cli_records.py: what nvcc -Xptxas -v and clang's
# resource-usage remarks print (stdout and stderr, as `2>&1 |` pipes them) for a source with an undefined
# identifier and for a source file that does not exist.  Captured with CUDA 13.0 (nvcc V13.0.88, gcc 12 as
# its host compiler) and Debian's clang-19 (19.1.7).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -r "$tmp"' EXIT
printf '__global__ void k(float *p)\n{\n    p[0] = nope;\n}\n' > "$tmp/k.cu"
printf '__kernel void k(__global float *p)\n{\n    p[0] = nope;\n}\n' > "$tmp/k.cl"
(cd "$tmp" && nvcc -Xptxas -v -c k.cu -o /dev/null 2>&1 || true) > nvcc_syntax.log
(cd "$tmp" && nvcc -Xptxas -v -c missing.cu -o /dev/null 2>&1 || true) > nvcc_missing.log
R=-Rpass-analysis=kernel-resource-usage
(cd "$tmp" && clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c k.cl -o /dev/null $R 2>&1 || true) \
    > clang_syntax.log
(cd "$tmp" && clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c missing.cl -o /dev/null $R 2>&1 ||
    true) > clang_missing.log
