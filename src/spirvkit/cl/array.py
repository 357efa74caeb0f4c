"""Not supported yet: pyopencl.array."""

from ._unsupported import refuse

refuse("array")
