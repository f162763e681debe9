#!/usr/bin/python3
"""Exports the ONNX test models of the parser tests, laid out as ONNX backend test cases.

For each of resnet18, mobilenet_v2 and a 2-layer BERT-like encoder (token ids in, dynamic batch and
sequence length), at opsets 13 and 17, and, at opset 17 only, the benchmark corpus's other
families at sizes that fit the tests' time: EfficientNet-B0 at 96x96 (squeeze-and-excite, SiLU),
DenseNet-121, SqueezeNet and ShuffleNet at 64x64 (concats and a channel split), a 2-layer ViT at
32x32 and a 2-layer GPT-2-like causal decoder over 16 tokens, that decoder once more with dynamic
batch and sequence length (gpt2_tiny_dynamic, for the shape plan cache):
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
# The corpus families, exported at opset 17 only (bench/models/export_corpus.py has them at
# their real sizes).
SMALL_CORPUS = ("efficientnet_b0", "densenet121", "squeezenet", "shufflenet_v2", "vit_tiny",
                "gpt2_tiny", "gpt2_tiny_dynamic")


def seeded(seed):
    import torch
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


def randomize_norms(model, gen, calibrate_input=None, spread=1.0):
    """Calibrates batch-norm statistics on random data, then perturbs all normalization params
    (`spread` scales the perturbations: deep networks with many of them amplify rounding)."""
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
            m.weight.copy_(1.0 + (torch.rand(shape, generator=gen) - 0.5) * spread)
            m.bias.copy_(torch.randn(shape, generator=gen) * 0.1 * spread)
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.mul_(1.0 + (torch.rand(shape, generator=gen) - 0.5) * 0.4 * spread)
                m.running_mean.add_(torch.randn(shape, generator=gen) * 0.05 * spread)
                m.running_var.mul_(1.0 + (torch.rand(shape, generator=gen) - 0.5) * 0.4 * spread)



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


def make_tiny_gpt2(vocab=1000, hidden=64, heads=4, layers=2, ctx=64):
    """GPT-2's block structure (pre-norm, fused qkv, causal masked_fill, tanh GELU, LM head)."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
            self.qkv, self.proj = nn.Linear(hidden, 3 * hidden), nn.Linear(hidden, hidden)
            self.fc, self.out = nn.Linear(hidden, 4 * hidden), nn.Linear(4 * hidden, hidden)
            self.register_buffer("causal", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

        def forward(self, x):
            b, s, h = x.shape
            d = h // heads
            q, k, v = self.qkv(self.ln1(x)).split(h, dim=-1)
            split = lambda t: t.reshape(b, s, heads, d).transpose(1, 2)
            q, k, v = split(q), split(k), split(v)
            att = (q @ k.transpose(-1, -2) / math.sqrt(d)).masked_fill(
                self.causal[:, :, :s, :s] == 0, float("-inf"))
            y = (torch.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(b, s, h)
            x = x + self.proj(y)
            u = self.fc(self.ln2(x))
            u = 0.5 * u * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u.pow(3))))
            return x + self.out(u)

    class Gpt2(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, hidden), nn.Embedding(ctx, hidden)
            self.blocks = nn.ModuleList([Block() for _ in range(layers)])
            self.ln, self.head = nn.LayerNorm(hidden), nn.Linear(hidden, vocab, bias=False)

        def forward(self, ids):
            pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
            x = self.tok(ids) + self.pos(pos)
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln(x))

    return Gpt2()


def init_linear_and_embeddings(model, gen, bias_scale=0.1):
    import torch
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.Linear):
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen) / math.sqrt(m.in_features))
                if m.bias is not None:
                    m.bias.copy_(torch.randn(m.bias.shape, generator=gen) * bias_scale)
            if isinstance(m, torch.nn.Embedding):
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen))


def build(name, gen):
    import torch
    import torchvision
    small_vision = {"efficientnet_b0": 96, "densenet121": 64, "squeezenet": 64, "shufflenet_v2": 64}
    if name in small_vision:
        side = small_vision[name]
        factory = {"efficientnet_b0": torchvision.models.efficientnet_b0,
                   "densenet121": torchvision.models.densenet121,
                   "squeezenet": torchvision.models.squeezenet1_1,
                   "shufflenet_v2": torchvision.models.shufflenet_v2_x1_0}[name]
        model = factory(weights=None)
        # EfficientNet's 49 SiLUs and 16 excitations amplify every perturbation: milder ones keep
        # its outputs O(1) instead of O(1e3).
        randomize_norms(model, gen, calibrate_input=lambda: torch.randn(2, 3, side, side, generator=gen),
                        spread=0.2 if name == "efficientnet_b0" else 1.0)
        return model, torch.randn(1, 3, side, side, generator=gen), None
    if name == "vit_tiny":
        model = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                                     num_heads=4, hidden_dim=64, mlp_dim=128,
                                                     num_classes=10)
        init_linear_and_embeddings(model, gen, bias_scale=0.02)
        randomize_norms(model, gen)
        return model, torch.randn(1, 3, 32, 32, generator=gen), None
    if name in ("gpt2_tiny", "gpt2_tiny_dynamic"):
        model = make_tiny_gpt2()
        init_linear_and_embeddings(model, gen, bias_scale=0.02)
        randomize_norms(model, gen)
        ids = torch.randint(0, 1000, (1, 16), generator=gen, dtype=torch.int64)
        dynamic = None
        if name == "gpt2_tiny_dynamic":
            dynamic = {"input_ids": {0: "batch", 1: "sequence"},
                       "output": {0: "batch", 1: "sequence"}}
        return model, ids, dynamic
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
    input_name = "input_ids" if example.dtype == torch.int64 else "input"
    case = os.path.join(out_dir, f"{name}_opset{opset}")
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(case, "model.onnx")
    # With gradients enabled: without them, torch's MultiheadAttention (ViT) takes a fused fast
    # path that has no ONNX export.
    torch.onnx.export(model, (example,), path, opset_version=opset, input_names=[input_name],
                      output_names=["output"], dynamic_axes=dynamic, do_constant_folding=True)
    onnx.checker.check_model(path)
    # The expected output in float64 (as float32): the exact result, so that a test measures our
    # rounding alone; float32 torch differs from it by its own (4e-4 of the largest output on
    # EfficientNet-B0, whose random weights amplify every rounding).
    with torch.no_grad():
        wide = example.double() if example.is_floating_point() else example
        expected = model.double()(wide).float().numpy()
    spread, peak = check_output(name, expected)
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
    parser.add_argument("--models", default=",".join(("resnet18", "mobilenet_v2", "bert_encoder") +
                                                     SMALL_CORPUS))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = os.path.join(args.out, "export_status.txt")
    if os.path.exists(status):
        os.remove(status)
    try:
        import torch
        torch.set_num_threads(2)
        for name in args.models.split(","):
            for opset in (17,) if name in SMALL_CORPUS else OPSETS:
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
