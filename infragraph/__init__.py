"""InfraGraph toolchain: describe a GPU/NPU cluster once, get a fully qualified graph, and feed
every backend (validation, lint, pictures, ASTRA-sim/ns-3/HTSim inputs, collective simulation).

Start with `infragraph.sources.load_graph(path)` (an .igl program or an InfraGraph YAML/JSON
document) and the `infragraph` command line.
"""

__version__ = "0.1.0"
