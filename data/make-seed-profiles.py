#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Regenerates the profiles of the seed papers' models (and two current ones) in data/.

Usage: python3 data/make-seed-profiles.py   (Debian's python3; writes data/*-profile.csv)

Each profile is derived from its architecture's definition, layer by layer:
  param_bytes  the layer's trainable weights x 4 bytes (fp32 gradients); batch-norm
               running statistics are not gradients and are left out
  forward_ns   the layer's floating-point operations for one worker's batch at the
               assumed device throughput DEVICE_FLOPS (a multiply-add counts as 2)
  backward_ns  twice forward_ns (gradients with respect to inputs and to weights)
Layers without weights (pooling, activations, softmax) get no row; their work is small
beside the convolutions' and matrix products'. The device and the batches are
assumptions, stated in each file's header; ddnn rescales a profile's compute times to
--computeMs or --rcp, so only their shape across layers matters there.
The published parameter count of each model is in its header and is checked by
test/c/test-profile.c (within 1 %).
"""
import os

DEVICE_FLOPS = 10e12  # sustained fp32 FLOP/s of one worker's accelerator (V100-class)
HERE = os.path.dirname(os.path.abspath(__file__))


class Model:
    def __init__(self, batch_text):
        self.rows = []  # (name, weights, forward FLOPs per batch)
        self.batch_text = batch_text

    def add(self, name, weights, flops):
        self.rows.append((name, weights, flops))

    def weights(self):
        return sum(r[1] for r in self.rows)


def conv_out(size, kernel, stride, same):
    """Output side of a convolution or pooling window (TensorFlow's 'same' or 'valid')."""
    return (size + stride - 1) // stride if same else (size - kernel) // stride + 1


class Cnn(Model):
    """Convolutions over a square input, one sample's FLOPs times the batch."""

    def __init__(self, batch, batch_text):
        super().__init__(batch_text)
        self.batch = batch

    def conv(self, name, cin, cout, kh, kw, side_out, bias=0, groups=1):
        weights = kh * kw * (cin // groups) * cout + bias
        flops = 2 * kh * kw * (cin // groups) * cout * side_out * side_out * self.batch
        self.add(name, weights, flops)

    def dense(self, name, cin, cout):
        self.add(name, cin * cout + cout, 2 * cin * cout * self.batch)


def inception_v3():
    # Szegedy et al. 2016, as in Keras's InceptionV3 (TensorFlow's reference layout):
    # each convolution without bias, followed by a batch-norm with a shift and no scale
    # (one trainable weight per channel); 299 x 299 x 3 input; no auxiliary classifier.
    m = Cnn(32, "32 images of 299 x 299")

    def bn_conv(name, cin, cout, kh, kw, side_out):
        m.conv(name, cin, cout, kh, kw, side_out, bias=cout)

    s = conv_out(299, 3, 2, False)  # 149
    bn_conv("stem.conv1", 3, 32, 3, 3, s)
    s = conv_out(s, 3, 1, False)  # 147
    bn_conv("stem.conv2", 32, 32, 3, 3, s)
    bn_conv("stem.conv3", 32, 64, 3, 3, s)
    s = conv_out(s, 3, 2, False)  # 73, max pool
    bn_conv("stem.conv4", 64, 80, 1, 1, s)
    s = conv_out(s, 3, 1, False)  # 71
    bn_conv("stem.conv5", 80, 192, 3, 3, s)
    s = conv_out(s, 3, 2, False)  # 35, max pool

    def mixed_35(i, cin, pool):
        n = "mixed%d." % i
        bn_conv(n + "1x1", cin, 64, 1, 1, s)
        bn_conv(n + "5x5.reduce", cin, 48, 1, 1, s)
        bn_conv(n + "5x5", 48, 64, 5, 5, s)
        bn_conv(n + "3x3dbl.reduce", cin, 64, 1, 1, s)
        bn_conv(n + "3x3dbl.a", 64, 96, 3, 3, s)
        bn_conv(n + "3x3dbl.b", 96, 96, 3, 3, s)
        bn_conv(n + "pool", cin, pool, 1, 1, s)
        return 64 + 64 + 96 + pool

    c = mixed_35(0, 192, 32)
    c = mixed_35(1, c, 64)
    c = mixed_35(2, c, 64)
    half = conv_out(s, 3, 2, False)  # 17
    bn_conv("mixed3.3x3", c, 384, 3, 3, half)
    bn_conv("mixed3.3x3dbl.reduce", c, 64, 1, 1, s)
    bn_conv("mixed3.3x3dbl.a", 64, 96, 3, 3, s)
    bn_conv("mixed3.3x3dbl.b", 96, 96, 3, 3, half)
    c, s = 384 + 96 + c, half  # 768 at 17 x 17

    for i, w in ((4, 128), (5, 160), (6, 160), (7, 192)):
        n = "mixed%d." % i
        bn_conv(n + "1x1", c, 192, 1, 1, s)
        bn_conv(n + "7x7.reduce", c, w, 1, 1, s)
        bn_conv(n + "7x7.a", w, w, 1, 7, s)
        bn_conv(n + "7x7.b", w, 192, 7, 1, s)
        bn_conv(n + "7x7dbl.reduce", c, w, 1, 1, s)
        bn_conv(n + "7x7dbl.a", w, w, 7, 1, s)
        bn_conv(n + "7x7dbl.b", w, w, 1, 7, s)
        bn_conv(n + "7x7dbl.c", w, w, 7, 1, s)
        bn_conv(n + "7x7dbl.d", w, 192, 1, 7, s)
        bn_conv(n + "pool", c, 192, 1, 1, s)

    half = conv_out(s, 3, 2, False)  # 8
    bn_conv("mixed8.3x3.reduce", c, 192, 1, 1, s)
    bn_conv("mixed8.3x3", 192, 320, 3, 3, half)
    bn_conv("mixed8.7x7x3.reduce", c, 192, 1, 1, s)
    bn_conv("mixed8.7x7x3.a", 192, 192, 1, 7, s)
    bn_conv("mixed8.7x7x3.b", 192, 192, 7, 1, s)
    bn_conv("mixed8.7x7x3.c", 192, 192, 3, 3, half)
    c, s = 320 + 192 + c, half  # 1280 at 8 x 8

    for i in (9, 10):
        n = "mixed%d." % i
        bn_conv(n + "1x1", c, 320, 1, 1, s)
        bn_conv(n + "3x3.reduce", c, 384, 1, 1, s)
        bn_conv(n + "3x3.a", 384, 384, 1, 3, s)
        bn_conv(n + "3x3.b", 384, 384, 3, 1, s)
        bn_conv(n + "3x3dbl.reduce", c, 448, 1, 1, s)
        bn_conv(n + "3x3dbl.conv", 448, 384, 3, 3, s)
        bn_conv(n + "3x3dbl.a", 384, 384, 1, 3, s)
        bn_conv(n + "3x3dbl.b", 384, 384, 3, 1, s)
        bn_conv(n + "pool", c, 192, 1, 1, s)
        c = 320 + 768 + 768 + 192  # 2048
    m.dense("fc", c, 1000)
    return m


def vgg16():
    # Simonyan and Zisserman 2015, configuration D: 3 x 3 convolutions with bias, same
    # padding, 2 x 2 max pooling after each block; 224 x 224 x 3 input; three dense layers.
    m = Cnn(32, "32 images of 224 x 224")
    cin, s = 3, 224
    for block, (width, convs) in enumerate(((64, 2), (128, 2), (256, 3), (512, 3), (512, 3)), 1):
        for k in range(1, convs + 1):
            m.conv("conv%d_%d" % (block, k), cin, width, 3, 3, s, bias=width)
            cin = width
        s //= 2
    m.dense("fc6", cin * s * s, 4096)
    m.dense("fc7", 4096, 4096)
    m.dense("fc8", 4096, 1000)
    return m


def mobilenet_v1():
    # Howard et al. 2017, width 1.0 at 224 x 224, as in Keras's MobileNet: convolutions
    # without bias, each followed by a batch-norm with scale and shift (two trainable weights
    # per channel); the classifier is a 1 x 1 convolution with bias.
    m = Cnn(32, "32 images of 224 x 224")
    s = conv_out(224, 3, 2, True)  # 112
    m.conv("conv1", 3, 32, 3, 3, s, bias=2 * 32)
    cin = 32
    blocks = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
              (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1))
    for i, (cout, stride) in enumerate(blocks, 1):
        s = conv_out(s, 3, stride, True)
        m.conv("block%d.depthwise" % i, cin, cin, 3, 3, s, bias=2 * cin, groups=cin)
        m.conv("block%d.pointwise" % i, cin, cout, 1, 1, s, bias=2 * cout)
        cin = cout
    m.conv("classifier", cin, 1000, 1, 1, 1, bias=1000)
    return m


def mnist_mlp():
    # The seed paper names no layer sizes: the classic MNIST multilayer perceptron of Keras's
    # examples (mnist_mlp.py), 784 -> 512 -> 512 -> 10, dense layers with bias.
    m = Cnn(32, "32 images of 28 x 28")
    m.dense("dense1", 784, 512)
    m.dense("dense2", 512, 512)
    m.dense("dense3", 512, 10)
    return m


def transformer(m, layers, width, seq, tokens):
    """Encoder or decoder blocks: attention (QKV, scores, output) and the 4x feed-forward,
    each with its layer norm; FLOPs per token times the batch's tokens."""
    for i in range(layers):
        attention = 3 * (width * width + width) + width * width + width + 2 * width
        attention_flops = (2 * width * 3 * width + 2 * 2 * seq * width + 2 * width * width) * tokens
        m.add("layer%d.attention" % i, attention, attention_flops)
        ffn = width * 4 * width + 4 * width + 4 * width * width + width + 2 * width
        m.add("layer%d.feed-forward" % i, ffn, 2 * 2 * width * 4 * width * tokens)


def bert_base():
    # Devlin et al. 2019, BERT-base (uncased vocabulary of 30522): embeddings of words,
    # 512 positions and 2 segments with their layer norm, 12 encoder layers of width 768,
    # and the pooler; pre-training heads are left out (their decoder is tied to the
    # word embeddings).
    seq, sequences = 128, 32
    m = Model("%d sequences of %d tokens" % (sequences, seq))
    width, tokens = 768, seq * sequences
    m.add("embeddings", (30522 + 512 + 2) * width + 2 * width, 0)
    transformer(m, 12, width, seq, tokens)
    m.add("pooler", width * width + width, 2 * width * width * sequences)
    return m


def gpt2_small():
    # Radford et al. 2019, the 124M GPT-2: token embeddings (50257) tied to the output
    # projection, 1024 positions, 12 decoder blocks of width 768, a final layer norm. The
    # tied embedding's gradient is complete only once the embedding layer's backward has
    # run, so its bytes sit on layer 0; the output projection's FLOPs on the last row.
    seq, sequences = 1024, 8
    m = Model("%d sequences of %d tokens" % (sequences, seq))
    width, tokens = 768, seq * sequences
    m.add("embeddings", 50257 * width + 1024 * width, 0)
    transformer(m, 12, width, seq, tokens)
    m.add("final-norm+output", 2 * width, 2 * width * 50257 * tokens)
    return m


MODELS = (
    ("inception-v3", inception_v3, "Inception-v3 (Szegedy et al., CVPR 2016)", 23817352,
     "Keras InceptionV3: 23,851,784 weights of which 23,817,352 trainable"),
    ("vgg16", vgg16, "VGG-16 (Simonyan and Zisserman, ICLR 2015)", 138357544,
     "138,357,544 weights (the paper's 138 M)"),
    ("mobilenet-v1", mobilenet_v1, "MobileNet v1, width 1.0, 224 (Howard et al. 2017)", 4231976,
     "Keras MobileNet: 4,253,864 weights of which 4,231,976 trainable (the paper's 4.2 M)"),
    ("mnist-mlp", mnist_mlp, "MNIST multilayer perceptron 784-512-512-10", 669706,
     "Keras's mnist_mlp example: 669,706 weights"),
    ("bert-base", bert_base, "BERT-base (Devlin et al., NAACL 2019)", 109482240,
     "109,482,240 weights in the reference implementation's BertModel (the paper's 110 M)"),
    ("gpt2-small", gpt2_small, "GPT-2 small (Radford et al. 2019)", 124439808,
     "124,439,808 weights in the reference implementation (the 124 M model)"),
)


def write(file_name, title, model, published, source):
    total = model.weights()
    fwd = [round(f / DEVICE_FLOPS * 1e9) for _, _, f in model.rows]
    path = os.path.join(HERE, file_name + "-profile.csv")
    with open(path, "w") as out:
        out.write("# ddnn DNN profile: %s.\n" % title)
        out.write("# %d layers with weights: %d weights = %d bytes of fp32 gradients.\n"
                  % (len(model.rows), total, 4 * total))
        out.write("# Published: %s.\n" % source)
        out.write("# Compute times assume a device sustaining %.0f TFLOP/s (fp32) and a batch\n"
                  "# of %s per worker: forward %.3f ms, backward %.3f ms per iteration.\n"
                  % (DEVICE_FLOPS / 1e12, model.batch_text, sum(fwd) / 1e6, 2 * sum(fwd) / 1e6))
        out.write("# Generated by data/make-seed-profiles.py.\n")
        out.write("layer,param_bytes,forward_ns,backward_ns\n")
        for i, ((name, weights, _), f) in enumerate(zip(model.rows, fwd)):
            out.write("# %s\n%d,%d,%d,%d\n" % (name, i, 4 * weights, f, 2 * f))
    assert total == published, "%s: %d weights, published %d" % (file_name, total, published)


for name, build, title, published, source in MODELS:
    write(name, title, build(), published, source)
