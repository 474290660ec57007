#!/bin/sh
# Ring, direct, halving-doubling and a synthesized schedule side by side against the lower bound,
# on three fabrics (README.md has the table this prints). Run from anywhere: infragraph must be on PATH.
set -e
echo "== 3-D Ring-FC-Switch system, 128 NPUs"
infragraph simulate std.fabrics.stack -D 'shape="RI(4)_FC(4)_SW(8)"' --size 1GiB \
    --algorithm ring,direct,halving-doubling,synthesized "$@"
echo "== 2-D mesh 4x4 with the link between NPUs 5 and 6 failed"
infragraph simulate std.fabrics.mesh -D 'sizes=[4,4]' --fail 'npu.5.port.0--npu.6.port.1' --size 1GiB \
    --algorithm ring,direct,halving-doubling,synthesized "$@"
echo "== DGX H100 server (std.devices.dgx), 8 GPUs"
infragraph simulate std.devices.dgx --size 1GiB \
    --algorithm ring,direct,halving-doubling,synthesized "$@"
