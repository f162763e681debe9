#!/usr/bin/python3
"""Writes models/small_cnn.onnx: the small real model the main job (scripts/demo.sh) compiles
and runs, so that nothing needs downloading. A MobileNet-style slice with fixed random weights:
a strided stem convolution, two inverted-residual blocks (pointwise expand, depthwise 3x3,
pointwise project, residual add), global average pooling and a classifier. Run with Debian's
/usr/bin/python3 (python3-torch, python3-onnx); the output is deterministic for a torch version.
"""
import argparse
import os

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, channels, expand):
        super().__init__()
        hidden = channels * expand
        self.body = nn.Sequential(
            nn.Conv2d(channels, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, hidden, 3, padding=1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, channels, 1, bias=False), nn.BatchNorm2d(channels))

    def forward(self, x):
        return x + self.body(x)


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU6())
        self.blocks = nn.Sequential(Block(16, 4), Block(16, 4))
        self.head = nn.Sequential(nn.Conv2d(16, 64, 1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "small_cnn.onnx"))
    args = parser.parse_args()
    torch.manual_seed(7)
    model = SmallCnn()
    for module in model.modules():  # non-trivial batch-norm statistics
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 1.5)
    model.eval()
    x = torch.randn(1, 3, 64, 64)
    torch.onnx.export(model, x, args.out, input_names=["image"], output_names=["logits"],
                      opset_version=17)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
