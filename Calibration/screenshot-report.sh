#!/usr/bin/env bash
# Compares fast and accurate on the calibration corpus, writes the HTML report to REPORT_DIR (default
# /tmp/docscan-report) and photographs its top in headless Chromium as Calibration/report-screenshot.png (the picture in
# README.md). Needs Debian's chromium and python3-pil (apt-get install chromium python3-pil).
set -euo pipefail
cd "$(dirname "$0")/.."
report=${REPORT_DIR:-/tmp/docscan-report}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "no Chromium found: apt-get install chromium" >&2
    exit 1
fi
swift build -c release --product docscan
.build/release/docscan compare Calibration/corpus --recognizers fast,accurate --report "$report" | tee "$report.txt"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$profile" \
    --window-size=1280,1500 --screenshot="$PWD/Calibration/report-screenshot.png" "file://$report/index.html" 2>/dev/null
# 32 colours are plenty for a page of text, tables and charts, and keep the repository small (52 KB, not 190 KB).
/usr/bin/python3 -c 'import sys; from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(colors=32).save(sys.argv[1], optimize=True)' Calibration/report-screenshot.png
echo "report: $report/index.html; screenshot: Calibration/report-screenshot.png"
