"""Sphinx configuration of dx12kit's documentation (scripts/build-docs.sh builds it, warnings as errors).

The API reference is generated from the docstrings of the installed package (autodoc + napoleon for
the Google-style ``Args:``/``Returns:``/``Raises:`` sections), so build dx12kit first
(scripts/bootstrap.sh). Everything works offline: no theme or extension outside Sphinx itself.
"""
from __future__ import annotations

import dx12kit

project = "dx12kit"
author = "dx12kit contributors"
release = version = dx12kit.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["_build", "images"]
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
# pybind11 writes the signature as the docstring's first line; autodoc reads it from there.
autodoc_docstring_signature = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections as :ivar: fields, so dataclass fields are not described twice.
napoleon_use_ivar = True
nitpicky = False
suppress_warnings: list[str] = []
