"""pytest plug-in that collects lit-style ``.mlir`` tests and runs their RUN pipelines."""

__version__ = "0.1.0"
