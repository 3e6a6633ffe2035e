#!/bin/sh
# Capture texture lookups on a real NVIDIA GPU (needs nvcc and a CUDA driver):
#   scripts/hw-capture.sh OUT_DIR
# writes OUT_DIR/capture.txt (tools/hw-capture/tex_capture.cu's lookups and results) and
# OUT_DIR/sass.txt (the texture instructions the kernel compiled to). The capture is
# replayed by tests/tex/test_hw_capture.c (docs/texture-unit-precision.md, "Checked against a
# GPU").
set -eu
out=${1:?usage: scripts/hw-capture.sh OUT_DIR}
src=$(dirname "$0")/../tools/hw-capture/tex_capture.cu
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -n 2
nvcc -O2 -arch=native -o "$tmp/tex_capture" "$src"
cuobjdump -sass "$tmp/tex_capture" | grep -E 'TEX|TLD|TXD|TMML|TXQ|TLD4' > "$out/sass.txt" || true
"$tmp/tex_capture" "$out/capture.tmp"
mv "$out/capture.tmp" "$out/capture.txt"
