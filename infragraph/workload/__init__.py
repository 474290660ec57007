"""Workloads: Chakra execution traces read, checked and replayed on a fabric (docs/workloads.md).

Submodules are imported where used (`infragraph.workload.chakra` needs only protobuf and Chakra's
package; the replay needs the simulation engine), so the bundle writer can use the codec cheaply.
"""
