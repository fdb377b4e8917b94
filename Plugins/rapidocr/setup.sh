#!/bin/sh
# Makes the RapidOCR plugin ready: a virtual environment in .venv, inside this folder, holding rapidocr-onnxruntime
# (which carries its ONNX models) and its dependencies, about 400 MB. Run once; it downloads from PyPI. Nothing is
# downloaded when the plugin runs.
set -eu
cd "$(dirname "$0")"
python=${PYTHON:-python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "setup.sh: $python cannot make virtual environments; on Debian/Ubuntu: apt-get install python3-venv" >&2
    exit 1
fi
"$python" -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check "rapidocr-onnxruntime==1.4.4"
.venv/bin/python -c 'from rapidocr_onnxruntime import RapidOCR; RapidOCR()' >/dev/null
echo "RapidOCR is ready: docscan recognizers lists it as rapidocr"
