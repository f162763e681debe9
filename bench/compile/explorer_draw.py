#!/usr/bin/python3
"""How long the compile explorer's page takes in headless Chromium: opening it, and drawing each
stage's graph (the time from the stage's button to the boxes in the page).

  bench/compile/explorer_draw.py PAGE.html [--chromium /usr/bin/chromium] [--screenshots PREFIX]

Write the page first, e.g. `build/bin/gec report /work/corpus/swin_t/model.onnx -o swin.html`.
Chromium is driven as in the browser test (tests/unit/gec/explorer_browser_test.py). Not a test:
nothing in CI runs it.
"""
import argparse
import os
import sys
import tempfile
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "unit", "gec"))
import explorer_browser_test as harness  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshots", help="write PREFIX-STAGE.png for each stage")
    args = parser.parse_args()
    harness.CHROMIUM = args.chromium
    page = os.path.abspath(args.page)
    print(f"{page}: {os.path.getsize(page) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as work:
        browser = harness.Browser(work)
        try:
            start = time.monotonic()
            browser.open(page)
            print(f"open (the last stage drawn): {time.monotonic() - start:.2f} s")
            stages = browser.js("JSON.parse(document.getElementById('data').textContent)"
                                ".stages.map(s => [s.stage, s.drawn, s.too_large])")
            for i, (stage, drawn, too_large) in enumerate(stages):
                start = time.monotonic()
                browser.click(f'#stages button[data-stage="{i}"]')
                boxes = browser.js("document.querySelectorAll('#viewport .node').length")
                took = time.monotonic() - start
                note = " (too large: not drawn)" if too_large else ""
                print(f"{stage}: {boxes} of {drawn} boxes in {took:.2f} s{note}")
                if args.screenshots:
                    browser.screenshot(f"{args.screenshots}-{stage}.png")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
