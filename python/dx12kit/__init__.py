"""dx12kit: Direct3D 12 from Python."""
from __future__ import annotations

from . import errors
from .errors import *  # noqa: F401,F403
from . import dx12core

__version__: str = dx12core.__version__
__all__ = ["errors", "__version__", *errors.__all__]
