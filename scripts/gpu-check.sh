#!/usr/bin/env bash
# The cuda target on a machine with an NVIDIA GPU, in one command (a few minutes):
# hanajit from this tree (no build, no network), `hanajit doctor`, the launch tests
# (hanajit-cuda/tests: results against NumPy), the executables' GPU tests
# (hanajit-exe/tests/test_exe_cuda_gpu.py: exported programs running their embedded
# PTX, against the CPU JIT; need a C compiler), then the GPU benchmarks (saxpy 1e8
# float64 against device-to-device copy bandwidth, back-to-back launches against
# Numba-CUDA) printed as a table.  Logs and bench.json go to $OUT (default
# /tmp/hanajit-gpu-check).  The exit status is the tests'.
#
#   scripts/gpu-check.sh --fetch-wheels   # on a machine with pip access: download
#                                         # llvmlite into .whl/ for a GPU machine
#                                         # that cannot fetch (Python 3.12 by default)
#   scripts/gpu-check.sh                  # on the GPU machine (carry .whl if fetched)
#
# Needs there: python3 with numpy, pluggy, pytest and NVIDIA's cuda-bindings (all
# optional wheels in .whl/ are installed first); libdevice from a CUDA toolkit or
# NVIDIA's wheels for the transcendental kernels.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}

if [ "${1:-}" = "--fetch-wheels" ]; then
    pyver=${GPU_PYTHON_VERSION:-3.12}
    "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version "$pyver" \
        --implementation cp --platform manylinux_2_28_x86_64 \
        --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d .whl "llvmlite==0.50.0"
    ls -l .whl
    exit $?
fi

OUT=${OUT:-/tmp/hanajit-gpu-check}
SITE=/tmp/hanajit-gpu-site
mkdir -p "$OUT" "$SITE/meta"
export PYTHONUNBUFFERED=1

# Numba-CUDA first, with the machine's own packages (a newer llvmlite put in front
# for hanajit below would stop Numba from importing)
echo "== numba-cuda back-to-back launches"
timeout 120 "$PY" hanajit-cuda/benchmarks/numba_launch.py 20000 >"$OUT/numba.json" \
    2>"$OUT/numba.err"
cat "$OUT/numba.json"
if ls .whl/*.whl >/dev/null 2>&1; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target "$SITE/wheels" .whl/*.whl || exit 1
fi
# hanajit's distributions from the source tree: the sources on PYTHONPATH, and
# dist-info folders so that plugin discovery (entry points) finds the targets
for dist in core:hanajit-core: cpu:hanajit-cpu:cpu=hanajit_cpu.plugin \
            cuda:hanajit-cuda:cuda=hanajit_cuda.plugin exe:hanajit-exe:exe=hanajit_exe.plugin; do
    IFS=: read -r _ name ep <<<"$dist"
    info="$SITE/meta/${name//-/_}-0.1.0.dist-info"
    mkdir -p "$info"
    printf 'Metadata-Version: 2.1\nName: %s\nVersion: 0.1.0\n' "$name" >"$info/METADATA"
    if [ -n "$ep" ]; then
        printf '[hanajit]\n%s = %s\n' "${ep%%=*}" "${ep#*=}" >"$info/entry_points.txt"
    fi
done
export PYTHONPATH="$SITE/wheels:$SITE/meta:$PWD/hanajit-core/src:$PWD/hanajit-cpu/src:$PWD/hanajit-cuda/src:$PWD/hanajit-exe/src${PYTHONPATH:+:$PYTHONPATH}"

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -3
"$PY" - <<'PY'
import sys, llvmlite, numpy, llvmlite.binding as llvm
print("python", sys.version.split()[0], "| llvmlite", llvmlite.__version__,
      "LLVM", ".".join(map(str, llvm.llvm_version_info)), "| numpy", numpy.__version__)
try:
    import cuda.bindings
    print("cuda-bindings", getattr(cuda.bindings, "__version__", "?"))
except ImportError as exc:
    print("cuda-bindings missing:", exc)
PY

echo "== hanajit doctor"
"$PY" -m hanajit doctor 2>&1 | tee "$OUT/doctor.md" | grep -i -E "cuda|fail" | head -20

echo "== launch and codegen tests"
timeout 200 "$PY" -m pytest -q -rs -p no:cacheprovider hanajit-cuda/tests 2>&1 | tee "$OUT/tests.log" | tail -25
status=${PIPESTATUS[0]}

echo "== executables running their embedded PTX (export_executable cuda=required)"
timeout 120 "$PY" -m pytest -q -rs -p no:cacheprovider hanajit-exe/tests/test_exe_cuda_gpu.py 2>&1 \
    | tee "$OUT/exe-tests.log" | tail -12
exe_status=${PIPESTATUS[0]}
if [ "$status" -eq 0 ]; then status=$exe_status; fi

echo "== benchmarks"
numba_json=()
if [ -s "$OUT/numba.json" ]; then numba_json=(--numba-json "$OUT/numba.json"); fi
timeout 150 "$PY" hanajit-cuda/benchmarks/cuda_bench.py --json "$OUT/bench.json" \
    "${numba_json[@]}" 2>&1 \
    | tee "$OUT/bench.md" | tail -12
exit "$status"
