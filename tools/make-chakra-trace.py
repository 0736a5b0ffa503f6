#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes Chakra execution traces (per-rank <prefix>.<rank>.et files) for ddnn's tests.

The protobuf wire format is encoded here by hand (python3's standard library only): a
GlobalMetadata message then Node messages, each preceded by its varint length, with the field
numbers of model/ddnn-chakra-et.proto (those of MLCommons Chakra's schema).

Shapes:
  training   L layers: a forward chain of compute nodes, then a backward chain, and an
             all-reduce after each backward node (its size the layer's gradient bytes);
             --csv also writes the equivalent ddnn profile.
  allreduce  ASTRA-sim's microbenchmark: one all-reduce of --bytes per rank, no compute.
--malformed writes one broken variant instead, for the bad-input tests:
  truncated, oversized, cycle, unknown-type, all-gather, no-comm-size, missing-dep,
  duplicate-id, disagree-size, disagree-group, disagree-count, missing-rank, stray-file,
  not-chakra.
"""
import argparse
import os
import sys

COMP_NODE, COMM_COLL_NODE, MEM_LOAD_NODE = 4, 7, 2
ALL_REDUCE, ALL_GATHER = 0, 2


def varint(value):
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(0x80 | bits)
        else:
            out.append(bits)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def f_varint(field, value):
    return key(field, 0) + varint(value) if value else b""


def f_bytes(field, data):
    return key(field, 2) + varint(len(data)) + data


def f_packed(field, values):
    return f_bytes(field, b"".join(varint(v) for v in values)) if values else b""


def attribute(name, int64=None, uint64=None, string=None, bools=None, boolean=None):
    # A oneof member is written even when it holds 0 (unlike a plain proto3 field).
    out = f_bytes(1, name.encode())
    if boolean is not None:
        out += key(27, 0) + varint(1 if boolean else 0)
    if int64 is not None:
        out += key(9, 0) + varint(int64 & 0xFFFFFFFFFFFFFFFF)
    if uint64 is not None:
        out += key(13, 0) + varint(uint64)
    if string is not None:
        out += f_bytes(29, string.encode())
    if bools is not None:
        out += f_bytes(28, f_packed(1, [1 if b else 0 for b in bools]) or b"")
    return out


def node(nid, name, ntype, data_deps=(), ctrl_deps=(), duration_us=0, attrs=()):
    out = f_varint(1, nid) + f_bytes(2, name.encode()) + f_varint(3, ntype)
    out += f_packed(4, list(ctrl_deps)) + f_packed(5, list(data_deps))
    out += f_varint(7, duration_us)
    for a in attrs:
        out += f_bytes(10, a)
    return out


def allreduce(nid, name, size, deps=(), comm_type=ALL_REDUCE, group=None, size_attr=True,
              involved_dim=None):
    attrs = [attribute("is_cpu_op", boolean=False), attribute("comm_type", int64=comm_type)]
    if size_attr:
        attrs.append(attribute("comm_size", int64=size))
    if group is not None:
        attrs.append(attribute("pg_name", string=group))
    if involved_dim is not None:
        attrs.append(attribute("involved_dim", bools=involved_dim))
    return node(nid, name, COMM_COLL_NODE, data_deps=deps, attrs=attrs)


def framed(messages):
    return b"".join(varint(len(m)) + m for m in messages)


def metadata():
    return f_bytes(1, b"0.0.4")


def training_nodes(sizes, forward_us, backward_us, group=None):
    layers = len(sizes)
    f = lambda l: 1 + l
    b = lambda l: 1 + layers + l
    a = lambda l: 1 + 2 * layers + l
    nodes = []
    for l in range(layers):
        nodes.append(node(f(l), "fwd%d" % l, COMP_NODE, [f(l - 1)] if l else [],
                          duration_us=forward_us))
    for l in reversed(range(layers)):
        dep = [f(layers - 1)] if l == layers - 1 else [b(l + 1)]
        nodes.append(node(b(l), "bwd%d" % l, COMP_NODE, dep, duration_us=backward_us))
        nodes.append(allreduce(a(l), "allreduce%d" % l, sizes[l], [b(l)], group=group))
    return nodes


def write(folder, prefix, rank, messages, raw=None):
    with open(os.path.join(folder, "%s.%d.et" % (prefix, rank)), "wb") as out:
        out.write(raw if raw is not None else framed([metadata()] + messages))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folder")
    p.add_argument("--shape", choices=["training", "allreduce"], default="allreduce")
    p.add_argument("--ranks", type=int, default=4)
    p.add_argument("--bytes", default="1048576",
                   help="all-reduce bytes; training: one per layer, comma-separated")
    p.add_argument("--forward-us", type=int, default=100)
    p.add_argument("--backward-us", type=int, default=200)
    p.add_argument("--prefix", default="trace")
    p.add_argument("--csv", help="training: also write the equivalent ddnn profile here")
    p.add_argument("--malformed")
    o = p.parse_args()
    known = {None, "truncated", "oversized", "not-chakra", "cycle", "unknown-type",
             "all-gather", "no-comm-size", "missing-dep", "duplicate-id", "disagree-size",
             "disagree-group", "disagree-count", "missing-rank", "stray-file"}
    if o.malformed not in known:
        sys.exit("make-chakra-trace.py: --malformed: unknown variant " + o.malformed)
    sizes = [int(s) for s in o.bytes.split(",")]
    os.makedirs(o.folder, exist_ok=True)
    if o.shape == "training":
        base = training_nodes(sizes, o.forward_us, o.backward_us)
        if o.csv:
            with open(o.csv, "w") as out:
                out.write("layer,param_bytes,forward_ns,backward_ns\n")
                for l, size in enumerate(sizes):
                    out.write("%d,%d,%d,%d\n" % (l, size, o.forward_us * 1000,
                                                 o.backward_us * 1000))
    else:
        # As ASTRA-sim's microbenchmarks write it: one dimension of the network involved.
        base = [allreduce(1, "All-Reduce", sizes[0], involved_dim=[True])]
    for rank in range(o.ranks):
        nodes = list(base)
        raw = None
        m = o.malformed
        if m == "truncated" and rank == 1:
            data = framed([metadata()] + nodes)
            raw = data[:-3]
        elif m == "oversized" and rank == 1:
            raw = framed([metadata()]) + varint(1 << 40) + b"\x08\x01"
        elif m == "not-chakra" and rank == 1:
            raw = b"layer,param_bytes,forward_ns,backward_ns\n0,1,1,1\n"
        elif m == "cycle" and rank == 1:
            nodes = [node(1, "a", COMP_NODE, [2], duration_us=1),
                     node(2, "b", COMP_NODE, [1], duration_us=1),
                     allreduce(3, "All-Reduce", sizes[0], [2])]
        elif m == "unknown-type" and rank == 1:
            nodes = nodes + [node(99, "load", MEM_LOAD_NODE)]
        elif m == "all-gather" and rank == 1:
            nodes = [allreduce(1, "All-Gather", sizes[0], comm_type=ALL_GATHER)]
        elif m == "no-comm-size" and rank == 1:
            nodes = [allreduce(1, "All-Reduce", sizes[0], size_attr=False)]
        elif m == "missing-dep" and rank == 1:
            nodes = [allreduce(1, "All-Reduce", sizes[0], [42])]
        elif m == "duplicate-id" and rank == 1:
            nodes = nodes + [node(1, "again", COMP_NODE, duration_us=1)]
        elif m == "disagree-size" and rank == 1:
            nodes = [allreduce(1, "All-Reduce", sizes[0] * 2)]
        elif m == "disagree-group":
            nodes = [allreduce(1, "All-Reduce", sizes[0], group="pg%d" % (rank == 1))]
        elif m == "disagree-count" and rank == 1:
            nodes = nodes + [allreduce(1000, "All-Reduce-2", sizes[0])]
        elif m == "missing-rank" and rank == 1:
            continue
        write(o.folder, o.prefix, rank, nodes, raw)
    if o.malformed == "stray-file":
        with open(os.path.join(o.folder, "README"), "w") as out:
            out.write("not a trace\n")


if __name__ == "__main__":
    main()
