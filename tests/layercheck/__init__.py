"""layercheck - the pieces of tests/layers.py, the layering checker.

table: the layer table of docs/architecture.md; tree: which files are
checked and where a path belongs; cpp: what the compiler's preprocessor
opens; decls: the names a header declares; objects: what nm says the
build's objects define and use; graph: cycles; checks: the checks
themselves, each returning its report lines.
"""
