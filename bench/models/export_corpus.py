#!/usr/bin/python3
"""Exports the benchmark corpus: real model architectures at the sizes people deploy.

Convolution networks come from torchvision (its architectures; weights are random, seeded), the
transformers are written here at their published sizes:
    resnet18, resnet50              residual CNNs
    mobilenet_v2, mobilenet_v3_large, efficientnet_b0, regnet_y_800mf
                                    mobile networks (depthwise convolutions, squeeze-and-excite)
    densenet121, googlenet          dense / inception concatenations
    shufflenet_v2                   channel shuffles (Reshape/Transpose between convolutions)
    squeezenet                      fire modules (Concat of two branches)
    convnext_tiny                   7x7 depthwise convolutions, LayerNorm over channels, GELU
    vgg16                           528 MiB of weights
    vit_b_16                        ViT-B/16 at 224x224 (197 tokens, 12 layers x 12 heads x 64)
    swin_t                          Swin-T (windowed attention, about 6,500 nodes)
    bert_base                       BERT-base encoder at sequence 128 (12 x 768, 12 heads, FFN
                                    3072), token ids and an attention mask in
    gpt2                            a GPT-2-small-like causal decoder at sequence 128 (12 x 768,
                                    12 heads, MLP 3072, tanh GELU) with its 50257-word LM head
    bert_base_dynamic, gpt2_dynamic the same two (the same weights) exported with dynamic batch and
                                    sequence axes, for the shape plan cache (bench/models/shape_plans.py)
All at batch 1, opset 17. For each model:
    OUT/<name>/model.onnx
    OUT/<name>/inputs.json          [{"name", "dtype" ("<f4"/"<i8"), "shape"}]
Normalization parameters are randomized (as tests/models/export_models.py does) so that outputs
are O(1) and differ between runtimes if either computes wrongly.

    /usr/bin/python3 bench/models/export_corpus.py --out build/corpus [--models a,b,...]
Models already exported (model.onnx newer than this script) are kept unless --force.
"""
import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "models"))

OPSET = 17
IMAGE = ("input", "<f4", [1, 3, 224, 224])
SEQ = 128


def vision(factory):
    def make(gen):
        import torch
        from export_models import randomize_norms
        model = factory()
        randomize_norms(model, gen, calibrate_input=lambda: torch.randn(2, 3, 224, 224, generator=gen))
        with torch.no_grad():  # ViT's head starts at zero: its logits would all be 0
            for m in model.modules():
                if isinstance(m, torch.nn.Linear) and not m.weight.any():
                    m.weight.copy_(torch.randn(m.weight.shape, generator=gen) / math.sqrt(m.in_features))
                    if m.bias is not None:
                        m.bias.copy_(torch.randn(m.bias.shape, generator=gen) * 0.02)
        return model, [IMAGE]
    return make


def torchvision_model(name, **kwargs):
    def factory():
        import torchvision
        return getattr(torchvision.models, name)(weights=None, **kwargs)
    return factory


def init_transformer(model, gen):
    """Linear weights scaled to keep activations O(1) through 12 layers; embeddings N(0, 1)."""
    import torch
    from export_models import randomize_norms
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.Linear):
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen) / math.sqrt(m.in_features))
                if m.bias is not None:
                    m.bias.copy_(torch.randn(m.bias.shape, generator=gen) * 0.02)
            if isinstance(m, torch.nn.Embedding):
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen) * 0.5)
    randomize_norms(model, gen)


def make_bert(gen, vocab=30522, hidden=768, heads=12, layers=12, ffn=3072, max_len=512):
    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.q, self.k, self.v = (nn.Linear(hidden, hidden) for _ in range(3))
            self.out = nn.Linear(hidden, hidden)
            self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
            self.fc1 = nn.Linear(hidden, ffn)
            self.fc2 = nn.Linear(ffn, hidden)
            self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x, bias):
            b, s, h = x.shape
            d = h // heads
            split = lambda t: t.reshape(b, s, heads, d).transpose(1, 2)
            q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
            scores = q @ k.transpose(-1, -2) / math.sqrt(d) + bias
            y = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, s, h)
            x = self.ln1(x + self.out(y))
            return self.ln2(x + self.fc2(torch.nn.functional.gelu(self.fc1(x))))

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(max_len, hidden)
            self.typ = nn.Embedding(2, hidden)
            self.ln = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList([Layer() for _ in range(layers)])

        def forward(self, ids, mask):
            pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
            x = self.ln(self.tok(ids) + self.pos(pos) + self.typ(torch.zeros_like(ids)))
            bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -10000.0
            for layer in self.layers:
                x = layer(x, bias)
            return x

    model = Bert()
    init_transformer(model, gen)
    return model, [("input_ids", "<i8", [1, SEQ]), ("attention_mask", "<i8", [1, SEQ])]


def make_gpt2(gen, vocab=50257, hidden=768, heads=12, layers=12, ctx=1024):
    import torch
    from torch import nn

    def gelu_tanh(x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1 = nn.LayerNorm(hidden)
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.proj = nn.Linear(hidden, hidden)
            self.ln2 = nn.LayerNorm(hidden)
            self.fc = nn.Linear(hidden, 4 * hidden)
            self.out = nn.Linear(4 * hidden, hidden)
            self.register_buffer("causal", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

        def forward(self, x):
            b, s, h = x.shape
            d = h // heads
            q, k, v = self.qkv(self.ln1(x)).split(h, dim=-1)
            split = lambda t: t.reshape(b, s, heads, d).transpose(1, 2)
            q, k, v = split(q), split(k), split(v)
            att = q @ k.transpose(-1, -2) / math.sqrt(d)
            att = att.masked_fill(self.causal[:, :, :s, :s] == 0, float("-inf"))
            y = (torch.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(b, s, h)
            x = x + self.proj(y)
            return x + self.out(gelu_tanh(self.fc(self.ln2(x))))

    class Gpt2(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(ctx, hidden)
            self.blocks = nn.ModuleList([Block() for _ in range(layers)])
            self.ln = nn.LayerNorm(hidden)
            self.head = nn.Linear(hidden, vocab, bias=False)

        def forward(self, ids):
            pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
            x = self.tok(ids) + self.pos(pos)
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln(x))

    model = Gpt2()
    init_transformer(model, gen)
    return model, [("input_ids", "<i8", [1, SEQ])]


MODELS = {
    "resnet18": vision(torchvision_model("resnet18")),
    "resnet50": vision(torchvision_model("resnet50")),
    "mobilenet_v2": vision(torchvision_model("mobilenet_v2")),
    "mobilenet_v3_large": vision(torchvision_model("mobilenet_v3_large")),
    "efficientnet_b0": vision(torchvision_model("efficientnet_b0")),
    "regnet_y_800mf": vision(torchvision_model("regnet_y_800mf")),
    "densenet121": vision(torchvision_model("densenet121")),
    "googlenet": vision(torchvision_model("googlenet", aux_logits=False, init_weights=True)),
    "shufflenet_v2": vision(torchvision_model("shufflenet_v2_x1_0")),
    "squeezenet": vision(torchvision_model("squeezenet1_1")),
    "convnext_tiny": vision(torchvision_model("convnext_tiny")),
    "vgg16": vision(torchvision_model("vgg16")),
    "vit_b_16": vision(torchvision_model("vit_b_16")),
    "swin_t": vision(torchvision_model("swin_t")),
    "bert_base": make_bert,
    "gpt2": make_gpt2,
}
# name -> the model it exports with every input's dims 0 and 1 (and the output's) named
DYNAMIC = {"bert_base_dynamic": "bert_base", "gpt2_dynamic": "gpt2"}
MODELS.update({name: MODELS[base] for name, base in DYNAMIC.items()})


def example_inputs(specs, gen):
    import torch
    tensors = []
    for name, dtype, shape in specs:
        if dtype == "<f4":
            tensors.append(torch.rand(shape, generator=gen) * 2 - 1)
        elif name == "attention_mask":
            tensors.append(torch.ones(shape, dtype=torch.int64))
        else:
            tensors.append(torch.randint(0, 10, shape, generator=gen, dtype=torch.int64))
    return tensors


def export(name, out_dir):
    import onnx
    import torch
    seed = 4321 + sum(map(ord, DYNAMIC.get(name, name)))
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model, specs = MODELS[name](gen)
    model.eval()
    inputs = example_inputs(specs, gen)
    case = os.path.join(out_dir, name)
    os.makedirs(case, exist_ok=True)
    path = os.path.join(case, "model.onnx")
    axes = None
    if name in DYNAMIC:
        axes = {n: {0: "batch", 1: "sequence"} for n in [s[0] for s in specs] + ["output"]}
    start = time.time()
    # With gradients enabled: in eval mode without them, torch's MultiheadAttention (ViT, Swin)
    # takes a fused fast path that has no ONNX export.
    torch.onnx.export(model, tuple(inputs), path, opset_version=OPSET,
                      input_names=[s[0] for s in specs], output_names=["output"],
                      do_constant_folding=True, dynamic_axes=axes)
    onnx.checker.check_model(path)
    with open(os.path.join(case, "inputs.json"), "w") as f:
        json.dump([{"name": n, "dtype": d, "shape": s} for n, d, s in specs], f)
    size = os.path.getsize(path) / 2**20
    print(f"exported {name}: {size:.1f} MiB in {time.time() - start:.1f} s", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    import torch
    torch.set_num_threads(2)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        print(f"export_corpus.py: unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}",
              file=sys.stderr)
        return 2
    script_time = os.path.getmtime(os.path.abspath(__file__))
    for name in names:
        path = os.path.join(args.out, name, "model.onnx")
        if not args.force and os.path.exists(path) and os.path.getmtime(path) > script_time:
            print(f"kept {name} (already exported)")
            continue
        export(name, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
