#!/usr/bin/python3
"""The compile explorer in a real browser: gec writes the page, headless Chromium opens it from
disk, and the checks go through the DOM and the browser's own input events.

  explorer_browser_test.py GEC MODELS_DIR CHROMIUM [TestCase.test_name ...]

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe), so nothing
but the standard library is needed. Every request the page makes is recorded, and any that is not
the page itself fails the test. With OPENGE_EXPLORER_SCREENSHOTS=DIR, the screenshots of each
view (the docs' pictures) are written there; they are always taken and checked.
"""
import base64
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

GEC = ""
MODELS = ""
CHROMIUM = ""
# The small CNN the README compiles, and the BERT-like encoder the build exports.
CNN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "models",
                   "small_cnn.onnx")
TRANSFORMER = "bert_encoder_opset17"
TRANSFORMER_SHAPE = "input_ids:2,16"
WIDTH, HEIGHT = 1400, 900
STAGES = ["parsed", "optimized", "placed", "built"]


def gec(*args):
    proc = subprocess.run([GEC, *args], capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"gec {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol on a pipe."""

    def __init__(self, workdir):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        high_r = os.dup(to_chrome_r)
        high_w = os.dup(from_chrome_w)
        self.log = open(os.path.join(workdir, "chromium.log"), "w")

        def wire_pipes():
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--metrics-recording-only",
             f"--user-data-dir={os.path.join(workdir, 'profile')}",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self.log,
            # Not close_fds: it would run after wire_pipes and close 3 and 4. The pipes' other
            # ends are close-on-exec, so only 3 and 4 reach Chromium.
            close_fds=False, preexec_fn=wire_pipes)
        for fd in (to_chrome_r, from_chrome_w, high_r, high_w):
            os.close(fd)
        self.out = to_chrome_w
        self.inp = from_chrome_r
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})

    def close(self):
        try:
            os.close(self.out)
            os.close(self.inp)
        except OSError:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], left)
            if ready:
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise AssertionError("Chromium closed its pipe (see chromium.log)")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            message["sessionId"] = self.session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event["method"] == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def open(self, path):
        self.events.clear()
        self.call("Page.navigate", {"url": "file://" + path})
        self.wait_event("Page.loadEventFired")
        ready = self.js("document.body.dataset.ready === '1'")
        if not ready:
            errors = [e for e in self.events if e["method"] in ("Runtime.exceptionThrown",
                                                                  "Log.entryAdded")]
            raise AssertionError(f"the page did not start: {json.dumps(errors)[:2000]}")

    def js(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def type_text(self, selector, text):
        self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        self.call("Input.insertText", {"text": text})

    def press_enter(self):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter",
                                                 "windowsVirtualKeyCode": 13})

    def click(self, selector):
        """A real mouse click at the centre of the element (scrolled into view first)."""
        box = self.js(f"""(() => {{
            const e = document.querySelector({json.dumps(selector)});
            if (!e) return null;
            e.scrollIntoView({{block: 'center', inline: 'center'}});
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }})()""")
        if box is None:
            raise AssertionError(f"nothing matches {selector}")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def requests(self):
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]

    def screenshot(self, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


class Explorer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="explorer-test-")
        cls.browser = Browser(cls.dir)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def report_page(self, name, model, *extra):
        path = os.path.join(self.dir, name)
        self.assertIn("wrote " + path, gec("report", model, "-o", path, *extra))
        return path

    def run_page(self, name, model, *extra):
        path = os.path.join(self.dir, name)
        self.assertIn("wrote " + path, gec("run", model, *extra, "--html", path))
        return path

    def assert_only_local_requests(self):
        outside = [url for url in self.browser.requests()
                   if not url.startswith(("file://", "data:", "about:"))]
        self.assertEqual(outside, [], "the page asked the network for these")

    def check_page(self, path):
        b = self.browser
        b.open(path)
        # The four stages, each with a drawn graph.
        stages = b.js("[...document.querySelectorAll('#stages button')].map(e => e.textContent)")
        self.assertEqual([s.split(" ")[0] for s in stages], STAGES)
        for i, stage in enumerate(STAGES):
            b.click(f'#stages button[data-stage="{i}"]')
            drawn = b.js("document.querySelectorAll('#viewport .node').length")
            self.assertGreater(drawn, 3, stage)
            self.assertEqual(drawn, int(re.search(r"\((\d+)\)", stages[i]).group(1)), stage)
        # Weights are badges, not boxes: no Const is drawn in the parsed graph.
        b.click('#stages button[data-stage="0"]')
        self.assertEqual(b.js("[...document.querySelectorAll('#viewport .node text.type')]"
                              ".filter(t => t.textContent === 'Const').length"), 0)
        self.assertGreater(b.js("document.querySelectorAll('#viewport .node text.badge').length"),
                           0)
        # Searching a node's name selects it and shows its OpDesc.
        b.click('#stages button[data-stage="3"]')
        name = b.js("document.querySelector('#node-5 text').textContent")
        full = b.js("JSON.parse(document.getElementById('data').textContent)"
                    ".stages[3].nodes[5].n")
        self.assertTrue(full.endswith(name.lstrip("\u2026")))
        b.type_text("#search", full)
        self.assertEqual(b.js("document.getElementById('details-name').textContent"), full)
        self.assertTrue(b.js("document.getElementById('node-5').classList.contains('selected')"))
        self.assertGreater(b.js("document.querySelectorAll('#details table tr').length"), 3)
        # Clicking another node selects that one.
        b.js("document.getElementById('search').value = ''")
        b.click("#node-2 rect")
        self.assertEqual(b.js("document.getElementById('details-name').textContent"),
                         b.js("JSON.parse(document.getElementById('data').textContent)"
                              ".stages[3].nodes[2].n"))
        # The pass table.
        b.click('#tabs button[data-view="passes"]')
        passes = b.js("[...document.querySelectorAll('#pass-table tr')].slice(1)"
                      ".map(r => r.children[1].textContent)")
        self.assertGreater(len(passes), 15)
        self.assertIn("ConstantFolding", " ".join(passes))
        # A fused node's originals, linked to the earlier stage's view.
        self.assertGreater(b.js("document.querySelectorAll('#fused-table td.originals a').length"),
                           0, "no fused node listed with its originals")
        original = b.js("document.querySelector('#fused-table td.originals a').dataset.name")
        earlier = int(b.js("document.querySelector('#fused-table td.originals a').dataset.stage"))
        b.click("#fused-table td.originals a")
        self.assertFalse(b.js("document.getElementById('view-graph').hidden"))
        self.assertEqual(b.js("document.querySelector('#stages button.active').dataset.stage"),
                         str(earlier))
        self.assertEqual(b.js("document.getElementById('details-name').textContent"), original)
        # The memory picture: a block per planned tensor, the peak and the lower bound marked.
        b.click('#tabs button[data-view="memory"]')
        data_blocks = b.js("JSON.parse(document.getElementById('data').textContent)"
                           ".memory.tensors.filter(t => !t[7]).length")
        self.assertGreater(data_blocks, 5)
        self.assertEqual(b.js("document.querySelectorAll('#memory rect.tensor').length"),
                         data_blocks)
        self.assertTrue(b.js("!!document.getElementById('memory-peak')"))
        self.assertTrue(b.js("!!document.getElementById('memory-bound')"))
        # Clicking a block finds its node in the graph.
        node = b.js("document.querySelector('#memory rect.tensor').dataset.node")
        b.click("#memory rect.tensor")
        self.assertEqual(b.js("document.getElementById('details-name').textContent"), node)
        self.assert_only_local_requests()

    def test_a_cnn_report_shows_stages_passes_fusions_and_memory(self):
        path = self.report_page("cnn.html", CNN)
        self.check_page(path)

    def test_a_transformer_run_shows_its_profile_and_the_views_are_pictured(self):
        path = self.run_page("transformer.html", os.path.join(MODELS, TRANSFORMER, "model.onnx"),
                             "--input-shape", TRANSFORMER_SHAPE, "--iterations", "3",
                             "--threads", "1")
        self.check_page(path)
        b = self.browser
        b.open(path)
        self.assertFalse(b.js("document.querySelector('#tabs button[data-view=profile]').hidden"))
        b.click('#tabs button[data-view="profile"]')
        self.assertGreater(b.js("document.querySelectorAll('#profile-nodes tr').length"), 10)
        self.assertIn("MatMul", b.js("document.getElementById('profile-types').textContent"))
        self.assertGreater(b.js("[...document.querySelectorAll('#profile-types td:last-child')]"
                                ".filter(td => parseFloat(td.textContent) > 0).length"), 0,
                           "no GFLOP/s figure")
        # Nodes are coloured by their time.
        b.click('#tabs button[data-view="graph"]')
        self.assertEqual(b.js("document.getElementById('color').value"), "time")
        self.assertTrue(b.js("[...document.querySelectorAll('#viewport .node rect')]"
                             ".some(r => r.style.fill.startsWith('rgb'))"))
        # One screenshot per view.
        shots = os.environ.get("OPENGE_EXPLORER_SCREENSHOTS") or self.dir
        os.makedirs(shots, exist_ok=True)
        b.js("document.getElementById('search').value = ''")
        b.click('#stages button[data-stage="3"]')
        b.type_text("#search", b.js("JSON.parse(document.getElementById('data').textContent)"
                                    ".stages[3].nodes.find(n => n.f).n"))
        for view in ("graph", "passes", "memory", "profile"):
            b.click(f'#tabs button[data-view="{view}"]')
            data = b.screenshot(os.path.join(shots, f"explorer-{view}.png"))
            self.assertEqual(png_size(data), (WIDTH, HEIGHT))
            self.assertGreater(len(data), 20000, f"the {view} screenshot is nearly blank")
        self.assert_only_local_requests()

    def test_a_graph_too_large_to_draw_says_so_and_names_the_svg_command(self):
        path = self.report_page("large.html", CNN,
                                "--max-view-nodes", "22")
        b = self.browser
        b.open(path)
        drawn = b.js("JSON.parse(document.getElementById('data').textContent)"
                     ".stages.map(s => s.drawn)")
        self.assertGreater(drawn[1], 22)  # optimized: more than the page draws
        self.assertLessEqual(drawn[0], 22)  # parsed: drawn
        b.click('#stages button[data-stage="1"]')
        self.assertFalse(b.js("document.getElementById('graph-message').hidden"))
        message = b.js("document.getElementById('graph-message').textContent")
        self.assertIn("more than this page draws (22)", message)
        self.assertIn(f"gec dump {CNN} --stage optimized --format svg", message)
        self.assertEqual(b.js("document.querySelectorAll('#viewport .node').length"), 0)
        b.click('#stages button[data-stage="0"]')
        self.assertTrue(b.js("document.getElementById('graph-message').hidden"))
        self.assertEqual(b.js("document.querySelectorAll('#viewport .node').length"), drawn[0])
        # The pass table and the memory picture do not depend on drawing the graph.
        b.click('#tabs button[data-view="memory"]')
        self.assertGreater(b.js("document.querySelectorAll('#memory rect.tensor').length"), 5)
        self.assert_only_local_requests()

    def test_control_flow_subgraphs_have_views_of_their_own(self):
        # An If whose branches hold an Add then a Relu, and a Mul then a Relu (ONNX's helper).
        import onnx
        from onnx import TensorProto, helper

        def branch(name, op):
            out = helper.make_tensor_value_info(name + "_out", TensorProto.FLOAT, [2, 3])
            nodes = [helper.make_node(op, ["x", "x"], [name + "_t"], name=f"{name}_{op}"),
                     helper.make_node("Relu", [name + "_t"], [name + "_out"], name=name + "_relu")]
            return helper.make_graph(nodes, name, [], [out])

        choose = helper.make_node("If", ["cond"], ["y"], name="choose",
                                  then_branch=branch("then", "Add"),
                                  else_branch=branch("else", "Mul"))
        graph = helper.make_graph(
            [choose], "if_model",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
             helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
        model = os.path.join(self.dir, "if.onnx")
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), model)
        path = self.report_page("if.html", model)
        b = self.browser
        b.open(path)
        # Four stage buttons (root graphs only); the picker offers the stage's two branches.
        self.assertEqual(b.js("document.querySelectorAll('#stages button').length"), 4)
        self.assertFalse(b.js("document.getElementById('subgraph').hidden"))
        options = b.js("[...document.querySelectorAll('#subgraph option')].map(o => o.textContent)")
        self.assertEqual(len(options), 3, options)
        self.assertIn("root graph", options[0])
        self.assertTrue(all("subgraph of choose" in o for o in options[1:]), options)
        # The If lists its branches; following one draws that branch and its operators.
        b.type_text("#search", "choose")
        self.assertEqual(b.js("document.getElementById('details-name').textContent"), "choose")
        self.assertEqual(b.js("document.querySelectorAll('#details-subgraphs a').length"), 2)
        b.click("#details-subgraphs a")
        types = b.js("[...document.querySelectorAll('#viewport .node text.type')]"
                     ".map(t => t.textContent)")
        shown = int(b.js("document.getElementById('subgraph').value"))
        view = b.js(f"JSON.parse(document.getElementById('data').textContent).stages[{shown}]")
        self.assertEqual(view["parent"], "choose")
        self.assertEqual(len(types), view["drawn"])
        self.assertIn("NetOutput", types)  # the branch's own output
        self.assertNotIn("If", types)
        # The built branch computes its operators (here fused into one kernel).
        self.assertTrue({"Add", "Mul", "Relu", "FusedElementwise"} & set(types), types)
        # Back to the root graph through the picker.
        b.js("const p = document.getElementById('subgraph'); p.selectedIndex = 0;"
             "p.dispatchEvent(new Event('change'))")
        self.assertIn("If", b.js("[...document.querySelectorAll('#viewport .node text.type')]"
                                 ".map(t => t.textContent)"))
        self.assert_only_local_requests()

    def test_the_page_is_self_contained(self):
        path = self.report_page("cnn2.html", CNN)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertIsNone(re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text))
        self.assertIn("default-src 'none'", text)


def main():
    global GEC, MODELS, CHROMIUM
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    GEC, MODELS, CHROMIUM = sys.argv[1:4]
    unittest.main(argv=[sys.argv[0], *sys.argv[4:]], verbosity=2)


if __name__ == "__main__":
    main()
