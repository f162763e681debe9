#!/usr/bin/python3
"""Exports the ONNX test models of the parser tests, laid out as ONNX backend test cases.

For each of resnet18, mobilenet_v2 and a 2-layer BERT-like encoder (token ids in, dynamic batch and
sequence length), at opsets 13 and 17:
    OUT/<model>_opset<N>/model.onnx
    OUT/<model>_opset<N>/test_data_set_0/input_0.pb    (a TensorProto)
    OUT/<model>_opset<N>/test_data_set_0/output_0.pb   (torch's output for it)
Weights are random with fixed seeds. Batch-norm running statistics are calibrated on random data
and then perturbed, and normalization weights/biases are randomized, so that outputs are O(1) and
differ per channel (with default initialization, deep nets give all-zero or ~1e12 outputs, and a
wrong engine could still "match"). Each encoder layer draws its own weights.

Run with Debian's Python (python3-torch, python3-torchvision, python3-onnx):
    /usr/bin/python3 tests/models/export_models.py --out build/models
Writes OUT/export_status.txt: "ok", or the error.
"""
import argparse
import math
import os
import sys
import traceback

OPSETS = (13, 17)


def seeded(seed):
    import torch
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


def randomize_norms(model, gen, calibrate_input=None):
    """Calibrates batch-norm statistics on random data, then perturbs all normalization params."""
    import torch
    norms = [m for m in model.modules()
             if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.LayerNorm))]
    with torch.no_grad():
        if calibrate_input is not None:
            for m in norms:
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.reset_running_stats()
                    m.momentum = None  # cumulative average over the calibration batches
            model.train()
            for _ in range(2):
                model(calibrate_input())
            model.eval()
        for m in norms:
            shape = m.weight.shape
            m.weight.copy_(torch.rand(shape, generator=gen) + 0.5)
            m.bias.copy_(torch.randn(shape, generator=gen) * 0.1)
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.mul_(torch.rand(shape, generator=gen) * 0.4 + 0.8)
                m.running_mean.add_(torch.randn(shape, generator=gen) * 0.05)
                m.running_var.mul_(torch.rand(shape, generator=gen) * 0.4 + 0.8)



def make_encoder(vocab=1000, hidden=64, heads=4, layers=2, ffn=128, max_len=128):
    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.proj = nn.Linear(hidden, hidden)
            self.ln1 = nn.LayerNorm(hidden)
            self.fc1 = nn.Linear(hidden, ffn)
            self.fc2 = nn.Linear(ffn, hidden)
            self.ln2 = nn.LayerNorm(hidden)

        def forward(self, x):
            b, s, h = x.shape
            q, k, v = self.qkv(x).split(h, dim=-1)
            d = h // self.heads
            q = q.reshape(b, s, self.heads, d).transpose(1, 2)
            k = k.reshape(b, s, self.heads, d).transpose(1, 2)
            v = v.reshape(b, s, self.heads, d).transpose(1, 2)
            att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
            y = (att @ v).transpose(1, 2).reshape(b, s, h)
            x = self.ln1(x + self.proj(y))
            return self.ln2(x + self.fc2(torch.nn.functional.gelu(self.fc1(x))))

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(max_len, hidden)
            self.ln = nn.LayerNorm(hidden)
            self.layers = nn.ModuleList([Layer() for _ in range(layers)])  # independent draws

        def forward(self, ids):
            pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
            x = self.ln(self.tok(ids) + self.pos(pos))
            for layer in self.layers:
                x = layer(x)
            return x

    return Encoder()


def build(name, gen):
    import torch
    import torchvision
    if name == "resnet18":
        model = torchvision.models.resnet18(weights=None)
        make = lambda: torch.randn(2, 3, 224, 224, generator=gen)
        randomize_norms(model, gen, calibrate_input=make)
        return model, torch.randn(1, 3, 224, 224, generator=gen), None
    if name == "mobilenet_v2":
        model = torchvision.models.mobilenet_v2(weights=None)
        make = lambda: torch.randn(2, 3, 224, 224, generator=gen)
        randomize_norms(model, gen, calibrate_input=make)
        return model, torch.randn(1, 3, 224, 224, generator=gen), None
    if name == "bert_encoder":
        model = make_encoder()
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, torch.nn.Linear):
                    m.weight.copy_(torch.randn(m.weight.shape, generator=gen) / math.sqrt(m.in_features))
                    m.bias.copy_(torch.randn(m.bias.shape, generator=gen) * 0.1)
                if isinstance(m, torch.nn.Embedding):
                    m.weight.copy_(torch.randn(m.weight.shape, generator=gen))
        randomize_norms(model, gen)
        ids = torch.randint(0, 1000, (2, 16), generator=gen, dtype=torch.int64)
        dynamic = {"input_ids": {0: "batch", 1: "sequence"}, "output": {0: "batch", 1: "sequence"}}
        return model, ids, dynamic
    raise ValueError(name)


def check_output(name, out):
    import numpy as np
    if not np.all(np.isfinite(out)):
        raise RuntimeError(f"{name}: non-finite outputs")
    spread, peak = float(np.std(out)), float(np.max(np.abs(out)))
    if spread < 1e-3 or peak > 1e4:
        raise RuntimeError(f"{name}: degenerate outputs (std {spread:g}, max |x| {peak:g})")
    return spread, peak


def export_one(name, opset, out_dir):
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper
    gen = seeded(1234 + sum(map(ord, name)))
    model, example, dynamic = build(name, gen)
    model.eval()
    with torch.no_grad():
        expected = model(example).numpy()
    spread, peak = check_output(name, expected)
    case = os.path.join(out_dir, f"{name}_opset{opset}")
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(case, "model.onnx")
    input_name = "input_ids" if dynamic else "input"
    torch.onnx.export(model, (example,), path, opset_version=opset, input_names=[input_name],
                      output_names=["output"], dynamic_axes=dynamic, do_constant_folding=True)
    onnx.checker.check_model(path)
    tensor_in = numpy_helper.from_array(example.numpy(), input_name)
    tensor_out = numpy_helper.from_array(np.ascontiguousarray(expected), "output")
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(tensor_in.SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(tensor_out.SerializeToString())
    print(f"exported {name} opset {opset}: output {expected.shape} std {spread:.3g} "
          f"max|x| {peak:.3g}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--models", default="resnet18,mobilenet_v2,bert_encoder")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = os.path.join(args.out, "export_status.txt")
    if os.path.exists(status):
        os.remove(status)
    try:
        import torch
        torch.set_num_threads(2)
        for name in args.models.split(","):
            for opset in OPSETS:
                export_one(name, opset, args.out)
    except Exception as e:  # reported to the tests through the status file
        traceback.print_exc()
        with open(status, "w") as f:
            f.write(f"export failed: {type(e).__name__}: {e}\n")
        return 1
    with open(status, "w") as f:
        f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
